/**
 * @module get-run
 * `GET /api/v1/runs/{run_id}`: one of the caller's runs (any engine): state, job, timings,
 * compute used, error, output table, rows written and metered vCPU-seconds. Another org's run
 * is a 404, like an unknown one. A finished batch read of the routed endpoint also carries its
 * rows, a page at a time (`offset`, `limit`; `results_page.next_offset` says where to go on).
 */
import { refreshBloomRun } from '#domain/bloom/runs';
import { getRun } from '#domain/runs/get';
import { readRunResults } from '#domain/runs/results';
import { runView } from '#domain/runs/run';
import { bloomRunDeps, lake, spark } from '#composition/index';
import { GetRun } from '#shared/contracts';
import { httpHandler } from '#shared/middleware';

/** Lambda entry point. */
export const handler = httpHandler(GetRun, async ({ principal, pathParameters, query: page }) => {
  const stored = await getRun(spark().runs, principal.orgId, pathParameters.run_id ?? '');
  // A bloom run is polled: each GET asks the engine for its statement's state (bloom/runs.ts).
  const run = stored.engine === 'bloom' && stored.state === 'RUNNING' ? await refreshBloomRun(bloomRunDeps(), stored) : stored;
  // Only a completed batch read touches the lake; every other run is answered from the run store.
  const rows = run.results && run.state === 'COMPLETE' ? await readRunResults({ catalog: lake().catalog, storage: lake().storage, engine: lake().duckdb }, run, page) : undefined;
  return { statusCode: 200, body: { ...runView(run), ...(rows ?? {}) } };
});
