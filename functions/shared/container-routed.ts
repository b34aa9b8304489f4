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
import type { BloomSubmitter, SparkSubmitter } from '#domain/query/ports';
import type { RoutedQueryDeps } from '#domain/query/routed-query';
import { ROUTING_TABLE, withInteractiveLimit } from '#domain/routing/table';
import { DuckDBManifestReader } from '#adapters/duckdb/manifest-reader';
import { s3SecretStatements } from '#adapters/duckdb/s3-secret';
import { polarsEngineOf } from '#domain/polars/routed-engine';
import { submitPlannedSparkRun } from '#domain/runs/submit';
import { bloomAvailability, bloomRunDeps } from './container-bloom.ts';
import { getConfig } from './config.ts';
import { lineageSink, orgStore } from './container.ts';
import { catalog, lakeStorage, queryEngine } from './container-lake.ts';
import { polarsSandbox } from './container-polars.ts';
import { runDeps } from './container-runs.ts';
import { logger } from './observability.ts';
import { once } from './once.ts';

/** Spark runs through the runs use case, as the router planned them (a batch read names its results table after the run id). */
const sparkSubmitter: SparkSubmitter = { submit: (run, runId) => submitPlannedSparkRun(runDeps(), run, runId) };

/** Bloom runs through the bloom run use case (`container-bloom.ts`), as the router planned them. */
const bloomSubmitter: BloomSubmitter = { submit: (read, runId) => submitBloomRun(bloomRunDeps(), read, runId) };

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
