/**
 * @module list-lineage-dataset-versions
 * `GET /api/v1/namespaces/{namespace}/datasets/{dataset}/versions?limit=&offset=`: one version per run that wrote the dataset, newest first; 404 for an unknown dataset.
 */
import { listDatasetVersions } from '#domain/lineage-graph/objects';
import { parsePathQualifiedName } from '#domain/lineage-graph/params';
import { lineageGraph } from '#composition/index';
import { ListLineageDatasetVersions } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(ListLineageDatasetVersions, async ({ principal, query, pathParameters }) => ({
  statusCode: 200,
  body: await listDatasetVersions(lineageGraph().model, principal.orgId, parsePathQualifiedName(pathParameters.namespace, pathParameters.dataset, 'dataset'), query),
}));
