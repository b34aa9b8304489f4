/**
 * The routed query use case against in-memory ports and the real SQL firewall: explain runs no
 * engine, submits no run, records no lineage and no usage; an interactive read runs DuckDB in the
 * band's sandbox with START/COMPLETE lineage; writes and large reads become Spark runs with the
 * statement's own semantics, bloom reads bloom runs, each handed the plan's org and loaded tables
 * (nothing fetched, listed or loaded twice); polars runs behind its port and is metered; billing
 * refusals come before anything runs.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PlannedBloomRead } from '#domain/bloom/runs';
import { ExecutionError, ForbiddenError, PaymentRequiredError, ValidationError } from '#domain/errors';
import { createOrg } from '#domain/orgs/manage';
import type { PlanName } from '#domain/core/plans';
import type { BloomSubmitter, PolarsEngine, PolarsRunRequest, SparkSubmitter } from '#domain/query/ports';
import { runRoutedQuery, type RoutedQueryDeps } from '#domain/query/routed-query';
import { checkRoutedRequest, type RoutedQueryBody } from '#domain/routing/request';
import { ROUTING_TABLE, withInteractiveLimit } from '#domain/routing/table';
import { machineType, type MachineType } from '#domain/core/machine-types';
import { resultsTableOf } from '#domain/runs/results';
import type { ComputeUsed, Run } from '#domain/runs/run';
import type { PlannedSparkRun } from '#domain/runs/submit';
import { MemoryOrgStore } from '../../../helpers/memory-stores.ts';
import { FakeEngine, MemoryLake, MemorySink } from '../lake/fakes.ts';
import { FakeSparkEngine } from '../runs/fakes.ts';

const SPARK_1B = machineType('spark.1.b') as MachineType;
const COMPUTE: ComputeUsed = new FakeSparkEngine().size({ driver: SPARK_1B, executor: SPARK_1B, executors: 1 });

const runOf = (runId: string, orgId: string, engine: 'spark' | 'bloom', sql: string): Run => ({
  runId,
  orgId,
  engine,
  job: { namespace: 'lakeline', name: 'q' },
  state: 'RUNNING',
  createdAt: '',
  updatedAt: '',
  sql,
  inputTables: [],
  compute: COMPUTE,
  lineage: { dialect: engine, engineVersion: '1', inputs: [], catalogKind: 'jdbc' },
});

class FakeSpark implements SparkSubmitter {
  readonly submitted: { run: PlannedSparkRun; runId: string }[] = [];
  async submit(run: PlannedSparkRun, runId: string): Promise<Run> {
    this.submitted.push({ run, runId });
    return runOf(runId, run.org.orgId, 'spark', run.request.sql);
  }
}

class FakeBloom implements BloomSubmitter {
  readonly submitted: { read: PlannedBloomRead; runId: string }[] = [];
  async submit(read: PlannedBloomRead, runId: string): Promise<Run> {
    this.submitted.push({ read, runId });
    return runOf(runId, read.org.orgId, 'bloom', read.sql);
  }
}

class FakePolars implements PolarsEngine {
  readonly requests: PolarsRunRequest[] = [];
  async version(): Promise<string> {
    return '1.0.0';
  }
  async run(request: PolarsRunRequest) {
    this.requests.push(request);
    return { results: { columns: ['x'], column_types: ['Int64'], rows: [[1]] }, compute: { vcpus: 4, mode: 'sandbox' }, executionMs: 500 };
  }
}

interface World {
  readonly deps: RoutedQueryDeps;
  readonly orgs: MemoryOrgStore;
  readonly lake: MemoryLake;
  readonly duckdb: FakeEngine;
  readonly spark: FakeSpark;
  readonly bloom: FakeBloom;
  readonly polars: FakePolars;
  readonly sink: MemorySink;
}

const world = (routingTable = ROUTING_TABLE, bloomConfigured = true): World => {
  const orgs = new MemoryOrgStore();
  const lake = new MemoryLake();
  const duckdb = new FakeEngine();
  const spark = new FakeSpark();
  const bloom = new FakeBloom();
  const polars = new FakePolars();
  const sink = new MemorySink();
  let runs = 0;
  const deps: RoutedQueryDeps = {
    orgs,
    catalog: lake,
    storage: lake,
    duckdb,
    engines: { spark, polars, ...(bloomConfigured ? { bloom } : {}) },
    lineage: sink,
    catalogKind: 'jdbc',
    routingTable,
    warn: () => undefined,
    newRunId: () => `00000000-0000-4000-8000-${String(++runs).padStart(12, '0')}`,
  };
  return { deps, orgs, lake, duckdb, spark, bloom, polars, sink };
};

const orgOn = async (w: World, plan: PlanName = 'pro', paymentMethod = true): Promise<string> => {
  const org = await createOrg(w.orgs, { name: `${plan} org`, plan, paymentMethod });
  w.lake.add(org.orgId, { namespace: 'sales', table: 'orders' }, [['id', 'long']]);
  return org.orgId;
};

const request = (extra: Partial<RoutedQueryBody>) => checkRoutedRequest({ tables: [], engine: 'auto', write_mode: 'overwrite', explain: false, ...extra });

describe('runRoutedQuery', () => {
  let w: World;
  let orgId: string;
  beforeEach(async () => {
    w = world();
    orgId = await orgOn(w);
  });

  it('Should answer explain with the decision alone: no engine, no run, no lineage, no usage', async () => {
    // Act
    const read = await runRoutedQuery(w.deps, orgId, request({ query: 'SELECT * FROM sales.orders', explain: true }));
    const write = await runRoutedQuery(w.deps, orgId, request({ query: 'SELECT * FROM sales.orders', destination: 'out.t', explain: true }));
    const script = await runRoutedQuery(w.deps, orgId, request({ script: 'result = scan("o")', tables: ['o=sales.orders'], explain: true }));
    // Assess
    expect(Object.keys(read).sort()).toEqual(['engine_decision', 'explain', 'success']);
    expect(read.engine_decision).toMatchObject({ engine: 'duckdb', estimated_input_bytes: '1234', input_tables: ['lakeline.sales.orders'] });
    expect(write.engine_decision.engine).toBe('spark');
    expect(script.engine_decision.engine).toBe('polars');
    expect([w.duckdb.requests, w.spark.submitted, w.polars.requests, w.sink.events]).toEqual([[], [], [], []]);
    expect((await w.orgs.get(orgId))?.usageUsd).toBe(0);
  });

  it("Should run an interactive read on DuckDB in the band's sandbox, with START and COMPLETE", async () => {
    // Act
    const answer = await runRoutedQuery(w.deps, orgId, request({ query: 'SELECT * FROM sales.orders' }));
    // Assess
    expect(answer).toMatchObject({ state: 'COMPLETE', row_count: 3, compute: { engine: 'duckdb', vcpus: 2, billed_vcpu_seconds: 0 } });
    expect(w.duckdb.requests[0]?.sandbox).toEqual({ vcpus: 2, memoryGb: 4 });
    expect(w.sink.events.map((e) => e.event.eventType)).toEqual(['START', 'COMPLETE']);
  });

  it("Should answer 500 with the engine's message when DuckDB fails, and record FAIL", async () => {
    // Prepare
    w.duckdb.answers = [new Error('IO Error: No files found that match the pattern\nstack')];
    // Act
    const act = runRoutedQuery(w.deps, orgId, request({ query: 'SELECT * FROM sales.orders' }));
    // Assess
    await expect(act).rejects.toThrow(ExecutionError);
    await expect(runRoutedQuery(w.deps, orgId, request({ query: 'SELECT * FROM sales.orders' }))).rejects.toThrow('duckdb failed to run the query: IO Error: No files found that match the pattern');
    expect(w.sink.events.map((e) => e.event.eventType)).toEqual(['START', 'FAIL', 'START', 'FAIL']);
  });

  it('Should submit a destination write to Spark with the request\'s mode, and own-target statements with theirs', async () => {
    // Act
    const dest = await runRoutedQuery(w.deps, orgId, request({ query: 'SELECT id FROM sales.orders', destination: 'Out.T', write_mode: 'append' }));
    const insert = await runRoutedQuery(w.deps, orgId, request({ query: 'INSERT INTO out.t SELECT id FROM sales.orders' }));
    const replace = await runRoutedQuery(w.deps, orgId, request({ query: 'CREATE OR REPLACE TABLE out.t AS SELECT id FROM sales.orders' }));
    // Assess
    expect(dest).toMatchObject({ state: 'SUBMITTED', output_table: 'lakeline.out.t', run_id: w.spark.submitted[0]?.runId });
    expect(w.spark.submitted.map((s) => [s.run.request.sql, s.run.request.output, s.run.request.writeMode])).toEqual([
      ['SELECT id FROM sales.orders', { namespace: 'out', table: 't' }, 'append'],
      ['SELECT id FROM sales.orders', { namespace: 'out', table: 't' }, 'append'],
      ['SELECT id FROM sales.orders', { namespace: 'out', table: 't' }, 'overwrite'],
    ]);
    expect(insert.job).not.toEqual(replace.job);
  });

  it("Should hand Spark the plan's org and loaded tables: one org fetch, one catalog listing, one metadata read per table", async () => {
    // Prepare
    const lookups = [vi.spyOn(w.orgs, 'get'), vi.spyOn(w.lake, 'listTables'), vi.spyOn(w.lake, 'loadTable'), vi.spyOn(w.lake, 'readText')];
    // Act
    await runRoutedQuery(w.deps, orgId, request({ query: 'CREATE TABLE out.t AS SELECT id FROM sales.orders' }));
    // Assess
    expect(lookups.map((spy) => spy.mock.calls.length)).toEqual([1, 1, 0, 1]);
    const run = w.spark.submitted[0]?.run;
    expect(run?.org.orgId).toBe(orgId);
    expect(run?.inputs.map((t) => [t.engine.name, t.dataset.location])).toEqual([[{ namespace: 'sales', table: 'orders' }, `file:///lake/${orgId}/sales/orders`]]);
  });

  it("Should refuse SQL Spark's firewall refuses (400) although DuckDB's accepts it, before any run", async () => {
    // Act: generate_series is a table function DuckDB has and Spark SQL does not
    const act = runRoutedQuery(w.deps, orgId, request({ query: 'INSERT INTO out.t SELECT x FROM generate_series(1, 3) AS g(x)' }));
    const explained = await runRoutedQuery(w.deps, orgId, request({ query: 'INSERT INTO out.t SELECT x FROM generate_series(1, 3) AS g(x)', explain: true }));
    // Assess
    await expect(act).rejects.toThrow(/SQL not allowed: table function generate_series/);
    expect(explained.engine_decision.engine).toBe('spark');
    expect(w.spark.submitted).toEqual([]);
  });

  it("Should submit a read pinned to bloom as a bloom run with the plan's org, SQL, size and loaded tables", async () => {
    // Act
    const answer = await runRoutedQuery(w.deps, orgId, request({ query: 'SELECT count(*) AS n FROM sales.orders', engine: 'bloom' }));
    // Assess
    const submitted = w.bloom.submitted[0];
    expect(answer).toMatchObject({ state: 'SUBMITTED', run_id: submitted?.runId, engine_decision: { engine: 'bloom', execution_mode: 'batch' } });
    expect(answer.job).toEqual(submitted?.read.job);
    expect(submitted?.read).toMatchObject({ sql: 'SELECT count(*) AS n FROM sales.orders', vcpus: 2, org: { orgId } });
    expect(submitted?.read.inputs.map((t) => t.engine.name)).toEqual([{ namespace: 'sales', table: 'orders' }]);
  });

  it.each([
    ['SELECT * FROM system.runtime.queries', /system/],
    ['INSERT INTO sales.orders SELECT * FROM sales.orders', /bloom does not write tables/],
  ])('Should refuse %s pinned to bloom (400) before any run', async (query, message) => {
    await expect(runRoutedQuery(w.deps, orgId, request({ query, engine: 'bloom' }))).rejects.toThrow(message);
    expect(w.bloom.submitted).toEqual([]);
  });

  it('Should refuse a statement with its own target and a destination, and CREATE TABLE AS over an existing table', async () => {
    await expect(runRoutedQuery(w.deps, orgId, request({ query: 'INSERT INTO out.t SELECT 1', destination: 'out.u' }))).rejects.toThrow(/either such a statement or a destination/);
    await expect(runRoutedQuery(w.deps, orgId, request({ query: 'CREATE TABLE sales.orders AS SELECT 1 AS x' }))).rejects.toThrow(ValidationError);
    expect(w.spark.submitted).toEqual([]);
  });

  it.each([
    ["INSERT INTO out.t SELECT * FROM read_csv('/etc/passwd')", /read_csv/i],
    ['CREATE TABLE out.t AS SELECT 1 AS x; DROP TABLE sales.orders', /multiple statements/],
    ['CREATE TABLE elsewhere.out.t AS SELECT 1 AS x', /elsewhere/],
    ['CREATE TABLE out.t /* AS SELECT 1 */ (x INT) AS SELECT 1 AS x', /CREATE TABLE with a/],
    ['INSERT INTO out.t /* SELECT */ (x) SELECT 1', /column list/],
    ['CREATE TABLE lakeline_results.r_1 AS SELECT 1 AS x', /reserved/],
    ["INSERT INTO out.t SELECT * FROM lakeline_results.r_1", /lakeline_results\.r_1/],
  ])('Should refuse the hostile write %s before any run', async (query, message) => {
    await expect(runRoutedQuery(w.deps, orgId, request({ query }))).rejects.toThrow(message);
    expect(w.spark.submitted).toEqual([]);
  });

  it("Should send a read above the interactive limit to Spark, into the run's results table", async () => {
    // Prepare: a deployment without bloom whose interactive limit is below the table's 1234 bytes
    w = world(withInteractiveLimit(1000), false);
    orgId = await orgOn(w);
    // Act
    const answer = await runRoutedQuery(w.deps, orgId, request({ query: 'SELECT * FROM sales.orders' }));
    // Assess
    const submitted = w.spark.submitted[0];
    expect(answer).toMatchObject({ state: 'SUBMITTED', run_id: submitted?.runId, engine_decision: { engine: 'spark', execution_mode: 'batch' } });
    expect(answer).not.toHaveProperty('output_table');
    expect(submitted?.run.request).toMatchObject({ results: true, writeMode: 'overwrite', output: resultsTableOf(submitted?.runId ?? '') });
    expect(resultsTableOf('0000AAAA-0000-4000-8000-000000000001')).toEqual({ namespace: 'lakeline_results', table: 'r_0000aaaa000040008000000000000001' });
  });

  it('Should run a script on polars behind its port, and meter the sandbox that served it', async () => {
    // Act
    const answer = await runRoutedQuery(w.deps, orgId, request({ script: 'result = scan("o")', tables: ['o=sales.orders'] }));
    // Assess
    expect(answer).toMatchObject({ state: 'COMPLETE', compute: { engine: 'polars', vcpus: 4, billed_vcpu_seconds: 2 }, engine_decision: { engine: 'polars' } });
    expect(w.polars.requests[0]).toMatchObject({ source: { kind: 'script', script: 'result = scan("o")' }, vcpus: 2 });
    expect(w.polars.requests[0]?.tables.map((t) => t.alias)).toEqual(['o']);
    expect((await w.orgs.get(orgId))?.usageVcpuSeconds).toEqual({ polars: 2 });
  });

  it('Should refuse metered engines without a payment method (402) and at the credit limit (403) before running', async () => {
    // Prepare
    const unpaid = await orgOn(w, 'pro', false);
    const broke = (await createOrg(w.orgs, { name: 'broke', plan: 'pro', paymentMethod: true, creditLimitUsd: 0 })).orgId;
    // Act and assess
    await expect(runRoutedQuery(w.deps, unpaid, request({ script: 'result = scan("o")', tables: ['o=sales.orders'] }))).rejects.toThrow(PaymentRequiredError);
    await expect(runRoutedQuery(w.deps, broke, request({ query: 'SELECT 1 AS x', engine: 'polars' }))).rejects.toThrow(ForbiddenError);
    expect(w.polars.requests).toEqual([]);
    // DuckDB is unmetered: the org without a payment method reads.
    await expect(runRoutedQuery(w.deps, unpaid, request({ query: 'SELECT 1 AS x' }))).resolves.toMatchObject({ state: 'COMPLETE' });
  });

  it("Should refuse a sandbox above the plan's cap with 403", async () => {
    // Prepare: a free org (4 vCPUs at most) whose table falls in the 8-vCPU band
    const free = await orgOn(w, 'free');
    const big = w.lake.tables.find((t) => (t as { orgId?: string }).orgId === free);
    const text = (await w.lake.readText(big?.metadataLocation ?? '')).replace('"total-files-size":"1234"', `"total-files-size":"${1536 * 1024 * 1024}"`);
    w.lake.files.set(big?.metadataLocation ?? '', text);
    // Act
    const act = runRoutedQuery(w.deps, free, request({ query: 'SELECT * FROM sales.orders' }));
    // Assess
    await expect(act).rejects.toThrow(ForbiddenError);
    await expect(runRoutedQuery(w.deps, free, request({ query: 'SELECT * FROM sales.orders' }))).rejects.toThrow(/8-vCPU sandbox exceeds the free plan's limit of 4 vCPUs/);
    expect(w.duckdb.requests).toEqual([]);
  });
});
