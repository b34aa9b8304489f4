/**
 * @module demo-lineage
 * The demo organization's lineage history (ADR 0044): what a new user sees on the console's Lineage
 * and Jobs pages before wiring a producer. The events have the shapes real producers send (Airflow
 * task runs under their DAG run, dbt models and a test run with one failing assertion, a Spark job
 * with schemas and column lineage writing a file path that is also a catalog table, a task that
 * failed and recovered on retry, a Flink streaming job), with times relative to now: daily runs over
 * the last week. They are replayed through the ingest API, the path every producer takes, and
 * lakeline's own routed queries over TPC-H add the lineage lakeline captures itself.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { logger } from '#shared/observability';

/** Producers as the integrations name themselves. */
export const DEMO_PRODUCERS = {
  airflow: 'https://github.com/apache/airflow/tree/providers-openlineage/1.10.0',
  dbt: 'https://github.com/OpenLineage/OpenLineage/tree/1.20.0/integration/dbt',
  spark: 'https://github.com/OpenLineage/OpenLineage/tree/1.19.0/integration/spark',
  flink: 'https://github.com/OpenLineage/OpenLineage/tree/1.19.0/integration/flink',
} as const;

/** Names the demo uses, for the console's screenshots and the tests. */
export const DEMO = {
  airflowNamespace: 'prod-airflow',
  dag: 'orders_pipeline',
  tasks: ['orders_pipeline.extract_orders', 'orders_pipeline.load_customers'],
  /** The task whose first try two days ago failed and whose retry completed. */
  recoveredTask: 'orders_pipeline.load_customers',
  sparkNamespace: 'spark-prod',
  sparkJob: 'orders_enrichment.execute_insert_into_hadoop_fs_relation_command',
  /** The Spark job's output: a file path, and the catalog table it is (`symlinks`). */
  enrichedPath: { namespace: 's3a://lake', name: '/warehouse/enriched/orders' },
  enrichedTable: { namespace: 'hive://metastore', name: 'analytics.enriched_orders' },
  dbtNamespace: 'dbt-prod',
  dbtModels: ['jaffle_shop.stg_orders', 'jaffle_shop.customer_orders'],
  dbtTest: 'jaffle_shop.customer_orders.test',
  flinkNamespace: 'flink-prod',
  flinkJob: 'clickstream_sessionizer',
} as const;

const RUN_EVENT_SCHEMA = 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent';
const facetSchema = (name: string) => `https://openlineage.io/spec/facets/1-0-1/${name}.json#/$defs/${name}`;
const facet = (producer: string, name: string, body: Record<string, unknown>) => ({ _producer: producer, _schemaURL: facetSchema(name), ...body });

type State = 'START' | 'RUNNING' | 'COMPLETE' | 'FAIL';
interface Dataset {
  namespace: string;
  name: string;
  facets?: Record<string, unknown>;
  inputFacets?: Record<string, unknown>;
}
interface Run {
  producer: string;
  job: { namespace: string; name: string };
  runId: string;
  jobFacets?: Record<string, unknown>;
  runFacets?: Record<string, unknown>;
  inputs?: Dataset[];
  outputs?: Dataset[];
}

const event = (run: Run, eventType: State, at: Date, extraRunFacets: Record<string, unknown> = {}) => ({
  eventType,
  eventTime: at.toISOString(),
  producer: run.producer,
  schemaURL: RUN_EVENT_SCHEMA,
  run: { runId: run.runId, facets: { ...run.runFacets, ...extraRunFacets } },
  job: { namespace: run.job.namespace, name: run.job.name, facets: run.jobFacets ?? {} },
  inputs: run.inputs ?? [],
  outputs: eventType === 'START' ? [] : (run.outputs ?? []),
});

/** START at `start`, then COMPLETE (or FAIL with `error`) `minutes` later. */
const runEvents = (run: Run, start: Date, minutes: number, error?: string) => [
  event(run, 'START', start),
  error
    ? event(run, 'FAIL', new Date(start.getTime() + minutes * 60_000), { errorMessage: facet(run.producer, 'ErrorMessageRunFacet', { message: error, programmingLanguage: 'python' }) })
    : event(run, 'COMPLETE', new Date(start.getTime() + minutes * 60_000)),
];

const schema = (producer: string, fields: [string, string][]) => ({ schema: facet(producer, 'SchemaDatasetFacet', { fields: fields.map(([name, type]) => ({ name, type })) }) });
const jobType = (producer: string, processingType: 'BATCH' | 'STREAMING', integration: string, type: string) => ({ jobType: facet(producer, 'JobTypeJobFacet', { processingType, integration, jobType: type }) });

