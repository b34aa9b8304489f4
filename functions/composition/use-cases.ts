/**
 * @module use-cases
 * What each use case is given, assembled from the port groups of whichever profile runs: written
 * once for both. Each takes the groups as getters, so a member is built only when the use case
 * reads it (reading a run builds no engine; aborting one lists no catalog).
 */
import { randomUUID } from 'node:crypto';
import { Authorizer, KEY_CACHE_TTL_MS } from '#domain/auth/authorize';
import { refreshBloomRun, submitBloomRun, type BloomRunDeps } from '#domain/bloom/runs';
import { OrgReadCache } from '#domain/orgs/org-read-cache';
import { polarsEngineOf } from '#domain/polars/routed-engine';
import type { PolarsDeps } from '#domain/polars/run-polars';
import type { LegacyQueryDeps } from '#domain/query/legacy-query';
import type { BloomSubmitter, SparkSubmitter } from '#domain/query/ports';
import type { RoutedQueryDeps } from '#domain/query/routed-query';
import { ROUTING_TABLE, withBloomLimit, withInteractiveLimit, type BandRow } from '#domain/routing/table';
import type { RunDeps } from '#domain/runs/deps';
import { finishRun } from '#domain/runs/finish';
import type { ResultsExpiryDeps } from '#domain/runs/results-expiry';
import type { LineageTablesMaintenanceDeps } from '#domain/lineage-tables/maintenance';
import { startRun } from '#domain/runs/start';
import type { ReadRunDeps } from '#domain/runs/read';
import { submitPlannedSparkRun } from '#domain/runs/submit';
import { logger } from '#shared/observability';
import type { Config } from './config.ts';
import { builtOnFirstUse } from './lazy.ts';
import type { BloomPorts, LakePorts, PlatformPorts, PolarsPorts, SparkHooks, SparkPorts } from './ports.ts';

/** The port groups, each built on first use. A use case is given only the groups it reads, so a bundle carries only those. */
export interface Groups {
  readonly config: () => Config;
  readonly platform: () => PlatformPorts;
  readonly lake: () => LakePorts;
  readonly spark: () => SparkPorts;
  readonly polars: () => PolarsPorts;
  readonly bloom: () => BloomPorts;
}

/** Problems that must not fail a request (lineage, metering) are logged. */
const warn = (message: string, fields: Record<string, unknown>): void => logger.warn(message, fields);

/** The authorizer, with its per-container key cache. */
export const authorizerOf = async (g: Pick<Groups, 'config' | 'platform'>): Promise<Authorizer> => {
  const ttl = g.config().authCacheTtlMs;
  return new Authorizer({ keys: g.platform().keys, orgs: g.platform().orgs, sessionSecret: await g.platform().sessionSecret(), ...(ttl === undefined ? {} : { keyCacheTtlMs: ttl }) });
};

/**
 * The org store as the plan-only legacy DuckDB endpoint reads it: remembered per warm container
 * for the authorizer's key time-to-live, the bound a key's revocation already has (ADR 0058).
 * Endpoints that check a credit limit (polars, routed) and every write read the store itself.
 */
const planReaderOf = (g: Pick<Groups, 'config' | 'platform'>): OrgReadCache => new OrgReadCache(g.platform().orgs, g.config().authCacheTtlMs ?? KEY_CACHE_TTL_MS);

/** The members every run use case reads, as builders (bloom runs add their engine to them). */
const runMembers = (g: Pick<Groups, 'platform' | 'lake' | 'spark'>) => ({
  runs: () => g.spark().runs,
  orgs: () => g.platform().orgs,
  catalog: () => g.lake().catalog,
  storage: () => g.lake().storage,
  engine: () => g.spark().engine,
  lineage: () => g.platform().lineage,
  warn: () => warn,
  now: () => () => new Date(),
  newRunId: () => randomUUID,
});

/** The run use cases (submit, start, finish, abort, recover, read). */
export const runDepsOf = (g: Pick<Groups, 'platform' | 'lake' | 'spark'>): RunDeps =>
  builtOnFirstUse<RunDeps>({ ...runMembers(g), meteredByPlatform: () => g.spark().meteredByPlatform });

/** Bloom runs: the run use cases plus the bloom engine, metered by the wall clock in both profiles (Athena bills bytes, not runs). */
export const bloomRunDepsOf = (g: Pick<Groups, 'platform' | 'lake' | 'spark' | 'bloom'>): BloomRunDeps =>
  builtOnFirstUse<BloomRunDeps>({ ...runMembers(g), meteredByPlatform: () => false, bloom: () => g.bloom().engine });

