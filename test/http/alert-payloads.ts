/**
 * @module alert-payloads
 * OpenLineage events in the shapes real producers send, for the alert suites: the Spark
 * integration's FAIL (with its `spark_version`, `processing_engine` and `errorMessage` facets, a
 * Java stack trace), an Airflow task instance failing (the provider's `airflow` and `errorMessage`
 * facets, the DAG run as `parent`), dbt-ol's test run (an input's `dataQualityAssertions` facet,
 * one assertion per dbt test, with its column), and a plain START/COMPLETE pair with
 * `outputStatistics` for the run figures.
 */
import { randomUUID } from 'node:crypto';

export const PRODUCERS = {
  spark: 'https://github.com/OpenLineage/OpenLineage/tree/1.23.0/integration/spark',
  airflow: 'https://github.com/apache/airflow/tree/providers-openlineage/1.14.0',
  dbt: 'https://github.com/OpenLineage/OpenLineage/tree/1.23.0/integration/dbt',
} as const;

const RUN_EVENT = 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent';
const facet = (producer: string, name: string, body: Record<string, unknown>) => ({ _producer: producer, _schemaURL: `https://openlineage.io/spec/facets/1-0-1/${name}.json#/$defs/${name}`, ...body });

type Json = Record<string, unknown>;

/** A Spark application's job failing while writing `output` from `input`. */
export const sparkEvent = (opts: { eventType: 'START' | 'FAIL' | 'COMPLETE'; runId: string; time: string; job: string; input: Json; output: Json }): Json => {
  const p = PRODUCERS.spark;
  return {
    eventType: opts.eventType,
    eventTime: opts.time,
    producer: p,
    schemaURL: RUN_EVENT,
    run: {
      runId: opts.runId,
      facets: {
        spark_version: { _producer: p, _schemaURL: `${p}/facets/spark/v1/spark-version-facet.json`, 'spark-version': '3.5.1', 'openlineage-spark-version': '1.23.0' },
        processing_engine: facet(p, 'ProcessingEngineRunFacet', { version: '3.5.1', name: 'spark', openlineageAdapterVersion: '1.23.0' }),
        ...(opts.eventType === 'FAIL'
          ? {
              errorMessage: facet(p, 'ErrorMessageRunFacet', {
                message: 'Job aborted due to stage failure: Task 3 in stage 7.0 failed 4 times',
                programmingLanguage: 'JAVA',
                stackTrace: 'org.apache.spark.SparkException: Job aborted due to stage failure\n\tat org.apache.spark.scheduler.DAGScheduler.failJobAndIndependentStages(DAGScheduler.scala:2856)',
              }),
            }
          : {}),
      },
    },
    job: { namespace: 'spark-prod', name: opts.job, facets: { jobType: facet(p, 'JobTypeJobFacet', { processingType: 'BATCH', integration: 'SPARK', jobType: 'SQL_JOB' }) } },
    inputs: [opts.input],
    outputs: [opts.output],
  };
};

/** An Airflow task instance's event (the DAG run as its parent). */
export const airflowTaskEvent = (opts: { eventType: 'START' | 'FAIL' | 'COMPLETE'; runId: string; dagRunId: string; time: string; dag: string; task: string; outputs?: Json[] }): Json => {
  const p = PRODUCERS.airflow;
  return {
    eventType: opts.eventType,
    eventTime: opts.time,
    producer: p,
    schemaURL: RUN_EVENT,
    run: {
      runId: opts.runId,
      facets: {
        parent: facet(p, 'ParentRunFacet', { run: { runId: opts.dagRunId }, job: { namespace: 'prod-airflow', name: opts.dag } }),
        airflow: { _producer: p, _schemaURL: `${p}/airflow/facets/AirflowRunFacet.json`, dag: { dag_id: opts.dag, schedule_interval: '@hourly' }, task: { task_id: opts.task, operator_class: 'PythonOperator' }, taskInstance: { try_number: 1 } },
        ...(opts.eventType === 'FAIL' ? { errorMessage: facet(p, 'ErrorMessageRunFacet', { message: "KeyError: 'customer_id'", programmingLanguage: 'python' }) } : {}),
      },
    },
    job: { namespace: 'prod-airflow', name: `${opts.dag}.${opts.task}`, facets: { jobType: facet(p, 'JobTypeJobFacet', { processingType: 'BATCH', integration: 'AIRFLOW', jobType: 'TASK' }) } },
    inputs: [],
    outputs: opts.outputs ?? [],
  };
};

/** dbt-ol's COMPLETE of a `dbt test` run: one assertion per test on the model's input. */
export const dbtTestEvent = (opts: { runId: string; time: string; namespace: string; model: string; assertions: { assertion: string; success: boolean; column?: string }[] }): Json => {
  const p = PRODUCERS.dbt;
  return {
    eventType: 'COMPLETE',
    eventTime: opts.time,
    producer: p,
    schemaURL: RUN_EVENT,
    run: { runId: opts.runId, facets: { dbt_version: { _producer: p, _schemaURL: `${p}/facets/dbt-version-run-facet.json`, version: '1.8.4' } } },
    job: { namespace: 'dbt-prod', name: `jaffle_shop.${opts.model}.test`, facets: { jobType: facet(p, 'JobTypeJobFacet', { processingType: 'BATCH', integration: 'DBT', jobType: 'TEST' }) } },
    inputs: [{ namespace: opts.namespace, name: opts.model, facets: {}, inputFacets: { dataQualityAssertions: facet(p, 'DataQualityAssertionsDatasetFacet', { assertions: opts.assertions }) } }],
    outputs: [],
  };
};

/** A dataset with an `ownership` facet. */
export const ownedDataset = (namespace: string, name: string, owner: string): Json => ({
  namespace,
  name,
  facets: { ownership: facet(PRODUCERS.spark, 'OwnershipDatasetFacet', { owners: [{ name: owner, type: 'TEAM' }] }) },
});

/** A run's START and COMPLETE `minutes` apart, its output reporting `rows`. */
export const timedRun = (opts: { job: string; start: string; minutes: number; rows: number; output: string }): Json[] => {
  const runId = randomUUID();
  const end = new Date(Date.parse(opts.start) + opts.minutes * 60_000).toISOString();
  const base = (eventType: string, eventTime: string, outputs: Json[]) => ({ eventType, eventTime, producer: PRODUCERS.airflow, schemaURL: RUN_EVENT, run: { runId }, job: { namespace: 'prod-airflow', name: opts.job }, inputs: [], outputs });
  return [
    base('START', opts.start, []),
    base('COMPLETE', end, [{ namespace: 'postgres://db:5432', name: opts.output, outputFacets: { outputStatistics: facet(PRODUCERS.airflow, 'OutputStatisticsOutputDatasetFacet', { rowCount: opts.rows, size: opts.rows * 100 }) } }]),
  ];
};
