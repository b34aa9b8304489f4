/**
 * @module get-namespace
 * `GET /api/v1/namespaces/{namespace}`: a lineage namespace (first and last event time); 404 when unknown.
 */
import { getNamespace } from '#domain/lineage-graph/objects';
import { parsePathName } from '#domain/lineage-graph/params';
import { lineageGraph } from '#composition/index';
import { GetNamespace } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(GetNamespace, async ({ principal, pathParameters }) => ({
  statusCode: 200,
  body: await getNamespace(lineageGraph().model, principal.orgId, parsePathName(pathParameters.namespace, 'namespace')),
}));