/** What the local Spark engine reports, fed into the run use cases. */
export const sparkHooksOf = (runDeps: () => RunDeps): SparkHooks => ({
  onOutcome: async (runId, outcome) => {
    await finishRun(runDeps(), runId, outcome);
  },
  onStarted: async (runId, handle) => {
    await startRun(runDeps(), runId, handle);
  },
});

/** The legacy warehouse query (DuckDB in the function, autosave into the lake). */
export const legacyQueryDepsOf = (g: Pick<Groups, 'config' | 'platform' | 'lake'>): LegacyQueryDeps =>
  builtOnFirstUse<LegacyQueryDeps>({
    orgs: () => planReaderOf(g),
    catalog: () => g.lake().catalog,
    storage: () => g.lake().storage,
    writer: () => g.lake().writer,
    engine: () => g.lake().duckdb,
    lineage: () => g.platform().lineage,
    catalogKind: () => g.lake().catalogKind,
    scratch: () => g.lake().scratch,
    warn: () => warn,
    newRunId: () => randomUUID,
  });

/**
 * Reading a run (`GET /api/v1/runs/{run_id}`): a RUNNING bloom run is polled through the bloom run
 * use case; a completed batch read's page is read with the router's DuckDB.
 */
export const readRunDepsOf = (g: Pick<Groups, 'platform' | 'lake' | 'spark' | 'bloom'>): ReadRunDeps =>
  builtOnFirstUse<ReadRunDeps>({
    runs: () => g.spark().runs,
    bloom: () => ({ refresh: (run) => refreshBloomRun(bloomRunDepsOf(g), run) }),
    catalog: () => g.lake().catalog,
    storage: () => g.lake().storage,
    duckdb: () => g.lake().duckdb,
  });

/** The routing table with the limits a deployment moved (each unset: the measured table's). */
const routingTableOf = (interactiveBytes: number | undefined, bloomBytes: number | undefined): readonly BandRow[] => {
  const table = interactiveBytes === undefined ? ROUTING_TABLE : withInteractiveLimit(interactiveBytes);
  return bloomBytes === undefined ? table : withBloomLimit(table, bloomBytes);
};

/** The routed query: DuckDB and polars answer in the request; Spark and bloom runs are submitted as the router planned them, with its run id. */
export const routedQueryDepsOf = (g: Groups): RoutedQueryDeps => {
  const spark: SparkSubmitter = { submit: (run, runId) => submitPlannedSparkRun(runDepsOf(g), run, runId) };
  const bloom: BloomSubmitter = { submit: (read, runId) => submitBloomRun(bloomRunDepsOf(g), read, runId) };
  const routingTable = routingTableOf(g.config().routingInteractiveLimitBytes, g.config().routingBloomLimitBytes);
  return builtOnFirstUse<RoutedQueryDeps>({
    orgs: () => g.platform().orgs,
    catalog: () => g.lake().catalog,
    storage: () => g.lake().storage,
    duckdb: () => g.lake().duckdb,
    engines: () => ({
      spark,
      polars: polarsEngineOf(g.polars().sandbox),
      // Only where bloom is configured (an Athena workgroup bound; Trino installed locally): else "not configured".
      ...(g.bloom().availability.configured ? { bloom } : {}),
    }),
    manifests: () => g.lake().manifests,
    lineage: () => g.platform().lineage,
    catalogKind: () => g.lake().catalogKind,
    routingTable: () => routingTable,
    warn: () => warn,
    newRunId: () => randomUUID,
  });
};

/** The polars endpoint; `destination` needs a lake writer that can read the sandbox's result files. */
export const polarsDepsOf = (g: Pick<Groups, 'platform' | 'lake' | 'polars'>): PolarsDeps =>
  builtOnFirstUse<PolarsDeps>({
    orgs: () => g.platform().orgs,
    catalog: () => g.lake().catalog,
    storage: () => g.lake().storage,
    sandbox: () => g.polars().sandbox,
    writer: () => (g.lake().hasWriter ? g.lake().writer : undefined),
  });

/** The lineage tables' scheduled upkeep. */
export const lineageTablesMaintenanceDepsOf = (g: Pick<Groups, 'platform' | 'lake'>): LineageTablesMaintenanceDeps =>
  builtOnFirstUse<LineageTablesMaintenanceDeps>({
    orgs: () => g.platform().orgs,
    tables: () => g.lake().lineageTables,
  });

/** The scheduled expiry of routed reads' results tables. */
export const resultsExpiryDepsOf = (g: Pick<Groups, 'platform' | 'lake'>): ResultsExpiryDeps =>
  builtOnFirstUse<ResultsExpiryDeps>({
    orgs: () => g.platform().orgs,
    catalog: () => g.lake().catalog,
    storage: () => g.lake().storage,
    writer: () => g.lake().writer,
  });
