/**
 * @module get-lineage-job
 * `GET /api/v1/namespaces/{namespace}/jobs/{job}`: a job with its latest run, current inputs and outputs and facets; 404 when unknown.
 */
import { getJob } from '#domain/lineage-graph/objects';
import { parsePathQualifiedName } from '#domain/lineage-graph/params';
import { lineageGraph } from '#composition/index';
import { GetLineageJob } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(GetLineageJob, async ({ principal, pathParameters }) => ({
  statusCode: 200,
  body: await getJob(lineageGraph().model, principal.orgId, parsePathQualifiedName(pathParameters.namespace, pathParameters.job, 'job')),
}));
