/**
 * @module post-run-abort
 * `POST /api/v1/runs/{run_id}/abort`: aborts one of the caller's running runs (the local Spark
 * process tree, or EMR `CancelJobRun`) and answers the run, now `ABORT`. 404 for an unknown or
 * another org's run, 409 for a run that has already ended.
 */
import { abortRun } from '#domain/runs/abort';
import { runView } from '#domain/runs/run';
import { runDeps } from '#shared/container-runs';
import { httpHandler } from '#shared/middleware';

/** Lambda entry point. */
export const handler = httpHandler('PostRunAbort', async ({ principal, pathParameters }) => ({
  statusCode: 200,
  body: runView(await abortRun(runDeps(), principal.orgId, pathParameters.run_id ?? '')),
}));
