/**
 * @module runs/finish
 * Ending a run with its engine's outcome, checked against the catalog (`commit.ts`): the
 * conditional transition out of QUEUED/RUNNING (so a late duplicate, or an abort that got there
 * first, changes nothing), metering, and the lineage event.
 */
import { outcomeFollowingCatalog } from './commit.ts';
import type { RunDeps } from './deps.ts';
import { recordEnd } from './lineage.ts';
import { meterRun, wallClockVcpuSeconds } from './metering.ts';
import type { Run, RunEnd, RunOutcome } from './run.ts';

const endOf = (outcome: RunOutcome, endedAt: Date): RunEnd => ({
  state: outcome.state,
  endedAt: endedAt.toISOString(),
  ...(outcome.error !== undefined ? { error: outcome.error } : {}),
  ...(outcome.rowsWritten !== undefined ? { rowsWritten: outcome.rowsWritten } : {}),
  ...(outcome.bytesWritten !== undefined ? { bytesWritten: outcome.bytesWritten } : {}),
  ...(outcome.filesWritten !== undefined ? { filesWritten: outcome.filesWritten } : {}),
  ...(outcome.timings ? { timings: outcome.timings } : {}),
});

/**
 * Ends a run as its engine reports, corrected by the catalog. Returns the run as it now stands,
 * or undefined for an unknown run id (an outcome for a run this deployment never recorded is
 * ignored).
 */
export async function finishRun(deps: RunDeps, runId: string, reported: RunOutcome): Promise<Run | undefined> {
  const current = await deps.runs.get(runId);
  if (!current) return undefined;
  const outcome = await outcomeFollowingCatalog(deps, current, reported);
  const endedAt = deps.now();
  const ended = await deps.runs.end(runId, endOf(outcome, endedAt));
  if (!ended) return endedEarlier(deps, runId, outcome);
  const vcpuSeconds = deps.meteredByPlatform ? outcome.vcpuSeconds : wallClockVcpuSeconds(ended, endedAt);
  const metered = vcpuSeconds === undefined ? undefined : await meterRun(deps, ended, vcpuSeconds);
  const run = metered === undefined ? ended : { ...ended, vcpuSeconds: metered };
  await recordEnd(deps, run, deps.now(), outcome.engineVersion);
  return run;
}

/**
 * An outcome for a run that had already ended: a repeated event, or the report of a job that was
 * stopped because the run was aborted. An aborted run whose write committed before its job stopped
 * becomes COMPLETE (its rows are in the table). An aborted run is metered here, once its job has
 * stopped: with the platform's bill when it sends one, else by the wall clock up to the abort.
 */
const endedEarlier = async (deps: RunDeps, runId: string, outcome: RunOutcome): Promise<Run | undefined> => {
  let current = await deps.runs.get(runId);
  if (!current || current.state !== 'ABORT') return current;
  if (outcome.state === 'COMPLETE') {
    const corrected = await deps.runs.end(runId, endOf(outcome, new Date(current.endedAt ?? deps.now().toISOString())), ['ABORT']);
    if (corrected) {
      current = corrected;
      await recordEnd(deps, corrected, deps.now(), outcome.engineVersion);
    }
  }
  if (current.vcpuSeconds !== undefined) return current;
  const vcpuSeconds = deps.meteredByPlatform ? outcome.vcpuSeconds : wallClockVcpuSeconds(current, new Date(current.endedAt ?? deps.now().toISOString()));
  const metered = vcpuSeconds === undefined ? undefined : await meterRun(deps, current, vcpuSeconds);
  return metered === undefined ? current : { ...current, vcpuSeconds: metered };
};
