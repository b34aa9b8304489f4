/**
 * @module get-lineage-dataset
 * `GET /api/v1/namespaces/{namespace}/datasets/{dataset}`: a dataset (found by any of its names) with fields, facets, last modified and producing job; 404 when unknown.
 */
import { getDataset } from '#domain/lineage-graph/objects';
import { parsePathQualifiedName } from '#domain/lineage-graph/params';
import { lineageGraph } from '#composition/index';
import { GetLineageDataset } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(GetLineageDataset, async ({ principal, pathParameters }) => ({
  statusCode: 200,
  body: await getDataset(lineageGraph().model, principal.orgId, parsePathQualifiedName(pathParameters.namespace, pathParameters.dataset, 'dataset')),
}));
