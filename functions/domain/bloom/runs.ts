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
import { DomainError, ExecutionError, UnauthorizedError, ValidationError } from '../errors.ts';
import { DEFAULT_CATALOG, type TableName } from '../lake/names.ts';
import type { CatalogKind } from '../lineage-capture/datasets.ts';
import { requireComputeAccess } from '../orgs/plans.ts';
import type { JobIdentity } from '../query/job.ts';
import { catalogResolver, loadInputTables } from '../query/lake-tables.ts';
import { RESULTS_NAMESPACE } from '../routing/request.ts';
import { abortRun } from '../runs/abort.ts';
import type { RunDeps } from '../runs/deps.ts';
import { finishRun } from '../runs/finish.ts';
import { meterRun, wallClockVcpuSeconds } from '../runs/metering.ts';
import { recordEnd, recordStart } from '../runs/lineage.ts';
import type { SparkEngine } from '../runs/ports.ts';
import type { ComputeUsed, Run } from '../runs/run.ts';
import { analyzeSql } from '../sql/index.ts';
import type { BloomEngine, BloomHandle } from './engine.ts';

/** The run use cases' dependencies plus the bloom engine. */
export interface BloomRunDeps extends RunDeps {
  readonly bloom: BloomEngine;
}

/** What a bloom run is asked to do. */
export interface BloomRunRequest {
  readonly job: JobIdentity;
  /** The caller's SQL, a read. */
  readonly sql: string;
  /** vCPUs the decision sized the run at: checked against the plan and metered per second. */
  readonly vcpus: number;
}

/** The results table of a run: the same rule as the routed query's Spark batch reads. */
export const bloomResultsTable = (runId: string): TableName => ({ namespace: RESULTS_NAMESPACE, table: `r_${runId.replaceAll('-', '').toLowerCase()}` });

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
 * Submits a bloom run for an org and returns it (`RUNNING`).
 *
 * @throws {ValidationError} (400) refused SQL (Trino mode), or a statement that is not a read
 * @throws {PaymentRequiredError} (402) no payment method (bloom is metered)
 * @throws {ForbiddenError} (403) over the plan's sandbox cap or credit limit
 * @throws {ExecutionError} (500) the engine could not start the statement (the run ends FAIL)
 */
export async function submitBloomRun(deps: BloomRunDeps, orgId: string, request: BloomRunRequest, runId: string): Promise<Run> {
  const org = await deps.orgs.get(orgId);
  if (!org) throw new UnauthorizedError(`organization ${orgId} does not exist`);
  requireComputeAccess(org, 'bloom', request.vcpus);
  const known = await deps.catalog.listTables(orgId);
  // Trino mode: no table functions, no system procedures, every table one of the caller's own.
  const analysis = analyzeSql(request.sql, { dialect: 'trino', defaultCatalog: DEFAULT_CATALOG, resolveTable: catalogResolver(known) });
  if (analysis.kind !== 'read') throw new ValidationError('query: bloom runs reads only (SELECT …); write with engine spark or a destination');
  const inputs = await loadInputTables(deps.storage, known, analysis.inputTables);
  const now = deps.now().toISOString();
  const resultsTable = bloomResultsTable(runId);
  const run: Run = {
    runId,
    orgId,
    engine: 'bloom',
    job: request.job,
    state: 'RUNNING',
    createdAt: now,
    updatedAt: now,
    sql: request.sql,
    inputTables: analysis.inputTables.map((t) => `${t.catalog}.${t.namespace}.${t.table}`),
    outputTable: resultsTable,
    writeMode: 'overwrite',
    results: true,
    compute: bloomCompute(deps.bloom.platform, request.vcpus),
    lineage: { dialect: 'trino', engineVersion: await deps.bloom.version(), inputs: inputs.map((t) => t.dataset), catalogKind: catalogKindOf(deps.bloom.platform) },
  };
  await deps.runs.create(run);
  await recordStart(deps, run, deps.now());
  let handle: BloomHandle;
  try {
    handle = await deps.bloom.start({ orgId, sql: request.sql, tables: inputs.map((t) => t.engine.name), resultsTable, label: runId });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const ended = await deps.runs.end(runId, { state: 'FAIL', endedAt: deps.now().toISOString(), error: `bloom could not start the run: ${message}` });
    if (ended) await recordEnd(deps, ended, deps.now());
    throw err instanceof DomainError ? err : new ExecutionError(`bloom could not start the run: ${message}`, { cause: err });
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
