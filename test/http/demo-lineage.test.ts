/**
 * The demo lineage seed (ADR 0044): a local stack started on a fresh home shows, through the API,
 * the Airflow DAG with its task runs, the dbt test run with its failing assertion, the task that
 * failed and recovered on retry, the Spark job's column lineage, the file path found by its
 * catalog table's name, dbt's tags, the Flink streaming job, and lakeline's own queries over TPC-H;
 * LAKELINE_DEMO_LINEAGE=0 leaves the graph empty.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../local/demo-lineage.ts';
import { startStackProcess, tempHome, type StackProcess } from '../helpers/local-stack-process.ts';
import { lineageApi } from './lineage-api.ts';
import { columnEdges, eventually, graphApi, type GraphApi } from './lineage-graph-api.ts';

/** How long the lineage model may take to show the seed after start (the whole batch, under load). */
const MODEL_WITHIN_MS = 20_000;
/** The seed's Spark write runs in the background: ~15 s on a quiet machine. */
const SPARK_WITHIN_MS = 90_000;

interface RunView {
  id: string;
  state: string;
  startedAt: string | null;
}

let seeded: StackProcess;
let graph: GraphApi;

beforeAll(async () => {
  seeded = await startStackProcess(tempHome('demo-lineage'), 0, { LAKELINE_DEMO_LINEAGE: '1' });
  graph = graphApi(seeded.baseUrl, seeded.apiKey);
  // The seed is stored before the stack says it is up; the model applies it in the background.
  await eventually(() => graph.get<{ totalCount: number }>('ListLineageJobs', { namespace: DEMO.dbtNamespace }), (a) => a.body.totalCount === 3, Date.now(), MODEL_WITHIN_MS);
}, 120_000);

afterAll(async () => {
  await seeded?.stop();
});

