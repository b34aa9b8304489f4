/**
 * @module runs/read
 * `GET /api/v1/runs/{run_id}`: one of the caller's runs as callers see it (any engine: state, job,
 * timings, compute, error, output table, rows written, metered vCPU-seconds). A RUNNING bloom run
 * is polled first (its platform reports nothing by itself); a completed batch read also carries a
 * page of its rows. Another org's run is a 404, like an unknown one.
 */
import { getRun } from './get.ts';
import type { RunPoller, RunStore } from './ports.ts';
import { readRunResults, type ResultsPage, type RunResults, type RunResultsDeps } from './results.ts';
import { runView } from './run.ts';

/** What reading a run needs. */
export interface ReadRunDeps extends RunResultsDeps {
  readonly runs: Pick<RunStore, 'get'>;
  /** Brings a RUNNING bloom run up to date with its statement (`bloom/runs.ts`). */
  readonly bloom: RunPoller;
}

/** A run as the runs API answers it. */
export type RunAnswer = ReturnType<typeof runView> & Partial<RunResults>;

/**
 * The caller's run, up to date, with a page of its rows when it is a completed batch read.
 * @throws {NotFoundError} (404) for an unknown or malformed id, or another org's run
 */
export async function readRun(deps: ReadRunDeps, orgId: string, runId: string, page: ResultsPage): Promise<RunAnswer> {
  const stored = await getRun(deps.runs, orgId, runId);
  const run = stored.engine === 'bloom' && stored.state === 'RUNNING' ? await deps.bloom.refresh(stored) : stored;
  // Only a completed batch read touches the lake; every other run is answered from the run store.
  const rows = await readRunResults(deps, run, page);
  return { ...runView(run), ...(rows ?? {}) };
}
