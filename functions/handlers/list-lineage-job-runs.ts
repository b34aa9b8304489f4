/**
 * @module list-lineage-job-runs
 * `GET /api/v1/namespaces/{namespace}/jobs/{job}/runs?limit=&offset=`: a job's runs, newest first, with state, start, end and duration; 404 for an unknown job.
 */
import { listJobRuns } from '#domain/lineage-graph/objects';
import { parsePathQualifiedName } from '#domain/lineage-graph/params';
import { lineageGraph } from '#composition/index';
import { ListLineageJobRuns } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(ListLineageJobRuns, async ({ principal, query, pathParameters }) => ({
  statusCode: 200,
  body: await listJobRuns(lineageGraph().model, principal.orgId, parsePathQualifiedName(pathParameters.namespace, pathParameters.job, 'job'), query),
}));
