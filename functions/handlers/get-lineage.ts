/**
 * @module get-lineage
 * `GET /api/v1/lineage?nodeId=&depth=&direction=&asOf=&runId=`: the graph around a job or dataset as Marquez answers it, or one run's graph; 404 for an unknown node.
 */
import { lineageGraph as graphAround } from '#domain/lineage-graph/graph';
import { lineageGraph } from '#composition/index';
import { GetLineage } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(GetLineage, async ({ principal, query }) => ({
  statusCode: 200,
  body: await graphAround(lineageGraph().model, principal.orgId, query),
}));
