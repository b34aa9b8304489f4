/**
 * @module list-namespaces
 * `GET /api/v1/namespaces?limit=&offset=`: the org's lineage namespaces, by name.
 */
import { listNamespaces } from '#domain/lineage-graph/objects';
import { lineageGraph } from '#composition/index';
import { ListNamespaces } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(ListNamespaces, async ({ principal, query }) => ({
  statusCode: 200,
  body: await listNamespaces(lineageGraph().model, principal.orgId, query),
}));
