/**
 * @module bloom/runs
 * Runs through bloom: a read too large for the router's DuckDB (or pinned to bloom) becomes a run
 * like a Spark run — the same run record, states, lineage and metering (`domain/runs`) — whose
 * statement lands its rows in the run's results table (`lakeline_results.r_<run>`), which
 * `GET /api/v1/runs/{run_id}` pages exactly as it pages a Spark batch read. Bloom statements are
 * polled rather than supervised: each `GET` of a RUNNING bloom run asks the engine for the
 * statement's state and ends the run when the statement has ended (the caller polls anyway, and
 * both Athena and the local Trino keep the state to ask for).
 */
import { qualifiedName } from '../core/names.ts';
import type { LoadedTable } from '../lake/query-tables.ts';
import type { CatalogKind } from '../lineage-capture/datasets.ts';
import type { JobIdentity } from '../core/query-job.ts';
import type { Org } from '../orgs/org.ts';
import { requireComputeAccess } from '../core/plans.ts';
import { abortRun } from '../runs/abort.ts';
import type { RunDeps } from '../runs/deps.ts';
import { finishRun } from '../runs/finish.ts';
import { recordStart } from '../runs/lineage.ts';
import { meterRun, wallClockVcpuSeconds } from '../runs/metering.ts';
import type { SparkEngine } from '../runs/ports.ts';
import { resultsTableOf } from '../runs/results.ts';
import type { ComputeUsed, Run } from '../runs/run.ts';
import { failToStart } from '../runs/submit.ts';
import type { BloomHandle } from './engine.ts';
import type { BloomEngine } from './ports.ts';

/** The run use cases' dependencies plus the bloom engine. */
export interface BloomRunDeps extends RunDeps {
  readonly bloom: BloomEngine;
}

/** A bloom read the routed query planned: nothing of it is derived again here. */
export interface PlannedBloomRead {
  readonly org: Org;
  readonly job: JobIdentity;
  /** The caller's SQL: a read the SQL firewall accepted in Trino mode against the org's catalog. */
  readonly sql: string;
  /** vCPUs the decision sized the run at: checked against the plan and metered per second. */
  readonly vcpus: number;
  /** Every table the SQL reads, as the firewall resolved them, loaded. */
  readonly inputs: readonly LoadedTable[];
}

const catalogKindOf = (platform: string): CatalogKind => (platform === 'athena' ? 'glue' : 'jdbc');

/** The compute record of a bloom run (the run record's shape is shared with Spark's). */
const bloomCompute = (platform: string, vcpus: number): ComputeUsed => ({
  requested: { driverMachineType: 'bloom', executorMachineType: 'bloom', executors: 0 },
  platform,
  driver: { vcpus, memoryGb: vcpus * 2 },
  executor: { vcpus: 0, memoryGb: 0 },
  executors: 0,
  billedVcpus: vcpus,
  scaledDown: false,
  sparkConf: {},
  note:
    platform === 'athena'
      ? 'Amazon Athena (engine version 3) runs the statement on its own fleet; the run is metered at the vCPUs of its size band per second.'
      : 'The local Trino server runs the statement (one coordinator-worker, 2 task threads); the run is metered at the vCPUs of its size band per second.',
});

/**
 * Submits a planned bloom read for its org, under the run id the router chose, and returns the run
 * (`RUNNING`). The statement passed the firewall in Trino mode when it was planned (no table
 * functions, no system procedures, every table one of the caller's own).
 *
 * @throws {PaymentRequiredError} (402) no payment method (bloom is metered)
 * @throws {ForbiddenError} (403) over the plan's sandbox cap or credit limit
 * @throws {ExecutionError} (500) the engine could not start the statement (the run ends FAIL)
 */
export async function submitBloomRun(deps: BloomRunDeps, read: PlannedBloomRead, runId: string): Promise<Run> {
  const orgId = read.org.orgId;
  requireComputeAccess(read.org, 'bloom', read.vcpus);
  const now = deps.now().toISOString();
  const resultsTable = resultsTableOf(runId);
  const run: Run = {
    runId,
    orgId,
    engine: 'bloom',
    job: read.job,
    state: 'RUNNING',
    createdAt: now,
    updatedAt: now,
    sql: read.sql,
    inputTables: read.inputs.map((t) => qualifiedName(t.engine.name)),
    outputTable: resultsTable,
    writeMode: 'overwrite',
    results: true,
    compute: bloomCompute(deps.bloom.platform, read.vcpus),
    lineage: { dialect: 'trino', engineVersion: await deps.bloom.version(), inputs: read.inputs.map((t) => t.dataset), catalogKind: catalogKindOf(deps.bloom.platform) },
  };
  await deps.runs.create(run);
  await recordStart(deps, run, deps.now());
  let handle: BloomHandle;
  try {
    handle = await deps.bloom.start({ orgId, sql: read.sql, tables: read.inputs.map((t) => t.engine.name), resultsTable, label: runId });
  } catch (err) {
    throw await failToStart(deps, run, 'bloom', err);
  }
  // An abort that came in while the statement was starting has ended the run: stop the statement.
  if (!(await deps.runs.attach(runId, handle, deps.now().toISOString()))) await deps.bloom.cancel(handle);
  return { ...run, handle };
}

/**
 * Brings a RUNNING bloom run up to date with its statement: ends it (with metering and lineage)
 * when the statement has ended. Any other run is returned as it is.
 */
export async function refreshBloomRun(deps: BloomRunDeps, run: Run): Promise<Run> {
  if (run.engine !== 'bloom' || run.state !== 'RUNNING' || !run.handle) return run;
  let status;
  try {
    status = await deps.bloom.status(run.handle as BloomHandle);
  } catch (err) {
    // A platform that cannot answer now is asked again on the next poll; the run stays RUNNING.
    deps.warn('bloom run state not available', { runId: run.runId, error: err });
    return run;
  }
  if (status.state === 'RUNNING') return run;
  const finishedAt = deps.now().getTime();
  const outcome =
    status.state === 'COMPLETE'
      ? { state: 'COMPLETE' as const, ...(status.rows !== undefined ? { rowsWritten: status.rows } : {}), timings: { finishedAt } }
      : status.state === 'FAIL'
        ? { state: 'FAIL' as const, error: status.error, timings: { finishedAt } }
        : { state: 'ABORT' as const, error: 'the statement was cancelled on its platform', timings: { finishedAt } };
  return (await finishRun(deps, run.runId, outcome)) ?? run;
}

/**
 * `POST /api/v1/runs/{run_id}/abort` of a bloom run: the runs use case, with the bloom engine
 * stopping the statement.
 * @throws as {@link abortRun} (404, 409)
 */
export async function abortBloomRun(deps: BloomRunDeps, orgId: string, runId: string): Promise<Run> {
  // abortRun stops a run through `engine.cancel`: here, the bloom engine's. A view over `deps`
  // (not a copy) keeps the composition root's lazy members lazy: no Spark engine is built.
  const canceller: Pick<SparkEngine, 'cancel'> = { cancel: (handle) => deps.bloom.cancel(handle as BloomHandle) };
  const aborted = await abortRun(Object.create(deps, { engine: { value: canceller } }) as RunDeps, orgId, runId);
  // A Spark run is metered when its stopped job reports its end; a cancelled statement reports
  // nothing (polling ends only RUNNING runs), so the time it ran is metered here, once.
  const vcpuSeconds = await meterRun(deps, aborted, wallClockVcpuSeconds(aborted, new Date(aborted.endedAt ?? deps.now().toISOString())));
  return vcpuSeconds === undefined ? aborted : { ...aborted, vcpuSeconds };
}
