/**
 * Bloom runs with in-memory ports and a scripted bloom engine: submit (checks, firewall in Trino
 * mode, the run record, the results table, lineage START, the statement handed over), polling
 * (RUNNING stays, COMPLETE/FAIL/ABORT end the run once, with metering and lineage), abort through
 * the bloom engine, and a statement that cannot start.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { BloomAnswer, BloomEngine, BloomHandle, BloomQuery, BloomStatus } from '#domain/bloom/engine';
import { abortBloomRun, bloomResultsTable, refreshBloomRun, submitBloomRun, type BloomRunDeps } from '#domain/bloom/runs';
import { ConflictError, ExecutionError, PaymentRequiredError, ValidationError } from '#domain/errors';
import { payingOrg, runWorld, type RunWorld } from '../runs/fakes.ts';

const ORG = 'aaaaaaaa-0000-0000-0000-000000000001';
const RUN = '11111111-2222-4333-8444-555555555555';
const JOB = { namespace: 'lakeline', name: 'query.abc' };
const SQL = 'select n_name, count(*) as c from lakeline.tpch.nation join tpch.region on n_regionkey = r_regionkey group by 1';

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

describe('submitting a bloom run', () => {
  it('Should record a RUNNING bloom run into its results table, emit START and hand the statement over', async () => {
    // Act
    const run = await submitBloomRun(deps, ORG, { job: JOB, sql: SQL, vcpus: 4 }, RUN);

    // Assess
    expect(run).toMatchObject({ runId: RUN, state: 'RUNNING', engine: 'bloom', results: true, outputTable: bloomResultsTable(RUN), inputTables: ['lakeline.tpch.nation', 'lakeline.tpch.region'] });
    expect(run.compute).toMatchObject({ platform: 'trino-local', billedVcpus: 4 });
    expect(run.lineage).toMatchObject({ dialect: 'trino', engineVersion: 'trino 476', catalogKind: 'jdbc' });
    expect(bloomResultsTable(RUN)).toEqual({ namespace: 'lakeline_results', table: 'r_11111111222243338444555555555555' });
    expect(bloom.started).toEqual([{ orgId: ORG, sql: SQL, tables: [{ namespace: 'tpch', table: 'nation' }, { namespace: 'tpch', table: 'region' }], resultsTable: bloomResultsTable(RUN), label: RUN }]);
    expect((await world.runs.get(RUN))?.handle).toEqual({ platform: 'trino-local', queryId: '20301231_000000_00001_abcde' });
    expect(world.lineage.types()).toEqual(['START']);
  });

  it('Should refuse without a payment method (402) and refused SQL (400) before recording anything', async () => {
    // Arrange
    await world.orgs.update(ORG, { paymentMethod: false });

    // Act + Assess
    await expect(submitBloomRun(deps, ORG, { job: JOB, sql: SQL, vcpus: 4 }, RUN)).rejects.toBeInstanceOf(PaymentRequiredError);
    await world.orgs.update(ORG, { paymentMethod: true });
    await expect(submitBloomRun(deps, ORG, { job: JOB, sql: 'SELECT * FROM system.runtime.queries', vcpus: 4 }, RUN)).rejects.toBeInstanceOf(ValidationError);
    await expect(submitBloomRun(deps, ORG, { job: JOB, sql: 'INSERT INTO tpch.nation SELECT * FROM tpch.nation', vcpus: 4 }, RUN)).rejects.toBeInstanceOf(ValidationError);
    expect(world.runs.runs.size).toBe(0);
    expect(bloom.started).toEqual([]);
  });

  it('Should end the run FAIL with lineage when the statement cannot start', async () => {
    // Arrange
    bloom.startError = new Error('Trino did not start');

    // Act
    const failure = await submitBloomRun(deps, ORG, { job: JOB, sql: SQL, vcpus: 2 }, RUN).catch((e: unknown) => e);

    // Assess
    expect(failure).toBeInstanceOf(ExecutionError);
    expect(await world.runs.get(RUN)).toMatchObject({ state: 'FAIL', error: 'bloom could not start the run: Trino did not start' });
    expect(world.lineage.types()).toEqual(['START', 'FAIL']);
  });
});

describe('polling a bloom run', () => {
  it('Should leave a RUNNING statement RUNNING and end a finished one once, metered, with COMPLETE lineage', async () => {
    // Arrange
    const run = await submitBloomRun(deps, ORG, { job: JOB, sql: SQL, vcpus: 4 }, RUN);
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
    await submitBloomRun(deps, ORG, { job: JOB, sql: SQL, vcpus: 4 }, RUN);
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
    await submitBloomRun(deps, ORG, { job: JOB, sql: SQL, vcpus: 4 }, RUN);
    bloom.status_ = { state: 'FAIL', error: 'EXCEEDED_LOCAL_MEMORY_LIMIT: Query exceeded per-node memory limit' };

    // Act
    const failed = await refreshBloomRun(deps, (await world.runs.get(RUN))!);

    // Assess
    expect(failed).toMatchObject({ state: 'FAIL', error: 'EXCEEDED_LOCAL_MEMORY_LIMIT: Query exceeded per-node memory limit' });
    expect(world.lineage.types()).toEqual(['START', 'FAIL']);
  });

  it('Should abort through the bloom engine, and refuse a second abort', async () => {
    // Arrange
    await submitBloomRun(deps, ORG, { job: JOB, sql: SQL, vcpus: 4 }, RUN);
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
