/**
 * @module runs/start
 * A queued run starts: its platform reports it (the local engine took it from its queue, EMR
 * Serverless sent RUNNING). The run moves from QUEUED to RUNNING; a run that was aborted while it
 * waited is stopped on its platform instead.
 */
import type { RunDeps } from './deps.ts';
import type { EngineHandle } from './run.ts';

/**
 * Records that a queued run started, with where it now lives.
 * @returns whether the run is RUNNING now (false: unknown, already running, or ended)
 */
export async function startRun(deps: Pick<RunDeps, 'runs' | 'engine' | 'now' | 'warn'>, runId: string, handle?: EngineHandle): Promise<boolean> {
  const at = deps.now().toISOString();
  if (handle !== undefined && !(await deps.runs.attach(runId, handle, at))) {
    // Ended while it waited (an abort): the job the platform just started must not run.
    await deps.engine.cancel(handle).catch((err: unknown) => deps.warn('a run aborted while queued could not be stopped', { runId, error: err }));
    return false;
  }
  const startedAt = typeof handle?.startedAt === 'number' ? handle.startedAt : undefined;
  return deps.runs.start(runId, at, startedAt);
}