const RAW_ORDERS: Dataset = { namespace: 's3a://lake', name: '/warehouse/raw/orders' };
const RAW_CUSTOMERS: Dataset = { namespace: 's3a://lake', name: '/warehouse/raw/customers' };
const ORDERS_DB = 'postgres://orders-db:5432';

/** One day's Airflow DAG run with its two tasks; the task that failed two days ago retried. */
const airflowDay = (start: Date, daysAgo: number) => {
  const p = DEMO_PRODUCERS.airflow;
  const dagRun = { runId: randomUUID(), runIdText: `scheduled__${start.toISOString().slice(0, 10)}T02:00:00+00:00` };
  const parent = facet(p, 'ParentRunFacet', { run: { runId: dagRun.runId }, job: { namespace: DEMO.airflowNamespace, name: DEMO.dag } });
  const airflowFacet = (taskId: string, operator: string, tryNumber: number) => ({
    airflow: facet(p, 'AirflowRunFacet', { dag: { dag_id: DEMO.dag, schedule_interval: '0 2 * * *', owner: 'data-eng' }, dagRun: { dag_id: DEMO.dag, run_id: dagRun.runIdText, run_type: 'scheduled' }, task: { task_id: taskId, operator_class: operator }, taskInstance: { try_number: tryNumber } }),
    parent,
  });
  const task = (taskId: string, operator: string, inputs: Dataset[], outputs: Dataset[], tryNumber = 1): Run => ({
    producer: p,
    job: { namespace: DEMO.airflowNamespace, name: `${DEMO.dag}.${taskId}` },
    runId: randomUUID(),
    jobFacets: jobType(p, 'BATCH', 'AIRFLOW', 'TASK'),
    runFacets: airflowFacet(taskId, operator, tryNumber),
    inputs,
    outputs,
  });
  const ordersTable: Dataset = { namespace: ORDERS_DB, name: 'shop.public.orders', facets: schema(p, [['order_id', 'integer'], ['customer_id', 'integer'], ['status', 'varchar'], ['amount', 'numeric'], ['ordered_at', 'timestamp']]) };
  const customersTable: Dataset = { namespace: ORDERS_DB, name: 'shop.public.customers', facets: schema(p, [['customer_id', 'integer'], ['name', 'varchar'], ['country', 'varchar']]) };
  const at = (minutes: number) => new Date(start.getTime() + minutes * 60_000);
  const events = [
    event({ producer: p, job: { namespace: DEMO.airflowNamespace, name: DEMO.dag }, runId: dagRun.runId, jobFacets: jobType(p, 'BATCH', 'AIRFLOW', 'DAG') }, 'START', start),
    ...runEvents(task('extract_orders', 'SQLExecuteQueryOperator', [ordersTable], [RAW_ORDERS]), at(1), 6 + (daysAgo % 3)),
  ];
  if (daysAgo === 2) {
    events.push(...runEvents(task('load_customers', 'PostgresToS3Operator', [customersTable], [RAW_CUSTOMERS]), at(1), 3, 'psycopg2.OperationalError: could not connect to server: Connection timed out'));
    events.push(...runEvents(task('load_customers', 'PostgresToS3Operator', [customersTable], [RAW_CUSTOMERS], 2), at(10), 4));
  } else {
    events.push(...runEvents(task('load_customers', 'PostgresToS3Operator', [customersTable], [RAW_CUSTOMERS]), at(1), 4));
  }
  events.push(event({ producer: p, job: { namespace: DEMO.airflowNamespace, name: DEMO.dag }, runId: dagRun.runId, jobFacets: jobType(p, 'BATCH', 'AIRFLOW', 'DAG') }, 'COMPLETE', at(16)));
  return events;
};

