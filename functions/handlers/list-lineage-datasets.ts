/**
 * @module list-lineage-datasets
 * `GET /api/v1/namespaces/{namespace}/datasets?limit=&offset=`: a namespace's datasets, by name (names that resolve to another through a symlink are listed under it).
 */
import { listDatasets } from '#domain/lineage-graph/objects';
import { parsePathName } from '#domain/lineage-graph/params';
import { lineageGraph } from '#composition/index';
import { ListLineageDatasets } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(ListLineageDatasets, async ({ principal, query, pathParameters }) => ({
  statusCode: 200,
  body: await listDatasets(lineageGraph().model, principal.orgId, parsePathName(pathParameters.namespace, 'namespace'), query),
}));
