/**
 * @module post-warehouse-query
 * `POST /api/v1/warehouse/query` (legacy, DuckDB only, Pro plan): runs one query and answers the
 * contract's `QueryResponse`. Headers say how the answer was produced: `x-lakeline-cache`
 * (`hit`: served from the autosaved table without running, `miss`: run and saved, `off`) and
 * `x-lakeline-run-id` (the lineage run); `server-timing` has the time of each phase.
 */
import { runLegacyQuery } from '#domain/query/legacy-query';
import { legacyQueryDeps, warmQueryEngine } from '#composition/index';
import { PostWarehouseQuery } from '#shared/contracts';
import { httpHandler } from '#composition/http';
import { mayWrite } from '#domain/auth/principal';

// The first DuckDB instance (extension signatures checked) is prepared during cold start.
warmQueryEngine();

/** Lambda entry point. */
export const handler = httpHandler(PostWarehouseQuery, async ({ body, principal }) => {
  const outcome = await runLegacyQuery(legacyQueryDeps(), { orgId: principal.orgId, ...body, mayWrite: mayWrite(principal) });
  const serverTiming = Object.entries(outcome.timings)
    .map(([phase, ms]) => `${phase};dur=${ms.toFixed(1)}`)
    .join(', ');
  return {
    statusCode: 200,
    headers: { 'x-lakeline-cache': outcome.cache, 'x-lakeline-run-id': outcome.runId, 'server-timing': serverTiming },
    body: outcome.response,
  };
});
