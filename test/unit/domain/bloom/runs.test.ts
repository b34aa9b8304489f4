/**
 * Bloom runs with in-memory ports and a scripted bloom engine: submit of a planned read (plan
 * checks, the run record, the results table, lineage START, the statement handed over; nothing of
 * the plan derived again), polling (RUNNING stays, COMPLETE/FAIL/ABORT end the run once, with
 * metering and lineage), abort through the bloom engine, and a statement that cannot start. The
 * firewall in Trino mode is the planner's (test/unit/domain/query/plan.test.ts).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { BloomAnswer, BloomHandle, BloomQuery, BloomStatus } from '#domain/bloom/engine';
import type { BloomEngine } from '#domain/bloom/ports';
import { abortBloomRun, refreshBloomRun, submitBloomRun, type BloomRunDeps, type PlannedBloomRead } from '#domain/bloom/runs';
import { ConflictError, ExecutionError, PaymentRequiredError } from '#domain/errors';
import type { Org } from '#domain/orgs/org';
import { loadInputTables } from '#domain/lake/query-tables';
import { resultsTableOf } from '#domain/runs/results';
import { payingOrg, runWorld, type RunWorld } from '../runs/fakes.ts';

const ORG = 'aaaaaaaa-0000-0000-0000-000000000001';
const RUN = '11111111-2222-4333-8444-555555555555';
const JOB = { namespace: 'lakeline', name: 'query.abc' };
const SQL = 'select n_name, count(*) as c from lakeline.tpch.nation join tpch.region on n_regionkey = r_regionkey group by 1';
const TABLES = [
  { namespace: 'tpch', table: 'nation' },
  { namespace: 'tpch', table: 'region' },
];

/** A bloom engine whose answers each test scripts. */
class ScriptedBloom implements BloomEngine {
  readonly platform = 'trino-local';
  readonly started: BloomQuery[] = [];
  readonly cancelled: BloomHandle[] = [];
  status_: BloomStatus = { state: 'RUNNING' };
  startError: Error | undefined;
  async version(): Promise<string> {
    return 'trino 476';
  }
  async start(query: BloomQuery): Promise<BloomHandle> {
    if (this.startError) throw this.startError;
    this.started.push(query);
    return { platform: this.platform, queryId: '20301231_000000_00001_abcde' };
  }
  async status(): Promise<BloomStatus> {
    return this.status_;
  }
  async cancel(handle: BloomHandle): Promise<void> {
    this.cancelled.push(handle);
  }
  async query(): Promise<BloomAnswer> {
    throw new Error('not used here');
  }
}


let world: RunWorld;
let bloom: ScriptedBloom;
let deps: BloomRunDeps;

beforeEach(async () => {
  world = runWorld();
  bloom = new ScriptedBloom();
  deps = { ...world.deps, bloom };
  await world.orgs.create(payingOrg(ORG));
  world.lake.add(ORG, { namespace: 'tpch', table: 'nation' }, ['n_name', 'n_regionkey']);
  world.lake.add(ORG, { namespace: 'tpch', table: 'region' }, ['r_regionkey']);
});

/** The read as the routed query plans it: its org, job, SQL, size and loaded tables. */
const planned = async (vcpus = 4, org: Org | undefined = undefined): Promise<PlannedBloomRead> => ({
  org: org ?? ((await world.orgs.get(ORG)) as Org),
  job: JOB,
  sql: SQL,
  vcpus,
  inputs: await loadInputTables(world.lake, await world.lake.listTables(ORG), TABLES),
});

describe('submitting a bloom run', () => {
  it('Should record a RUNNING bloom run into its results table, emit START and hand the statement over', async () => {
    // Act
    const run = await submitBloomRun(deps, await planned(), RUN);

    // Assess
    expect(run).toMatchObject({ runId: RUN, state: 'RUNNING', engine: 'bloom', results: true, outputTable: resultsTableOf(RUN), inputTables: ['lakeline.tpch.nation', 'lakeline.tpch.region'] });
    expect(run.compute).toMatchObject({ platform: 'trino-local', billedVcpus: 4 });
    expect(run.lineage).toMatchObject({ dialect: 'trino', engineVersion: 'trino 476', catalogKind: 'jdbc' });
    expect(run.lineage.inputs.map((d) => d.location)).toEqual([`file:///wh/${ORG}/tpch/nation`, `file:///wh/${ORG}/tpch/region`]);
    expect(resultsTableOf(RUN)).toEqual({ namespace: 'lakeline_results', table: 'r_11111111222243338444555555555555' });
    expect(bloom.started).toEqual([{ orgId: ORG, sql: SQL, tables: TABLES, resultsTable: resultsTableOf(RUN), label: RUN }]);
    expect((await world.runs.get(RUN))?.handle).toEqual({ platform: 'trino-local', queryId: '20301231_000000_00001_abcde' });
    expect(world.lineage.types()).toEqual(['START']);
  });

  it('Should take the planned read as it is: no org fetch, no catalog listing, no metadata read', async () => {
    // Arrange
    const read = await planned();
    const lookups = [vi.spyOn(world.orgs, 'get'), vi.spyOn(world.lake, 'listTables'), vi.spyOn(world.lake, 'loadTable'), vi.spyOn(world.lake, 'readText')];

    // Act
    await submitBloomRun(deps, read, RUN);

    // Assess
    expect(lookups.map((spy) => spy.mock.calls.length)).toEqual([0, 0, 0, 0]);
  });

  it('Should refuse without a payment method (402) before recording anything', async () => {
    // Arrange
    const unpaid = payingOrg(ORG, { paymentMethod: false });

    // Act + Assess
    await expect(submitBloomRun(deps, await planned(4, unpaid), RUN)).rejects.toBeInstanceOf(PaymentRequiredError);
    expect(world.runs.runs.size).toBe(0);
    expect(bloom.started).toEqual([]);
  });

  it('Should end the run FAIL with lineage when the statement cannot start', async () => {
    // Arrange
    bloom.startError = new Error('Trino did not start');

    // Act
    const failure = await submitBloomRun(deps, await planned(2), RUN).catch((e: unknown) => e);

    // Assess
    expect(failure).toBeInstanceOf(ExecutionError);
    expect(await world.runs.get(RUN)).toMatchObject({ state: 'FAIL', error: 'bloom could not start the run: Trino did not start' });
    expect(world.lineage.types()).toEqual(['START', 'FAIL']);
  });
});

