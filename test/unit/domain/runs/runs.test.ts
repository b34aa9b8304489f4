/**
 * The run use cases over in-memory ports: submission (plan, billing, firewall, lineage START),
 * ending by the engine's report (metering, COMPLETE/FAIL lineage), abort, reading, and restart
 * recovery. The same RunDeps wiring as production, with fakes for the stores and the engine.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ConflictError, ExecutionError, ForbiddenError, NotFoundError, PaymentRequiredError, ValidationError } from '#domain/errors';
import { abortRun } from '#domain/runs/abort';
import { finishRun } from '#domain/runs/finish';
import { getRun } from '#domain/runs/get';
import { recoverRuns } from '#domain/runs/recover';
import { startRun } from '#domain/runs/start';
import { runView } from '#domain/runs/run';
import { loadInputTables } from '#domain/lake/query-tables';
import type { Org } from '#domain/orgs/org';
import { submitPlannedSparkRun, submitSparkQuery, submitSparkRun } from '#domain/runs/submit';
import { checkSparkRequest, type SparkRequest } from '#domain/runs/spark-request';
import { payingOrg, runWorld, type RunWorld } from './fakes.ts';

const ORG = 'aaaaaaaa-0000-0000-0000-000000000001';
const OTHER = 'bbbbbbbb-0000-0000-0000-000000000002';


const request = (changes: Partial<SparkRequest> = {}): SparkRequest => ({
  namespace: 'etl',
  name: 'daily',
  query: 'select n_name, count(*) as c from lakeline.tpch.nation join tpch.region on n_regionkey = r_regionkey group by 1',
  outputTable: 'lakeline.out.daily',
  driverMachineType: 'spark.1.b',
  executorMachineType: 'spark.1.b',
  executorNumbers: 1,
  ...changes,
});

let world: RunWorld;

beforeEach(async () => {
  world = runWorld();
  await world.orgs.create(payingOrg(ORG));
  await world.orgs.create(payingOrg(OTHER));
  world.lake.add(ORG, { namespace: 'tpch', table: 'nation' }, ['n_name', 'n_regionkey']);
  world.lake.add(ORG, { namespace: 'tpch', table: 'region' }, ['r_regionkey']);
});

describe('submitting a Spark run', () => {
  it('Should record a RUNNING run, emit START with the inputs, and hand the job to the engine', async () => {
    // Act
    const answer = await submitSparkQuery(world.deps, ORG, request());

    // Assess
    expect(answer).toEqual({ run_id: '00000000-0000-4000-8000-000000000001', job: { namespace: 'etl', name: 'daily' }, output_table: 'lakeline.out.daily', status: 'RUNNING' });
    const run = world.runs.runs.get(answer.run_id);
    expect(run).toMatchObject({ state: 'RUNNING', engine: 'spark', orgId: ORG, writeMode: 'overwrite', inputTables: ['lakeline.tpch.nation', 'lakeline.tpch.region'] });
    expect(run?.handle).toMatchObject({ platform: 'local', pid: 4242 });
    expect(world.engine.submitted).toEqual([expect.objectContaining({ runId: answer.run_id, orgId: ORG, output: { namespace: 'out', table: 'daily' }, mode: 'overwrite' })]);
    expect(world.lineage.types()).toEqual(['START']);
    const start = world.lineage.events[0]?.event as { job: { namespace: string; name: string; facets: Record<string, unknown> }; inputs: { name: string }[]; run: { facets: Record<string, unknown> } };
    expect(start.job).toMatchObject({ namespace: 'etl', name: 'daily' });
    expect(Object.keys(start.job.facets).sort()).toEqual(['jobType', 'sql']);
    expect(start.run.facets.processing_engine).toMatchObject({ name: 'spark', version: '3.5.7' });
    expect(start.inputs.map((i) => i.name)).toEqual([`/wh/${ORG}/tpch/nation`, `/wh/${ORG}/tpch/region`]);
  });

  it('Should answer 402 before anything runs when the org has no payment method', async () => {
    // Prepare
    await world.orgs.update(ORG, { paymentMethod: false });

    // Act / Assess
    await expect(submitSparkQuery(world.deps, ORG, request())).rejects.toBeInstanceOf(PaymentRequiredError);
    expect(world.runs.runs.size).toBe(0);
    expect(world.lineage.events).toEqual([]);
  });

  it('Should answer 403 when the executors exceed the plan', async () => {
    // Prepare
    await world.orgs.update(ORG, { plan: 'free' });

    // Act / Assess
    await expect(submitSparkQuery(world.deps, ORG, request({ executorNumbers: 3 }))).rejects.toThrow(ForbiddenError);
    await expect(submitSparkQuery(world.deps, ORG, request({ executorNumbers: 3 }))).rejects.toThrow(/3 executors exceed the free plan's limit of 2/);
  });

  it('Should answer 403 for a machine larger than the plan allows', async () => {
    // Prepare
    await world.orgs.update(ORG, { plan: 'free' });

    // Act / Assess
    await expect(submitSparkQuery(world.deps, ORG, request({ driverMachineType: 'spark.8.b' }))).rejects.toThrow(ForbiddenError);
  });

  it.each([
    ['select * from read_csv(\'/etc/passwd\')', /SQL not allowed/],
    ['select reflect(\'java.lang.System\', \'exit\', \'0\')', /SQL not allowed/],
    ['set spark.sql.runSQLOnFiles=true', /SQL not allowed/],
    ['select * from lakeline.tpch.missing', /missing/],
    ['create table lakeline.out.x as select * from tpch.nation', /only reads/],
  ])('Should refuse %s with a 400 and record nothing', async (query, message) => {
    // Act / Assess
    await expect(submitSparkQuery(world.deps, ORG, request({ query }))).rejects.toThrow(message);
    await expect(submitSparkQuery(world.deps, ORG, request({ query }))).rejects.toBeInstanceOf(ValidationError);
    expect(world.runs.runs.size).toBe(0);
  });

  it('Should not see another org\'s tables', async () => {
    // Prepare
    world.lake.add(OTHER, { namespace: 'secret', table: 'pay' }, ['x']);

    // Act / Assess
    await expect(submitSparkQuery(world.deps, ORG, request({ query: 'select * from secret.pay' }))).rejects.toBeInstanceOf(ValidationError);
  });

  it("Should start a planned run under the planner's run id with its org and tables: no org fetch, catalog listing or metadata read", async () => {
    // Prepare: the run as the routed query plans it
    const tables = [{ namespace: 'tpch', table: 'nation' }, { namespace: 'tpch', table: 'region' }];
    const planned = { org: (await world.orgs.get(ORG)) as Org, request: checkSparkRequest(request()), inputs: await loadInputTables(world.lake, await world.lake.listTables(ORG), tables) };
    const lookups = [vi.spyOn(world.orgs, 'get'), vi.spyOn(world.lake, 'listTables'), vi.spyOn(world.lake, 'loadTable'), vi.spyOn(world.lake, 'readText')];

    // Act
    const run = await submitPlannedSparkRun(world.deps, planned, '11111111-2222-4333-8444-555555555555');

    // Assess
    expect(lookups.map((spy) => spy.mock.calls.length)).toEqual([0, 0, 0, 0]);
    expect(run).toMatchObject({ runId: '11111111-2222-4333-8444-555555555555', state: 'RUNNING', inputTables: ['lakeline.tpch.nation', 'lakeline.tpch.region'] });
    expect(run.lineage.inputs.map((d) => d.location)).toEqual([`file:///wh/${ORG}/tpch/nation`, `file:///wh/${ORG}/tpch/region`]);
    expect(world.engine.submitted.map((j) => j.runId)).toEqual([run.runId]);
    expect(world.lineage.types()).toEqual(['START']);
  });

  it("Should hold a planned run to the plan's limits (402, 403) before recording anything", async () => {
    // Prepare
    const inputs = await loadInputTables(world.lake, await world.lake.listTables(ORG), [{ namespace: 'tpch', table: 'nation' }]);
    const unpaid = { org: payingOrg(ORG, { paymentMethod: false }), request: checkSparkRequest(request()), inputs };
    const overFree = { org: payingOrg(ORG, { plan: 'free' }), request: checkSparkRequest(request({ executorNumbers: 3 })), inputs };

    // Act / Assess
    await expect(submitPlannedSparkRun(world.deps, unpaid, '11111111-2222-4333-8444-555555555555')).rejects.toBeInstanceOf(PaymentRequiredError);
    await expect(submitPlannedSparkRun(world.deps, overFree, '11111111-2222-4333-8444-555555555555')).rejects.toThrow(/3 executors exceed the free plan's limit of 2/);
    expect(world.runs.runs.size).toBe(0);
  });

  it('Should end the run FAIL, record FAIL lineage and answer 500 when the engine cannot start it', async () => {
    // Prepare
    world.engine.submitError = new Error('spark-submit: not found');

    // Act
    const failure = submitSparkRun(world.deps, ORG, checkSparkRequest(request()));

    // Assess
    await expect(failure).rejects.toBeInstanceOf(ExecutionError);
    const [run] = world.runs.runs.values();
    expect(run).toMatchObject({ state: 'FAIL', error: 'Spark could not start the run: spark-submit: not found' });
    expect(world.lineage.types()).toEqual(['START', 'FAIL']);
  });

  it('Should stop the job and fail the run when the run store cannot record where the job runs', async () => {
    // Prepare
    const outage = Object.assign(new Error('ThrottlingException'), { name: 'ThrottlingException' });
    world.runs.attach = async () => {
      throw outage;
    };

    // Act
    const failure = submitSparkQuery(world.deps, ORG, request());

    // Assess
    await expect(failure).rejects.toBe(outage);
    expect(world.engine.cancelled).toEqual([expect.objectContaining({ pid: 4242 })]);
    expect([...world.runs.runs.values()][0]).toMatchObject({ state: 'FAIL' });
  });
});

describe('ending a run with the engine\'s outcome', () => {
  it('Should complete it, meter vCPU-seconds on the run and the org, and emit COMPLETE with output statistics', async () => {
    // Prepare
    const { run_id } = await submitSparkQuery(world.deps, ORG, request());
    world.lake.add(ORG, { namespace: 'out', table: 'daily' }, ['n_name', 'c']);
    world.lake.commit(ORG, { namespace: 'out', table: 'daily' }, run_id, { 'added-records': '25', 'added-files-size': '900', 'added-data-files': '1' });
    world.advance(11_000);

    // Act
    const run = await finishRun(world.deps, run_id, { state: 'COMPLETE', rowsWritten: 25, bytesWritten: 900, filesWritten: 1, timings: { sessionReadyAt: Date.parse('2030-01-01T00:00:04Z'), finishedAt: Date.parse('2030-01-01T00:00:10Z') } });

    // Assess: billed 2 vCPUs from the process start (00:00:01) to the end (00:00:11)
    expect(run).toMatchObject({ state: 'COMPLETE', rowsWritten: 25, vcpuSeconds: 20 });
    expect((await world.orgs.get(ORG))?.usageVcpuSeconds.spark).toBe(20);
    expect(world.lineage.types()).toEqual(['START', 'COMPLETE']);
    const complete = world.lineage.events[1]?.event as { outputs: { name: string; outputFacets: { outputStatistics: Record<string, unknown> } }[] };
    expect(complete.outputs).toHaveLength(1);
    expect(complete.outputs[0]?.name).toBe(`/wh/${ORG}/out/daily`);
    expect(complete.outputs[0]?.outputFacets.outputStatistics).toMatchObject({ rowCount: 25, size: 900, fileCount: 1 });
    expect(runView(run!).timings).toEqual({ startup_ms: 4000, query_ms: 6000, total_ms: 11000 });
  });

  it('Should fail it with the engine\'s error and emit FAIL with the errorMessage facet', async () => {
    // Prepare
    const { run_id } = await submitSparkQuery(world.deps, ORG, request());

    // Act
    const run = await finishRun(world.deps, run_id, { state: 'FAIL', error: '[UNRESOLVED_COLUMN] A column `x` cannot be resolved' });

    // Assess
    expect(run).toMatchObject({ state: 'FAIL', error: '[UNRESOLVED_COLUMN] A column `x` cannot be resolved' });
    const fail = world.lineage.events[1]?.event as { eventType: string; run: { facets: { errorMessage: { message: string } } } };
    expect(fail.eventType).toBe('FAIL');
    expect(fail.run.facets.errorMessage.message).toContain('UNRESOLVED_COLUMN');
  });

  it('Should change nothing and meter nothing when the same outcome arrives twice', async () => {
    // Prepare
    const { run_id } = await submitSparkQuery(world.deps, ORG, request());
    world.lake.commit(ORG, { namespace: 'out', table: 'daily' }, run_id, { 'added-records': '1' });
    await finishRun(world.deps, run_id, { state: 'COMPLETE', rowsWritten: 1 });

    // Act
    await finishRun(world.deps, run_id, { state: 'FAIL', error: 'late' });

    // Assess
    expect(world.runs.runs.get(run_id)?.state).toBe('COMPLETE');
    expect(world.orgs.calls.addUsage).toBe(1);
    expect(world.lineage.types()).toEqual(['START', 'COMPLETE']);
  });

  it('Should meter with the platform\'s own bill when the platform sends one', async () => {
    // Prepare
    world = runWorld({ meteredByPlatform: true });
    await world.orgs.create(payingOrg(ORG));
    const { run_id } = await submitSparkQuery(world.deps, ORG, request({ query: 'select 1 as x' }));
    world.lake.commit(ORG, { namespace: 'out', table: 'daily' }, run_id, { 'added-records': '1' });

    // Act
    const run = await finishRun(world.deps, run_id, { state: 'COMPLETE', rowsWritten: 1, vcpuSeconds: 123.5 });

    // Assess
    expect(run?.vcpuSeconds).toBe(123.5);
  });
});

describe("a run's outcome follows the catalog", () => {
  const OUT = { namespace: 'out', table: 'daily' };

  it('Should complete a run whose process died after its commit, with the rows the commit added', async () => {
    // Prepare: the job committed, then the stack and its Spark process were killed before any report.
    const { run_id } = await submitSparkQuery(world.deps, ORG, request());
    world.lake.commit(ORG, OUT, run_id, { 'added-records': '25', 'added-files-size': '900', 'added-data-files': '2' });
    world.engine.reattachAnswer = () => ({ state: 'FAIL', error: 'the local stack stopped while this run was active, and its Spark process ended without a result' });
    // Act
    await recoverRuns(world.deps, 'local');
    // Assess
    expect(world.runs.runs.get(run_id)).toMatchObject({ state: 'COMPLETE', rowsWritten: 25, bytesWritten: 900, filesWritten: 2 });
    expect(world.runs.runs.get(run_id)?.error).toBeUndefined();
    expect(world.lineage.types()).toEqual(['START', 'COMPLETE']);
  });

  it("Should fail a run whose commit is not in the catalog, even when its engine reports success", async () => {
    // Prepare: another run's commit to the same table must not count for this one.
    const { run_id } = await submitSparkQuery(world.deps, ORG, request());
    world.lake.commit(ORG, OUT, 'some-other-run', { 'added-records': '3' });
    // Act
    const run = await finishRun(world.deps, run_id, { state: 'COMPLETE', rowsWritten: 3 });
    // Assess
    expect(run).toMatchObject({ state: 'FAIL', error: 'the engine reported success, but the catalog holds no commit of this run; nothing of it was written' });
  });

  it('Should fail a run killed before its commit, with what happened', async () => {
    const { run_id } = await submitSparkQuery(world.deps, ORG, request());
    const run = await finishRun(world.deps, run_id, { state: 'FAIL', error: 'Spark ended (signal SIGKILL) without recording a result' });
    expect(run).toMatchObject({ state: 'FAIL', error: 'Spark ended (signal SIGKILL) without recording a result' });
  });

  it('Should complete an aborted run whose write committed before its job stopped', async () => {
    // Prepare
    const { run_id } = await submitSparkQuery(world.deps, ORG, request());
    await abortRun(world.deps, ORG, run_id);
    world.lake.commit(ORG, OUT, run_id, { 'added-records': '4' });
    // Act
    await finishRun(world.deps, run_id, { state: 'COMPLETE', rowsWritten: 4 });
    // Assess
    expect(world.runs.runs.get(run_id)).toMatchObject({ state: 'COMPLETE', rowsWritten: 4 });
    expect(world.runs.runs.get(run_id)?.error).toBeUndefined();
    expect(world.lineage.types()).toEqual(['START', 'ABORT', 'COMPLETE']);
  });
});

describe('queued runs', () => {
  it('Should record a run its platform has not started as QUEUED, answer QUEUED, and start it when the platform does', async () => {
    // Prepare
    world.engine.startsAtOnce = false;
    // Act
    const answer = await submitSparkQuery(world.deps, ORG, request());
    const queued = world.runs.runs.get(answer.run_id)?.state;
    const started = await startRun(world.deps, answer.run_id, { platform: 'local', pid: 77, startedAt: Date.parse('2030-01-01T00:00:09Z') });
    // Assess
    expect(answer.status).toBe('QUEUED');
    expect(queued).toBe('QUEUED');
    expect(started).toBe(true);
    expect(world.runs.runs.get(answer.run_id)).toMatchObject({ state: 'RUNNING', handle: { pid: 77 }, timings: { startedAt: Date.parse('2030-01-01T00:00:09Z') } });
  });

  it('Should abort a queued run, and stop its job if the platform starts it afterwards', async () => {
    // Prepare
    world.engine.startsAtOnce = false;
    const { run_id } = await submitSparkQuery(world.deps, ORG, request());
    // Act
    const aborted = await abortRun(world.deps, ORG, run_id);
    const started = await startRun(world.deps, run_id, { platform: 'local', pid: 78 });
    // Assess
    expect(aborted.state).toBe('ABORT');
    expect(started).toBe(false);
    expect(world.engine.cancelled).toEqual([{ platform: 'local', queued: 1 }, { platform: 'local', pid: 78 }]);
    expect(world.runs.runs.get(run_id)?.state).toBe('ABORT');
  });

  it('Should queue QUEUED runs again after a restart, after re-attaching running ones, oldest first', async () => {
    // Prepare
    world.engine.startsAtOnce = false;
    const first = (await submitSparkQuery(world.deps, ORG, request({ name: 'first' }))).run_id;
    world.advance(1_000);
    const second = (await submitSparkQuery(world.deps, ORG, request({ name: 'second' }))).run_id;
    world.engine.startsAtOnce = true;
    world.advance(1_000);
    const running = (await submitSparkQuery(world.deps, ORG, request({ name: 'running' }))).run_id;
    const order: string[] = [];
    world.engine.reattachAnswer = (run) => {
      order.push(run.runId);
      return 'attached';
    };
    // Act
    const report = await recoverRuns(world.deps, 'local');
    // Assess
    expect(order).toEqual([running, first, second]);
    expect(report.reattached).toEqual([running, first, second]);
  });
});

describe('aborting a run', () => {
  it('Should end it ABORT, stop the job, emit ABORT, and meter it once the stopped job reports', async () => {
    // Prepare
    const { run_id } = await submitSparkQuery(world.deps, ORG, request());
    world.advance(5_000);

    // Act
    const aborted = await abortRun(world.deps, ORG, run_id);
    await finishRun(world.deps, run_id, { state: 'FAIL', error: 'killed by signal SIGTERM' });

    // Assess
    expect(aborted).toMatchObject({ state: 'ABORT', error: 'aborted by request' });
    expect(world.engine.cancelled).toEqual([expect.objectContaining({ pid: 4242 })]);
    expect(world.runs.runs.get(run_id)).toMatchObject({ state: 'ABORT', vcpuSeconds: 8 });
    expect(world.lineage.types()).toEqual(['START', 'ABORT']);
  });

  it('Should answer 409 for a run that already ended and 404 for another org\'s run', async () => {
    // Prepare
    const { run_id } = await submitSparkQuery(world.deps, ORG, request());
    world.lake.commit(ORG, { namespace: 'out', table: 'daily' }, run_id, { 'added-records': '1' });
    await finishRun(world.deps, run_id, { state: 'COMPLETE', rowsWritten: 1 });

    // Act / Assess
    await expect(abortRun(world.deps, ORG, run_id)).rejects.toBeInstanceOf(ConflictError);
    await expect(abortRun(world.deps, OTHER, run_id)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('reading a run', () => {
  it('Should return the caller\'s run and 404 for another org\'s, an unknown or a malformed id', async () => {
    // Prepare
    const { run_id } = await submitSparkQuery(world.deps, ORG, request());

    // Act / Assess
    expect((await getRun(world.runs, ORG, run_id.toUpperCase())).runId).toBe(run_id);
    await expect(getRun(world.runs, OTHER, run_id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(getRun(world.runs, ORG, '00000000-0000-4000-8000-999999999999')).rejects.toBeInstanceOf(NotFoundError);
    await expect(getRun(world.runs, ORG, 'not-a-uuid')).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('recovering runs after a restart', () => {
  it('Should re-attach live jobs and end the others with what happened, leaving nothing RUNNING unexplained', async () => {
    // Prepare
    const live = (await submitSparkQuery(world.deps, ORG, request({ name: 'live' }))).run_id;
    const finished = (await submitSparkQuery(world.deps, ORG, request({ name: 'finished' }))).run_id;
    const gone = (await submitSparkQuery(world.deps, ORG, request({ name: 'gone' }))).run_id;
    world.lake.commit(ORG, { namespace: 'out', table: 'daily' }, finished, { 'added-records': '7' });
    world.engine.reattachAnswer = (run) =>
      run.runId === live ? 'attached' : run.runId === finished ? { state: 'COMPLETE', rowsWritten: 7 } : { state: 'FAIL', error: 'its Spark process is gone' };

    // Act
    const report = await recoverRuns(world.deps, 'local');

    // Assess
    expect(report).toEqual({ reattached: [live], ended: [finished, gone] });
    expect(world.runs.runs.get(live)?.state).toBe('RUNNING');
    expect(world.runs.runs.get(finished)).toMatchObject({ state: 'COMPLETE', rowsWritten: 7 });
    expect(world.runs.runs.get(gone)).toMatchObject({ state: 'FAIL', error: 'its Spark process is gone' });
  });

  it('Should fail a run that never reached the engine, and one the engine cannot look at', async () => {
    // Prepare
    const { run_id } = await submitSparkQuery(world.deps, ORG, request());
    const stored = world.runs.runs.get(run_id)!;
    const { handle: _handle, ...withoutHandle } = stored;
    world.runs.runs.set(run_id, withoutHandle);
    const second = (await submitSparkQuery(world.deps, ORG, request({ name: 'second' }))).run_id;
    world.engine.reattachAnswer = () => {
      throw new Error('pyspark is not installed');
    };

    // Act
    await recoverRuns(world.deps, 'local');

    // Assess
    expect(world.runs.runs.get(run_id)).toMatchObject({ state: 'FAIL', error: 'the service stopped before the run was handed to Spark' });
    expect(world.runs.runs.get(second)).toMatchObject({ state: 'FAIL', error: 'the run could not be recovered after a restart: pyspark is not installed' });
  });

  it('Should leave runs of another platform alone', async () => {
    // Prepare
    const { run_id } = await submitSparkQuery(world.deps, ORG, request());

    // Act
    const report = await recoverRuns(world.deps, 'emr-serverless');

    // Assess
    expect(report).toEqual({ reattached: [], ended: [] });
    expect(world.runs.runs.get(run_id)?.state).toBe('RUNNING');
  });
});
