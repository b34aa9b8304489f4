/**
 * @module search-lineage
 * `GET /api/v1/search?q=&filter=&sort=&namespace=&limit=&offset=`: jobs and datasets whose name or symlink alias contains `q`, case-insensitively.
 */
import { searchLineage } from '#domain/lineage-graph/search';
import { lineageGraph } from '#composition/index';
import { SearchLineage } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(SearchLineage, async ({ principal, query }) => ({
  statusCode: 200,
  body: await searchLineage(lineageGraph().model, principal.orgId, query),
}));