/** The Spark job joining the raw files into the enriched orders, with column lineage. */
const sparkDay = (start: Date) => {
  const p = DEMO_PRODUCERS.spark;
  const from = (dataset: Dataset, field: string, subtype = 'IDENTITY') => ({ namespace: dataset.namespace, name: dataset.name, field, transformations: [{ type: 'DIRECT', subtype, description: '', masking: false }] });
  const columnLineage = facet(p, 'ColumnLineageDatasetFacet', {
    fields: {
      order_id: { inputFields: [from(RAW_ORDERS, 'order_id')] },
      customer_name: { inputFields: [from(RAW_CUSTOMERS, 'name')] },
      country: { inputFields: [from(RAW_CUSTOMERS, 'country')] },
      amount_usd: { inputFields: [from(RAW_ORDERS, 'amount', 'TRANSFORMATION')] },
      order_date: { inputFields: [from(RAW_ORDERS, 'ordered_at', 'TRANSFORMATION')] },
    },
  });
  const run: Run = {
    producer: p,
    job: { namespace: DEMO.sparkNamespace, name: DEMO.sparkJob },
    runId: randomUUID(),
    jobFacets: jobType(p, 'BATCH', 'SPARK', 'SQL_JOB'),
    runFacets: { processing_engine: facet(p, 'ProcessingEngineRunFacet', { version: '3.5.1', name: 'spark', openlineageAdapterVersion: '1.19.0' }) },
    inputs: [
      { ...RAW_ORDERS, facets: schema(p, [['order_id', 'integer'], ['customer_id', 'integer'], ['status', 'string'], ['amount', 'decimal(12,2)'], ['ordered_at', 'timestamp']]) },
      { ...RAW_CUSTOMERS, facets: schema(p, [['customer_id', 'integer'], ['name', 'string'], ['country', 'string']]) },
    ],
    outputs: [
      {
        ...DEMO.enrichedPath,
        facets: {
          ...schema(p, [['order_id', 'integer'], ['customer_name', 'string'], ['country', 'string'], ['amount_usd', 'decimal(12,2)'], ['order_date', 'date']]),
          columnLineage,
          symlinks: facet(p, 'SymlinksDatasetFacet', { identifiers: [{ ...DEMO.enrichedTable, type: 'TABLE' }] }),
        },
      },
    ],
  };
  return runEvents(run, start, 9);
};

/** dbt models over the enriched orders, and a test run; the latest test run has a failing assertion. */
const dbtDay = (start: Date, latest: boolean) => {
  const p = DEMO_PRODUCERS.dbt;
  const dbtFacets = { dbt_version: facet(p, 'DbtVersionRunFacet', { version: '1.8.4' }) };
  const stg: Dataset = { namespace: DEMO.enrichedTable.namespace, name: 'analytics.stg_orders', facets: schema(p, [['order_id', 'integer'], ['customer_name', 'string'], ['amount_usd', 'decimal']]) };
  // dbt's `tags` and `meta` travel as OpenLineage `tags` facets: the model's owner team, the mart's tier, a PII column.
  const customerOrders: Dataset = {
    namespace: DEMO.enrichedTable.namespace,
    name: 'analytics.customer_orders',
    facets: {
      ...schema(p, [['customer_name', 'string'], ['orders', 'bigint'], ['lifetime_value', 'decimal']]),
      tags: facet(p, 'TagsDatasetFacet', { tags: [{ key: 'tier', value: 'gold', source: 'DBT' }, { key: 'pii', value: 'true', source: 'DBT', field: 'customer_name' }] }),
    },
  };
  const modelFacets = { ...jobType(p, 'BATCH', 'DBT', 'MODEL'), tags: facet(p, 'TagsJobFacet', { tags: [{ key: 'team', value: 'analytics', source: 'DBT' }] }) };
  const model = (name: string, inputs: Dataset[], outputs: Dataset[]): Run => ({ producer: p, job: { namespace: DEMO.dbtNamespace, name }, runId: randomUUID(), jobFacets: modelFacets, runFacets: dbtFacets, inputs, outputs });
  const assertions = [
    { assertion: 'not_null', success: true, column: 'customer_name' },
    { assertion: 'unique', success: true, column: 'customer_name' },
    { assertion: 'expression_is_true', success: !latest, column: 'lifetime_value' },
  ];
  const test: Run = {
    producer: p,
    job: { namespace: DEMO.dbtNamespace, name: DEMO.dbtTest },
    runId: randomUUID(),
    jobFacets: jobType(p, 'BATCH', 'DBT', 'TEST'),
    runFacets: dbtFacets,
    inputs: [{ namespace: customerOrders.namespace, name: customerOrders.name, inputFacets: { dataQualityAssertions: facet(p, 'DataQualityAssertionsDatasetFacet', { assertions }) } }],
  };
  const at = (minutes: number) => new Date(start.getTime() + minutes * 60_000);
  return [
    ...runEvents(model(DEMO.dbtModels[0], [{ ...DEMO.enrichedTable }], [stg]), start, 2),
    ...runEvents(model(DEMO.dbtModels[1], [{ namespace: stg.namespace, name: stg.name }], [customerOrders]), at(3), 3),
    ...runEvents(test, at(7), 1, latest ? 'Failure in test expression_is_true_customer_orders_lifetime_value__0: Got 3 results, configured to fail if != 0' : undefined),
  ];
};

