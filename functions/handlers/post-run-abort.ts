/**
 * @module post-run-abort
 * `POST /api/v1/runs/{run_id}/abort`: aborts one of the caller's running runs (the local Spark
 * process tree, or EMR `CancelJobRun`; a bloom run's statement through the bloom engine) and answers the run, now `ABORT`. 404 for an unknown or
 * another org's run, 409 for a run that has already ended.
 */
import { abortBloomRun } from '#domain/bloom/runs';
import { abortRun } from '#domain/runs/abort';
import { getRun } from '#domain/runs/get';
import { runView } from '#domain/runs/run';
import { bloomRunDeps, runDeps, spark } from '#composition/index';
import { PostRunAbort } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(PostRunAbort, async ({ principal, pathParameters }) => {
  const runId = pathParameters.run_id ?? '';
  // A bloom run's statement is stopped by the bloom engine (Athena StopQueryExecution, Trino DELETE).
  const bloom = (await getRun(spark().runs, principal.orgId, runId)).engine === 'bloom';
  return { statusCode: 200, body: runView(await (bloom ? abortBloomRun(bloomRunDeps(), principal.orgId, runId) : abortRun(runDeps(), principal.orgId, runId))) };
});
