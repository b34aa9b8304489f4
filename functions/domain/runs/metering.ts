/**
 * @module runs/metering
 * Metered usage of a run: vCPU-seconds recorded once on the run and added to the org's usage
 * (and spend, at the engine's price from the plan table).
 */
import { VCPU_SECOND_PRICE_USD } from '../core/plans.ts';
import type { RunDeps } from './deps.ts';
import type { Run } from './run.ts';

/**
 * vCPU-seconds of a run the platform did not bill itself: the vCPUs that served it (scaled-down
 * locally, so the machine that ran is the one billed) times the time from its start to its end.
 */
export const wallClockVcpuSeconds = (run: Run, endedAt: Date): number => {
  const start = run.timings?.startedAt ?? Date.parse(run.createdAt);
  const seconds = Math.max(0, endedAt.getTime() - start) / 1000;
  return Math.round(run.compute.billedVcpus * seconds * 1000) / 1000;
};

/**
 * Records a run's usage once: on the run first (a conditional write, so a second ender cannot
 * meter it again), then on the org. A failure is logged: a run's end is never undone by billing.
 */
export const meterRun = async (deps: Pick<RunDeps, 'runs' | 'orgs' | 'warn' | 'now'>, run: Run, vcpuSeconds: number): Promise<number | undefined> => {
  try {
    if (!(await deps.runs.recordUsage(run.runId, vcpuSeconds, deps.now().toISOString()))) return undefined;
    await deps.orgs.addUsage(run.orgId, run.engine, vcpuSeconds, vcpuSeconds * VCPU_SECOND_PRICE_USD[run.engine]);
    return vcpuSeconds;
  } catch (err) {
    deps.warn('run usage not metered', { runId: run.runId, vcpuSeconds, error: err });
    return undefined;
  }
};
