/**
 * @module post-query
 * `POST /api/v1/query`, the routed query (start here): parses the SQL, estimates its input from
 * Iceberg metadata, picks engine and size (`engine_decision`), and either answers the rows
 * (`COMPLETE`) or starts a Spark run (`SUBMITTED`, poll `GET /api/v1/runs/{run_id}`). Every error
 * body is `{success: false, error}`.
 */
import { runRoutedQuery } from '#domain/query/routed-query';
import { checkRoutedRequest } from '#domain/routing/request';
import { routedQueryDeps, warmQueryEngine } from '#composition/index';
import { httpHandler } from '#shared/middleware';
import { jsonBody } from '#shared/request';
import { parseRoutedQueryRequest } from '#shared/schemas/query';

/** Largest request body: API Gateway's own limit (the firewall bounds the SQL text itself). */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

// The first DuckDB instance (extension signatures checked) is prepared during cold start.
warmQueryEngine();

/** Lambda entry point. */
export const handler = httpHandler('PostQuery', async ({ event, principal }) => {
  const request = checkRoutedRequest(parseRoutedQueryRequest(jsonBody(event, MAX_BODY_BYTES).value));
  return { statusCode: 200, body: await runRoutedQuery(routedQueryDeps(), principal.orgId, request) };
});
