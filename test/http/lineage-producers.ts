/**
 * @module lineage-producers
 * OpenLineage events in the shapes real producers send (openlineage-spark, the Airflow provider,
 * dbt-ol 1.x): their producer URLs, parent facets, dataset namespaces and statistics facets, for the
 * lineage tables' suites.
 */
import { randomUUID } from 'node:crypto';

const SCHEMA = 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent';
const SPARK = 'https://github.com/OpenLineage/OpenLineage/tree/1.23.0/integration/spark';
const AIRFLOW = 'https://github.com/apache/airflow/tree/providers-openlineage/1.14.0';
const DBT = 'https://github.com/OpenLineage/OpenLineage/tree/1.23.0/integration/dbt';

/** A producer's run: its events in order and what the tables must say of it. */
export interface ProducerRun {
  readonly runId: string;
  readonly job: { readonly namespace: string; readonly name: string };
  readonly events: Record<string, unknown>[];
  readonly integration: string;
  readonly integrationVersion: string;
  readonly state: string;
  readonly durationMs: number;
  readonly errorMessage: string | null;
  readonly output: { readonly namespace: string; readonly name: string; readonly rowCount: number | null; readonly bytes: number | null };
  readonly parent: { readonly runId: string; readonly namespace: string; readonly name: string } | null;
}

const at = (base: Date, seconds: number): string => new Date(base.getTime() + seconds * 1000).toISOString();

/** openlineage-spark: START then COMPLETE with outputStatistics, inputs with the schema facet, a parent application run. */
export const sparkRun = (base: Date, jobNamespace = 'spark-prod'): ProducerRun => {
  const runId = randomUUID();
  const parent = { runId: randomUUID(), namespace: jobNamespace, name: 'orders_etl' };
  const job = { namespace: jobNamespace, name: 'orders_etl.execute_insert_into_hadoop_fs_relation_command.warehouse_daily_orders' };
  const facets = { parent: { _producer: SPARK, _schemaURL: 'https://openlineage.io/spec/facets/1-0-1/ParentRunFacet.json#/$defs/ParentRunFacet', run: { runId: parent.runId }, job: { namespace: parent.namespace, name: parent.name } } };
  const inputs = [{ namespace: 'hdfs://namenode:8020', name: '/warehouse/raw/orders', facets: { schema: { _producer: SPARK, _schemaURL: 'https://openlineage.io/spec/facets/1-1-1/SchemaDatasetFacet.json#/$defs/SchemaDatasetFacet', fields: [{ name: 'o_orderkey', type: 'long' }] } } }];
  const output = { namespace: 's3://lake', name: 'warehouse/daily_orders' };
  const start = { eventType: 'START', eventTime: at(base, 0), producer: SPARK, schemaURL: SCHEMA, run: { runId, facets }, job: { ...job, facets: { jobType: { _producer: SPARK, _schemaURL: 'https://openlineage.io/spec/facets/2-0-3/JobTypeJobFacet.json#/$defs/JobTypeJobFacet', processingType: 'BATCH', integration: 'SPARK', jobType: 'SQL_JOB' } } }, inputs, outputs: [output] };
  const complete = {
    ...start,
    eventType: 'COMPLETE',
    eventTime: at(base, 95.5),
    outputs: [{ ...output, outputFacets: { outputStatistics: { _producer: SPARK, _schemaURL: 'https://openlineage.io/spec/facets/1-0-2/OutputStatisticsOutputDatasetFacet.json#/$defs/OutputStatisticsOutputDatasetFacet', rowCount: 1_234_567, size: 98_765_432, fileCount: 12 } } }],
  };
  return { runId, job, events: [start, complete], integration: 'spark', integrationVersion: '1.23.0', state: 'COMPLETE', durationMs: 95_500, errorMessage: null, output: { ...output, rowCount: 1_234_567, bytes: 98_765_432 }, parent };
};

/** The Airflow provider: a task's START and FAIL with the errorMessage facet, parented by its DAG run. */
export const airflowRun = (base: Date): ProducerRun => {
  const runId = randomUUID();
  const parent = { runId: randomUUID(), namespace: 'airflow://prod', name: 'daily_orders' };
  const job = { namespace: 'airflow://prod', name: 'daily_orders.load_orders' };
  const parentFacet = { _producer: AIRFLOW, _schemaURL: 'https://openlineage.io/spec/facets/1-0-1/ParentRunFacet.json#/$defs/ParentRunFacet', run: { runId: parent.runId }, job: { namespace: parent.namespace, name: parent.name } };
  const airflowFacet = { _producer: AIRFLOW, _schemaURL: 'https://raw.githubusercontent.com/apache/airflow/providers-openlineage/1.14.0/airflow/providers/openlineage/facets/AirflowRunFacet.json#/definitions/AirflowRunFacet', dag: { dag_id: 'daily_orders' }, task: { task_id: 'load_orders', operator_class: 'PostgresOperator' } };
  const io = { inputs: [{ namespace: 'postgres://db:5432', name: 'shop.public.orders' }], outputs: [{ namespace: 'postgres://db:5432', name: 'shop.public.daily_orders' }] };
  const start = { eventType: 'START', eventTime: at(base, 10), producer: AIRFLOW, schemaURL: SCHEMA, run: { runId, facets: { parent: parentFacet, airflow: airflowFacet } }, job, ...io };
  const fail = {
    ...start,
    eventType: 'FAIL',
    eventTime: at(base, 40),
    run: { runId, facets: { parent: parentFacet, errorMessage: { _producer: AIRFLOW, _schemaURL: 'https://openlineage.io/spec/facets/1-0-0/ErrorMessageRunFacet.json#/$defs/ErrorMessageRunFacet', message: 'relation "orders" does not exist', programmingLanguage: 'python' } } },
  };
  return { runId, job, events: [start, fail], integration: 'airflow', integrationVersion: '1.14.0', state: 'FAIL', durationMs: 30_000, errorMessage: 'relation "orders" does not exist', output: { ...io.outputs[0]!, rowCount: null, bytes: null }, parent };
};

/** dbt-ol: a model's START and COMPLETE with outputStatistics rowCount only (dbt reports no size). */
export const dbtRun = (base: Date): ProducerRun => {
  const runId = randomUUID();
  const job = { namespace: 'dbt', name: 'jaffle_shop.model.jaffle_shop.customers' };
  const output = { namespace: 'postgres://warehouse:5432', name: 'analytics.public.customers' };
  const start = { eventType: 'START', eventTime: at(base, 20), producer: DBT, schemaURL: SCHEMA, run: { runId, facets: { dbt_version: { _producer: DBT, _schemaURL: 'https://github.com/OpenLineage/OpenLineage/tree/main/integration/common/openlineage/schema/dbt-version-run-facet.json', version: '1.8.0' } } }, job, inputs: [{ namespace: 'postgres://warehouse:5432', name: 'analytics.public.stg_customers' }], outputs: [output] };
  const complete = { ...start, eventType: 'COMPLETE', eventTime: at(base, 22.25), outputs: [{ ...output, outputFacets: { outputStatistics: { _producer: DBT, _schemaURL: 'https://openlineage.io/spec/facets/1-0-2/OutputStatisticsOutputDatasetFacet.json#/$defs/OutputStatisticsOutputDatasetFacet', rowCount: 100 } } }] };
  return { runId, job, events: [start, complete], integration: 'dbt', integrationVersion: '1.23.0', state: 'COMPLETE', durationMs: 2_250, errorMessage: null, output: { ...output, rowCount: 100, bytes: null }, parent: null };
};
