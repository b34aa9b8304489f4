/**
 * @module get-run
 * `GET /api/v1/runs/{run_id}`: one of the caller's runs (any engine): state, job, timings,
 * compute used, error, output table, rows written and metered vCPU-seconds. Another org's run
 * is a 404, like an unknown one.
 */
import { getRun } from '#domain/runs/get';
import { runView } from '#domain/runs/run';
import { runStore } from '#shared/container-runs';
import { httpHandler } from '#shared/middleware';

/** Lambda entry point. */
export const handler = httpHandler('GetRun', async ({ principal, pathParameters }) => ({
  statusCode: 200,
  body: runView(await getRun(runStore(), principal.orgId, pathParameters.run_id ?? '')),
}));
