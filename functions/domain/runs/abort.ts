/**
 * @module runs/abort
 * `POST /api/v1/runs/{run_id}/abort`: ends a queued or running run as ABORT and stops it on its
 * platform (the local process tree or queue entry, or EMR `CancelJobRun`).
 */
import { ConflictError } from '../errors.ts';
import type { RunDeps } from './deps.ts';
import { getRun } from './get.ts';
import { recordEnd } from './lineage.ts';
import { isActive, type Run } from './run.ts';

/**
 * Aborts the caller's run. The run is marked ABORT before the platform is asked to stop it, so
 * the engine's own report of the stopped job (a killed process, EMR's CANCELLED) cannot be
 * mistaken for a failure: the conditional transition has already been taken.
 *
 * @throws {NotFoundError} 404 for an unknown run or another org's
 * @throws {ConflictError} 409 when the run has already ended
 */
export async function abortRun(deps: RunDeps, orgId: string, runId: string): Promise<Run> {
  const run = await getRun(deps.runs, orgId, runId);
  if (!isActive(run.state)) throw new ConflictError(`run ${run.runId} has already ended (${run.state}); only a QUEUED or RUNNING run can be aborted`);
  const endedAt = deps.now();
  const ended = await deps.runs.end(run.runId, { state: 'ABORT', endedAt: endedAt.toISOString(), error: 'aborted by request' });
  if (!ended) {
    const now = await getRun(deps.runs, orgId, runId);
    throw new ConflictError(`run ${run.runId} has already ended (${now.state}); only a QUEUED or RUNNING run can be aborted`);
  }
  if (ended.handle) {
    try {
      await deps.engine.cancel(ended.handle);
    } catch (err) {
      // The run is ABORT for the service either way; a job the platform could not stop is logged.
      deps.warn('aborted run could not be stopped on its platform', { runId: run.runId, error: err });
    }
  }
  // Usage is metered when the stopped job reports its end (finish.ts), with the platform's bill
  // where there is one; this request does not wait for that.
  await recordEnd(deps, ended, deps.now());
  return ended;
}
