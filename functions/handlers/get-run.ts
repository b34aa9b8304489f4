/**
 * @module get-run
 * `GET /api/v1/runs/{run_id}`: one of the caller's runs (any engine): state, job, timings,
 * compute used, error, output table, rows written and metered vCPU-seconds. Another org's run
 * is a 404, like an unknown one. A finished batch read of the routed endpoint also carries its
 * rows, a page at a time (`offset`, `limit`; `results_page.next_offset` says where to go on).
 */
import { readRun } from '#domain/runs/read';
import { readRunDeps } from '#composition/index';
import { GetRun } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(GetRun, async ({ principal, pathParameters, query: page }) => ({
  statusCode: 200,
  body: await readRun(readRunDeps(), principal.orgId, pathParameters.run_id ?? '', page),
}));
