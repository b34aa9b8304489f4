/**
 * @module list-tags
 * `GET /api/v1/tags?limit=&offset=` (Marquez's tags): the tag names the org's OpenLineage `tags`
 * facets carried, by name.
 */
import { listTags } from '#domain/lineage-graph/tags';
import { lineageGraph } from '#composition/index';
import { ListTags } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(ListTags, async ({ principal, query }) => ({
  statusCode: 200,
  body: await listTags(lineageGraph().model, principal.orgId, query),
}));
