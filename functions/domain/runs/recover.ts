/**
 * @module runs/recover
 * Restart safety: when a process that supervises runs starts (the local stack), every run it left
 * RUNNING is re-attached to its still-running job, or ended with what happened to it — a run is
 * never RUNNING forever. A run recovery cannot handle at all ends FAIL, with the reason.
 */
import type { RunDeps } from './deps.ts';
import { finishRun } from './finish.ts';
import type { Run, RunOutcome } from './run.ts';

/** What recovery did, by run id. */
export interface RecoveryReport {
  readonly reattached: string[];
  readonly ended: string[];
}

const recoverOne = async (deps: RunDeps, run: Run): Promise<'attached' | RunOutcome> => {
  if (!run.handle) return { state: 'FAIL', error: 'the service stopped before the run was handed to Spark' };
  return deps.engine.reattach(run);
};

/**
 * Re-attaches or ends the RUNNING and QUEUED Spark runs of this deployment's platform (runs of
 * another platform, say EMR runs in a store shared with a local stack, are left to their
 * platform). Running runs come first, so the engine knows its busy slots before queued runs are
 * queued again, oldest first.
 */
export async function recoverRuns(deps: RunDeps, platform: string): Promise<RecoveryReport> {
  const report: RecoveryReport = { reattached: [], ended: [] };
  const byCreation = (a: Run, b: Run) => a.createdAt.localeCompare(b.createdAt);
  const active = [...(await deps.runs.listByState('RUNNING')).sort(byCreation), ...(await deps.runs.listByState('QUEUED')).sort(byCreation)];
  for (const run of active) {
    if (run.engine !== 'spark' || run.compute.platform !== platform) continue;
    let found: 'attached' | RunOutcome;
    try {
      found = await recoverOne(deps, run);
    } catch (err) {
      found = { state: 'FAIL', error: `the run could not be recovered after a restart: ${err instanceof Error ? err.message : String(err)}` };
    }
    if (found === 'attached') {
      report.reattached.push(run.runId);
      continue;
    }
    await finishRun(deps, run.runId, found);
    report.ended.push(run.runId);
  }
  return report;
}
