/**
 * @module post-query
 * `POST /api/v1/query`, the routed query (start here): parses the SQL, estimates its input from
 * Iceberg metadata, picks engine and size (`engine_decision`), and either answers the rows
 * (`COMPLETE`) or starts a Spark run (`SUBMITTED`, poll `GET /api/v1/runs/{run_id}`). Every error
 * body is `{success: false, error}`.
 */
import { runRoutedQuery } from '#domain/query/routed-query';
import { routedQueryDeps, warmQueryEngine } from '#composition/index';
import { PostQuery } from '#shared/contracts';
import { httpHandler } from '#composition/http';
import { mayWrite } from '#domain/auth/principal';

// The first DuckDB instance (extension signatures checked) is prepared during cold start.
warmQueryEngine();

/** Lambda entry point. */
export const handler = httpHandler(PostQuery, async ({ body, principal }) => ({
  statusCode: 200,
  body: await runRoutedQuery(routedQueryDeps(), principal.orgId, body, { mayWrite: mayWrite(principal) }),
}));