describe('the demo lineage seeded on first start', () => {
  it("Should show the Airflow DAG's tasks in one graph with the Spark and dbt jobs, and the DAG run's task runs as its children", async () => {
    // Act
    const lineage = await graph.lineage({ nodeId: `job:${DEMO.airflowNamespace}:${DEMO.tasks[0]}`, depth: '5' });
    const runs = await graph.get<{ runs: RunView[] }>('ListLineageJobRuns', { namespace: DEMO.airflowNamespace, job: DEMO.dag });
    const latest = runs.body.runs[0] as RunView;
    const dagRun = await graph.get<{ children: { runId: string }[] }>('GetLineageRun', { runId: latest.id });

    // Assess
    expect(lineage.status).toBe(200);
    expect(lineage.body.graph.map((n) => n.id)).toEqual(
      expect.arrayContaining([
        ...DEMO.tasks.map((t) => `job:${DEMO.airflowNamespace}:${t}`),
        `job:${DEMO.sparkNamespace}:${DEMO.sparkJob}`,
        ...DEMO.dbtModels.map((m) => `job:${DEMO.dbtNamespace}:${m}`),
        `dataset:${DEMO.enrichedTable.namespace}:${DEMO.enrichedTable.name}`,
      ]),
    );
    expect(runs.body.runs.map((r) => r.state)).toEqual(Array(7).fill('COMPLETED'));
    expect(dagRun.body.children).toHaveLength(DEMO.tasks.length);
  });

  it("Should keep the dbt test run's failing assertion in its event, the run FAILED", async () => {
    // Act
    const events = await lineageApi(seeded.baseUrl, seeded.apiKey).events({ start: '0', end: '4102444800', job: DEMO.dbtTest, states: 'FAIL' });

    // Assess
    expect(events.status).toBe(200);
    expect(events.body).toHaveLength(1);
    const raw = events.body[0]?.event_raw as { inputs: { inputFacets: { dataQualityAssertions: { assertions: { assertion: string; success: boolean }[] } } }[] } | undefined;
    const assertions = raw?.inputs[0]?.inputFacets.dataQualityAssertions.assertions ?? [];
    expect(assertions.filter((a) => !a.success).map((a) => a.assertion)).toEqual(['expression_is_true']);
    expect(assertions.filter((a) => a.success)).toHaveLength(2);
  });

  it('Should list the task that failed two days ago, then recovered on retry: FAILED, then COMPLETED', async () => {
    // Act
    const runs = await graph.get<{ runs: RunView[] }>('ListLineageJobRuns', { namespace: DEMO.airflowNamespace, job: DEMO.recoveredTask });

    // Assess: newest first, so oldest first reversed; the retry comes right after the failure.
    const states = runs.body.runs.map((r) => r.state).reverse();
    expect(states.filter((s) => s === 'FAILED')).toHaveLength(1);
    const failed = states.indexOf('FAILED');
    expect(states[failed + 1]).toBe('COMPLETED');
    expect(states.at(-1)).toBe('COMPLETED');
  });

  it("Should give the Spark job's column lineage, and find its file-path output by the catalog table's name", async () => {
    // Act
    const columns = await graph.columnLineage({ nodeId: `datasetField:${DEMO.enrichedTable.namespace}:${DEMO.enrichedTable.name}:amount_usd` });
    const search = await graph.search({ q: 'enriched_orders' });
    const byPath = await graph.get<{ namespace: string; name: string }>('GetLineageDataset', { namespace: DEMO.enrichedPath.namespace, dataset: DEMO.enrichedPath.name });

    // Assess
    expect(columns.status).toBe(200);
    expect(columnEdges(columns.body)).toEqual(['amount_usd <- /warehouse/raw/orders.amount [DIRECT/TRANSFORMATION]']);
    expect(search.body.results.map((r) => r.nodeId)).toEqual([`dataset:${DEMO.enrichedTable.namespace}:${DEMO.enrichedTable.name}`]);
    expect([byPath.status, byPath.body.namespace, byPath.body.name]).toEqual([200, DEMO.enrichedTable.namespace, DEMO.enrichedTable.name]);
  });

  it("Should carry dbt's tags: the models' team, the mart's tier and its PII column, and list them", async () => {
    // Act
    const model = await graph.get<{ tags: string[] }>('GetLineageJob', { namespace: DEMO.dbtNamespace, job: DEMO.dbtModels[1] });
    const mart = await graph.get<{ tags: string[]; fields: { name: string; tags: string[] }[] }>('GetLineageDataset', { namespace: DEMO.enrichedTable.namespace, dataset: 'analytics.customer_orders' });
    const tags = await graph.get<{ tags: { name: string }[] }>('ListTags');

    // Assess
    expect(model.body.tags).toEqual(['team:analytics']);
    expect([mart.body.tags, mart.body.fields.find((f) => f.name === 'customer_name')?.tags]).toEqual([['tier:gold'], ['pii']]);
    expect(tags.body.tags.map((t) => t.name)).toEqual(['pii', 'team:analytics', 'tier:gold']);
  });

  it('Should show the Flink job as a streaming job, still RUNNING', async () => {
    // Act
    const job = await graph.get<{ type: string; latestRun: { state: string } | null }>('GetLineageJob', { namespace: DEMO.flinkNamespace, job: DEMO.flinkJob });

    // Assess
    expect([job.status, job.body.type, job.body.latestRun?.state]).toEqual([200, 'STREAM', 'RUNNING']);
  });

  it("Should show lakeline's own queries over TPC-H: the DuckDB read, and the Spark write of analytics.nation_summary once it ends", async () => {
    // Act: the write runs in the background; it ends within a Spark run's time.
    const { answer } = await eventually(
      () => graph.get<{ jobs: { name: string; latestRun: { state: string } | null; outputs: { name: string }[] }[] }>('ListLineageJobs', { namespace: 'lakeline' }),
      (a) => a.body.jobs.length === 2 && a.body.jobs.every((j) => j.latestRun?.state === 'COMPLETED'),
      Date.now(),
      SPARK_WITHIN_MS,
    );

    // Assess
    expect(answer.body.jobs.map((j) => j.latestRun?.state)).toEqual(['COMPLETED', 'COMPLETED']);
    expect(answer.body.jobs.flatMap((j) => j.outputs.map((o) => o.name))).toContainEqual(expect.stringMatching(/nation_summary/));
  }, SPARK_WITHIN_MS + 10_000);
});

describe('LAKELINE_DEMO_LINEAGE=0', () => {
  it('Should leave the lineage graph empty', async () => {
    // Prepare
    const plain = await startStackProcess(tempHome('demo-lineage-off'), 0, { LAKELINE_DEMO_LINEAGE: '0' });
    try {
      // Act
      const namespaces = await graphApi(plain.baseUrl, plain.apiKey).get<{ namespaces: unknown[] }>('ListNamespaces');

      // Assess
      expect([namespaces.status, namespaces.body.namespaces]).toEqual([200, []]);
    } finally {
      await plain.stop();
    }
  }, 90_000);
});
