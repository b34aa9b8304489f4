/**
 * @module get-job-run
 * `GET /api/v1/jobs/runs/{runId}` (Marquez's run path): a run with the dataset versions it read and wrote; 404 when unknown.
 */
import { getJobRun } from '#domain/lineage-graph/objects';
import { parseRunId } from '#domain/lineage-graph/params';
import { lineageGraph } from '#composition/index';
import { GetJobRun } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(GetJobRun, async ({ principal, pathParameters }) => ({
  statusCode: 200,
  body: await getJobRun(lineageGraph().model, principal.orgId, parseRunId(pathParameters.runId)),
}));
