/**
 * @module get-lineage-dataset-version
 * `GET /api/v1/namespaces/{namespace}/datasets/{dataset}/versions/{version}`: one version of a dataset (found by any of its names); 404 when unknown.
 */
import { getDatasetVersion } from '#domain/lineage-graph/objects';
import { parsePathName, parsePathQualifiedName } from '#domain/lineage-graph/params';
import { lineageGraph } from '#composition/index';
import { GetLineageDatasetVersion } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(GetLineageDatasetVersion, async ({ principal, pathParameters }) => ({
  statusCode: 200,
  body: await getDatasetVersion(
    lineageGraph().model,
    principal.orgId,
    parsePathQualifiedName(pathParameters.namespace, pathParameters.dataset, 'dataset'),
    parsePathName(pathParameters.version, 'version'),
  ),
}));