/** A Flink job sessionizing a Kafka topic: started three days ago, RUNNING checkpoints since. */
const flinkEvents = (now: Date) => {
  const p = DEMO_PRODUCERS.flink;
  const kafka = 'kafka://broker:9092';
  const run: Run = {
    producer: p,
    job: { namespace: DEMO.flinkNamespace, name: DEMO.flinkJob },
    runId: randomUUID(),
    jobFacets: jobType(p, 'STREAMING', 'FLINK', 'JOB'),
    inputs: [{ namespace: kafka, name: 'clickstream.events', facets: schema(p, [['user_id', 'string'], ['url', 'string'], ['ts', 'timestamp']]) }],
    outputs: [{ namespace: kafka, name: 'clickstream.sessions', facets: schema(p, [['user_id', 'string'], ['session_start', 'timestamp'], ['pages', 'int']]) }],
  };
  const started = new Date(now.getTime() - 3 * 86_400_000);
  return [event(run, 'START', started), ...[2, 1, 0].map((d) => event(run, 'RUNNING', new Date(now.getTime() - d * 86_400_000 - 30 * 60_000)))];
};

/** The whole history, oldest first: daily runs at 02:00 UTC over the last `days` days. */
export const demoLineageEvents = (now = new Date(), days = 7): object[] => {
  const events: object[] = [];
  for (let daysAgo = days - 1; daysAgo >= 0; daysAgo--) {
    const day = new Date(now.getTime() - daysAgo * 86_400_000);
    day.setUTCHours(2, 0, 0, 0);
    // Today's 02:00 may still be ahead: that day's runs start an hour ago instead.
    if (day > now) day.setTime(now.getTime() - 3_600_000);
    const minute = (m: number) => new Date(day.getTime() + m * 60_000);
    events.push(...airflowDay(day, daysAgo), ...sparkDay(minute(20)), ...(daysAgo < 3 ? dbtDay(minute(32), daysAgo === 0) : []));
  }
  events.push(...flinkEvents(now));
  return events;
};

/** lakeline's own queries over TPC-H: a read (DuckDB, inline) and a write (Spark, in the background). */
export const DEMO_QUERIES = [
  { query: 'SELECT n.n_name AS nation, count(*) AS customers, round(sum(c.c_acctbal), 2) AS balance FROM tpch.customer c JOIN tpch.nation n ON c.c_nationkey = n.n_nationkey GROUP BY n.n_name ORDER BY balance DESC' },
  {
    query: 'SELECT n.n_name AS nation, r.r_name AS region, count(o.o_orderkey) AS orders, sum(o.o_totalprice) AS revenue FROM tpch.orders o JOIN tpch.customer c ON o.o_custkey = c.c_custkey JOIN tpch.nation n ON c.c_nationkey = n.n_nationkey JOIN tpch.region r ON n.n_regionkey = r.r_regionkey GROUP BY n.n_name, r.r_name',
    destination: 'analytics.nation_summary',
  },
] as const;

/** The marker in the home that says the history was seeded (only the first start seeds it). */
const MARKER = 'demo-lineage-seeded';

/**
 * Seeds the demo lineage on first start through the stack's own API. The events go in one batch
 * (stored events are deduplicated by identity, so a resend after a crash is harmless); the routed
 * queries are submitted without waiting for the Spark write to end.
 */
export const seedDemoLineage = async (home: string, baseUrl: string, apiKey: string, now = new Date()): Promise<void> => {
  const marker = path.join(home, MARKER);
  if (existsSync(marker)) return;
  const post = (route: string, body: unknown) =>
    fetch(`${baseUrl}${route}`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const batch = await post('/api/v1/lineage/batch', demoLineageEvents(now));
  if (batch.status !== 200) throw new Error(`the demo lineage batch was refused (${batch.status}): ${(await batch.text()).slice(0, 500)}`);
  for (const query of DEMO_QUERIES) {
    const answer = await post('/api/v1/query', query);
    if (answer.status !== 200) logger.warn('a demo query failed; its lineage will be missing', { status: answer.status, body: (await answer.text()).slice(0, 500) });
  }
  writeFileSync(marker, `${now.toISOString()}\n`);
};
