/**
 * @module container-routed
 * The composition root of the routed query (`POST /api/v1/query`): the lake and DuckDB from
 * `container-lake.ts`, Spark runs from `container-runs.ts` (built only when a request becomes a
 * run), the routing table (moved by `LAKELINE_ROUTING_INTERACTIVE_LIMIT_BYTES` when set), and the
 * polars engine once that engine is wired here (until then polars is "not configured").
 */
import { randomUUID } from 'node:crypto';
import type { RoutedQueryDeps, SparkSubmitter } from '#domain/query/routed-query';
import { ROUTING_TABLE, withInteractiveLimit } from '#domain/routing/table';
import { submitSparkRun } from '#domain/runs/submit';
import { getConfig } from './config.ts';
import { lineageSink, orgStore } from './container.ts';
import { catalog, lakeStorage, queryEngine } from './container-lake.ts';
import { runDeps } from './container-runs.ts';
import { logger } from './observability.ts';
import { once } from './once.ts';

/** Spark runs through the runs use case, with the run id the router chose (a batch read names its results table after it). */
const sparkSubmitter: SparkSubmitter = {
  submit: (orgId, request, runId) => {
    const deps = runDeps();
    // A view of the run dependencies whose `newRunId` is the router's; the rest resolve lazily as before.
    const withRunId = Object.create(deps, { newRunId: { value: () => runId } }) as typeof deps;
    return submitSparkRun(withRunId, orgId, request);
  },
};

/** Everything the routed query needs. */
export const routedQueryDeps = once((): RoutedQueryDeps => {
  const config = getConfig();
  return {
    orgs: orgStore(),
    catalog: catalog(),
    storage: lakeStorage(),
    duckdb: queryEngine(),
    spark: sparkSubmitter,
    lineage: lineageSink(),
    catalogKind: config.profile === 'aws' ? 'glue' : 'jdbc',
    routingTable: config.routingInteractiveLimitBytes === undefined ? ROUTING_TABLE : withInteractiveLimit(config.routingInteractiveLimitBytes),
    warn: (message, fields) => logger.warn(message, fields),
    newRunId: () => randomUUID(),
  };
});
