/**
 * @module get-column-lineage
 * `GET /api/v1/column-lineage?nodeId=&depth=&withDownstream=`: column lineage of a dataset or one of its fields; 404 for an unknown node.
 */
import { columnLineageGraph } from '#domain/lineage-graph/column-lineage';
import { lineageGraph } from '#composition/index';
import { GetColumnLineage } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(GetColumnLineage, async ({ principal, query }) => ({
  statusCode: 200,
  body: await columnLineageGraph(lineageGraph().model, principal.orgId, query),
}));
