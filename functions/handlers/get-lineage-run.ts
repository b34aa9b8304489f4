/**
 * @module get-lineage-run
 * `GET /api/v1/lineage-runs/{runId}`: a lineage run, its events merged, with parent and children; 404 when unknown.
 */
import { getLineageRun } from '#domain/lineage-graph/objects';
import { parseRunId } from '#domain/lineage-graph/params';
import { lineageGraph } from '#composition/index';
import { GetLineageRun } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(GetLineageRun, async ({ principal, pathParameters }) => ({
  statusCode: 200,
  body: await getLineageRun(lineageGraph().model, principal.orgId, parseRunId(pathParameters.runId)),
}));
