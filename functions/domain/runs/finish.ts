/**
 * @module runs/finish
 * Ending a run with its engine's outcome: the conditional transition out of RUNNING (so a late
 * duplicate, or an abort that got there first, changes nothing), metering, and the lineage event.
 */
import type { RunDeps } from './deps.ts';
import { recordEnd } from './lineage.ts';
import { meterRun, wallClockVcpuSeconds } from './metering.ts';
import type { Run, RunOutcome } from './run.ts';

/**
 * Ends a run as its engine reports. Returns the run as it now stands, or undefined for an
 * unknown run id (an outcome for a run this deployment never recorded is ignored).
 */
export async function finishRun(deps: RunDeps, runId: string, outcome: RunOutcome): Promise<Run | undefined> {
  const endedAt = deps.now();
  const ended = await deps.runs.end(runId, {
    state: outcome.state,
    endedAt: endedAt.toISOString(),
    ...(outcome.error !== undefined ? { error: outcome.error } : {}),
    ...(outcome.rowsWritten !== undefined ? { rowsWritten: outcome.rowsWritten } : {}),
    ...(outcome.bytesWritten !== undefined ? { bytesWritten: outcome.bytesWritten } : {}),
    ...(outcome.filesWritten !== undefined ? { filesWritten: outcome.filesWritten } : {}),
    ...(outcome.timings ? { timings: outcome.timings } : {}),
  });
  if (!ended) return meterEndedRun(deps, runId, outcome);
  const vcpuSeconds = deps.meteredByPlatform ? outcome.vcpuSeconds : wallClockVcpuSeconds(ended, endedAt);
  const metered = vcpuSeconds === undefined ? undefined : await meterRun(deps, ended, vcpuSeconds);
  const run = metered === undefined ? ended : { ...ended, vcpuSeconds: metered };
  await recordEnd(deps, run, deps.now(), outcome.engineVersion);
  return run;
}

/**
 * An outcome for a run that had already ended: a repeated event, or the report of a job that was
 * stopped because the run was aborted. An aborted run is metered here, once its job has stopped:
 * with the platform's bill when it sends one, else by the wall clock up to the abort.
 */
const meterEndedRun = async (deps: RunDeps, runId: string, outcome: RunOutcome): Promise<Run | undefined> => {
  const current = await deps.runs.get(runId);
  if (!current || current.state !== 'ABORT' || current.vcpuSeconds !== undefined) return current;
  const vcpuSeconds = deps.meteredByPlatform ? outcome.vcpuSeconds : wallClockVcpuSeconds(current, new Date(current.endedAt ?? deps.now().toISOString()));
  const metered = vcpuSeconds === undefined ? undefined : await meterRun(deps, current, vcpuSeconds);
  return metered === undefined ? current : { ...current, vcpuSeconds: metered };
};