describe('polling a bloom run', () => {
  it('Should leave a RUNNING statement RUNNING and end a finished one once, metered, with COMPLETE lineage', async () => {
    // Arrange
    const run = await submitBloomRun(deps, await planned(), RUN);
    world.advance(10_000);

    // Act
    const still = await refreshBloomRun(deps, (await world.runs.get(RUN))!);
    // The statement's CTAS created the run's results table: that is its commit.
    world.lake.commit(ORG, { namespace: 'lakeline_results', table: `r_${RUN.replaceAll('-', '')}` }, RUN, { 'total-records': '25' });
    bloom.status_ = { state: 'COMPLETE', rows: 25, scannedBytes: 1000 };
    const done = await refreshBloomRun(deps, (await world.runs.get(RUN))!);
    const again = await refreshBloomRun(deps, done);

    // Assess
    expect(still.state).toBe('RUNNING');
    expect(done).toMatchObject({ runId: run.runId, state: 'COMPLETE', rowsWritten: 25, vcpuSeconds: 40 });
    expect(again).toBe(done);
    expect(world.lineage.types()).toEqual(['START', 'COMPLETE']);
    expect((await world.orgs.get(ORG))?.usageVcpuSeconds).toEqual({ bloom: 40 });
  });

  it('Should complete a run whose results table exists although its statement was lost (the local stack restarted)', async () => {
    // Arrange
    await submitBloomRun(deps, await planned(), RUN);
    world.lake.commit(ORG, { namespace: 'lakeline_results', table: `r_${RUN.replaceAll('-', '')}` }, RUN, { 'total-records': '9' });
    bloom.status_ = { state: 'FAIL', error: 'the local Trino server that ran the statement has stopped (the local stack restarted)' };
    // Act
    const done = await refreshBloomRun(deps, (await world.runs.get(RUN))!);
    // Assess
    expect(done).toMatchObject({ state: 'COMPLETE', rowsWritten: 9 });
    expect(done.error).toBeUndefined();
  });

  it('Should end the run FAIL with the engine\'s error', async () => {
    // Arrange
    await submitBloomRun(deps, await planned(), RUN);
    bloom.status_ = { state: 'FAIL', error: 'EXCEEDED_LOCAL_MEMORY_LIMIT: Query exceeded per-node memory limit' };

    // Act
    const failed = await refreshBloomRun(deps, (await world.runs.get(RUN))!);

    // Assess
    expect(failed).toMatchObject({ state: 'FAIL', error: 'EXCEEDED_LOCAL_MEMORY_LIMIT: Query exceeded per-node memory limit' });
    expect(world.lineage.types()).toEqual(['START', 'FAIL']);
  });

  it('Should abort through the bloom engine, and refuse a second abort', async () => {
    // Arrange
    await submitBloomRun(deps, await planned(), RUN);
    world.advance(5_000);

    // Act
    const aborted = await abortBloomRun(deps, ORG, RUN);

    // Assess
    expect(aborted.state).toBe('ABORT');
    // The time it ran is metered once, by the abort (polling ends only RUNNING runs).
    expect(aborted.vcpuSeconds).toBe(20);
    expect((await world.orgs.get(ORG))?.usageVcpuSeconds).toEqual({ bloom: 20 });
    expect(await refreshBloomRun(deps, (await world.runs.get(RUN))!)).toMatchObject({ state: 'ABORT' });
    expect((await world.orgs.get(ORG))?.usageVcpuSeconds).toEqual({ bloom: 20 });
    expect(bloom.cancelled).toEqual([{ platform: 'trino-local', queryId: '20301231_000000_00001_abcde' }]);
    expect(world.engine.cancelled).toEqual([]);
    expect(world.lineage.types()).toEqual(['START', 'ABORT']);
    await expect(abortBloomRun(deps, ORG, RUN)).rejects.toBeInstanceOf(ConflictError);
  });
});
