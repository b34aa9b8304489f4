/**
 * @module container-routed
 * The composition root of the routed query (`POST /api/v1/query`): the lake and DuckDB from
 * `container-lake.ts`, Spark runs from `container-runs.ts` (built only when a request becomes a
 * run), the routing table (moved by `LAKELINE_ROUTING_INTERACTIVE_LIMIT_BYTES` when set), the
 * polars sandbox of `container-polars.ts` as the polars engine, and the manifest reader of the
 * planned-files estimate.
 */
import { randomUUID } from 'node:crypto';
import { submitBloomRun } from '#domain/bloom/runs';
import type { BloomSubmitter, RoutedQueryDeps, SparkSubmitter } from '#domain/query/routed-query';
import { ROUTING_TABLE, withInteractiveLimit } from '#domain/routing/table';
import { DuckDBManifestReader } from '#adapters/duckdb/manifest-reader';
import { s3SecretStatements } from '#adapters/duckdb/s3-secret';
import { polarsEngineOf } from '#domain/polars/index';
import { submitSparkRun } from '#domain/runs/submit';
import { bloomAvailability, bloomRunDeps } from './container-bloom.ts';
import { getConfig } from './config.ts';
import { lineageSink, orgStore } from './container.ts';
import { catalog, lakeStorage, queryEngine } from './container-lake.ts';
import { polarsSandbox } from './container-polars.ts';
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

/** Bloom runs through the bloom run use case (`container-bloom.ts`), with the run id the router chose. */
const bloomSubmitter: BloomSubmitter = { submit: (orgId, request, runId) => submitBloomRun(bloomRunDeps(), orgId, request, runId) };

/** Everything the routed query needs. */
export const routedQueryDeps = once((): RoutedQueryDeps => {
  const config = getConfig();
  return {
    orgs: orgStore(),
    catalog: catalog(),
    storage: lakeStorage(),
    duckdb: queryEngine(),
    spark: sparkSubmitter,
    // Bloom only where it is configured (Athena workgroup bound; local Trino installed): else "not configured".
    ...(bloomAvailability().configured ? { bloom: bloomSubmitter } : {}),
    // The polars endpoint's sandbox (issue 6): local bubblewrap workers, per-tier Lambdas in AWS.
    polars: polarsEngineOf(polarsSandbox()),
    manifests:
      config.profile === 'aws'
        ? new DuckDBManifestReader({ extensionDir: config.lake.duckdbExtensionDir, extraExtensions: ['httpfs'], setupStatements: () => s3SecretStatements(config.awsEndpoints.s3) })
        : new DuckDBManifestReader({ extensionDir: config.lake.duckdbExtensionDir }),
    lineage: lineageSink(),
    catalogKind: config.profile === 'aws' ? 'glue' : 'jdbc',
    routingTable: config.routingInteractiveLimitBytes === undefined ? ROUTING_TABLE : withInteractiveLimit(config.routingInteractiveLimitBytes),
    warn: (message, fields) => logger.warn(message, fields),
    newRunId: () => randomUUID(),
  };
});
