/**
 * @module runs/get
 * Reading a run: an org sees only its own runs, and another org's run is indistinguishable from
 * one that does not exist (404 either way).
 */
import { NotFoundError } from '../errors.ts';
import type { RunStore } from './ports.ts';
import type { Run } from './run.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The caller's run.
 * @throws {NotFoundError} for an unknown id, a malformed one, or another org's run
 */
export async function getRun(runs: Pick<RunStore, 'get'>, orgId: string, runId: string): Promise<Run> {
  const run = UUID.test(runId) ? await runs.get(runId.toLowerCase()) : undefined;
  if (!run || run.orgId !== orgId) throw new NotFoundError(`run ${runId} does not exist`);
  return run;
}
