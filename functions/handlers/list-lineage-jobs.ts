/**
 * @module list-lineage-jobs
 * `GET /api/v1/namespaces/{namespace}/jobs?limit=&offset=`: a namespace's jobs, by name.
 */
import { listJobs } from '#domain/lineage-graph/objects';
import { parsePathName } from '#domain/lineage-graph/params';
import { lineageGraph } from '#composition/index';
import { ListLineageJobs } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(ListLineageJobs, async ({ principal, query, pathParameters }) => ({
  statusCode: 200,
  body: await listJobs(lineageGraph().model, principal.orgId, parsePathName(pathParameters.namespace, 'namespace'), query),
}));
