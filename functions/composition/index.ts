/**
 * @module composition
 * The composition root handlers ask for their ports and use cases. It reads the configuration
 * once per cold start and picks the profile's root (`aws.ts` or `local.ts`): the only place in
 * `functions/` that looks at the profile. Everything is built on first use and never twice; each
 * export is its own lazily built value, so a Lambda bundle keeps only the roots' builders that its
 * handler reaches (the `@__PURE__` marks let esbuild drop the rest).
 */
import type { Authorizer } from '#domain/auth/authorize';
import type { BloomRunDeps } from '#domain/bloom/runs';
import type { PolarsDeps } from '#domain/polars/run-polars';
import type { LegacyQueryDeps } from '#domain/query/legacy-query';
import type { RoutedQueryDeps } from '#domain/query/routed-query';
import type { RunDeps } from '#domain/runs/deps';
import type { ReadRunDeps } from '#domain/runs/read';
import type { ResultsExpiryDeps } from '#domain/runs/results-expiry';
import type { LineageTablesMaintenanceDeps } from '#domain/lineage-tables/maintenance';
import { guardPorts } from '#adapters/transient-errors';
import * as aws from './aws.ts';
import { configureObservability, logger } from '#shared/observability';
import { apiUrlOf, loadConfig, type AwsConfig, type Config, type LocalConfig } from './config.ts';
import { httpLakelineApi } from '#adapters/http/lakeline-api';
import type { LakelineApi } from '#shared/mcp/ports';
import { forgetBuilt, lazily, lazilyUntilFailed } from './lazy.ts';
import * as local from './local.ts';
import type { AlertDeps } from '#domain/alerts/deps';
import type { AlertNotifier } from '#domain/notifications/ports';
import type { AlertPorts, AwsRoot, BloomPorts, FeedPorts, LakePorts, LineageGraphPorts, LocalRoot, NotificationPorts, PlatformHooks, PlatformPorts, PolarsPorts, SparkPorts } from './ports.ts';
import { authorizerOf, bloomRunDepsOf, readRunDepsOf, legacyQueryDepsOf, polarsDepsOf, resultsExpiryDepsOf, lineageTablesMaintenanceDepsOf, routedQueryDepsOf, runDepsOf, sparkHooksOf } from './use-cases.ts';

// Compile-time only: each profile's module exports a builder for every group.
type Satisfies<T, _U extends T> = true;
export type RootsAreComplete = [Satisfies<AwsRoot, typeof aws>, Satisfies<LocalRoot, typeof local>];

/** The configuration of this process, read from its environment on first use. */
export const config = /* @__PURE__ */ lazily((): Config => {
  const loaded = loadConfig(process.env);
  // The logger never reads the environment: its level is pushed in here, once per cold start.
  configureObservability({ logLevel: loaded.logLevel });
  return loaded;
});

/**
 * The public API as the caller of a request to `/mcp` (ADR 0048): their `Authorization` header,
 * forwarded to the API's base URL. Built per request: each carries its own caller.
 */
export const lakelineApiFor = (authorization: string, requestHost: string): LakelineApi => httpLakelineApi({ baseUrl: apiUrlOf(requestHost), authorization });

/** Builds a group with the builder of the profile this process runs. */
const byProfile =
  <T>(forAws: (c: AwsConfig) => T, forLocal: (c: LocalConfig) => T) =>
  (): T => {
    const current = config();
    return current.profile === 'aws' ? forAws(current) : forLocal(current);
  };

/** Locally, newly stored events go to the in-process event feed; in AWS the table's stream feeds the fan-out Lambda. */
const localPlatformHooks: PlatformHooks = {
  onEventsStored: (orgId, events) => feed().inProcess?.notify(orgId, events),
};
const awsPlatformHooks: PlatformHooks = { onEventsStored: () => undefined };

/** Orgs, keys, sessions, lineage events. */
export const platform = /* @__PURE__ */ lazily((): PlatformPorts =>
  guardPorts(
    byProfile(
      (c) => aws.platform(c, awsPlatformHooks),
      (c) => local.platform(c, localPlatformHooks),
    )(),
  ),
);
/** The lineage read model. */
export const lineageGraph = /* @__PURE__ */ lazily((): LineageGraphPorts =>
  guardPorts(
    byProfile(
      (c) => aws.lineageGraph(c, platform),
      (c) => local.lineageGraph(c, platform),
    )(),
  ),
);
/** The event feed and its subscribers (locally, the in-process feed that delivers to them). */
export const feed = /* @__PURE__ */ lazily((): FeedPorts =>
  byProfile(
    (c) => aws.feed(c, { platform, lineageGraph, alerts }),
    (c) => local.feed(c, { platform, lineageGraph, alerts }),
  )(),
);
/** Alerts: their store, rules, memory, notifier and clock. */
export const alerts = /* @__PURE__ */ lazily((): AlertPorts =>
  guardPorts(
    byProfile(
      (c) => aws.alerts(c, alertNotifier),
      (c) => local.alerts(c, alertNotifier),
    )(),
  ),
);
/** The alert use cases' ports (the lineage model gives blast radii). */
export const alertDeps = /* @__PURE__ */ lazily((): AlertDeps => ({ ...alerts(), lineage: lineageGraph().model }));
/** The Iceberg lake and DuckDB. */
export const lake = /* @__PURE__ */ lazily((): LakePorts => guardPorts(byProfile(aws.lake, local.lake)()));
/** The run store and the Spark engine (whose local runs report into the run use cases). */
export const spark = /* @__PURE__ */ lazily((): SparkPorts =>
  guardPorts(
    byProfile(
      (c) => aws.spark(c, sparkHooksOf(runDeps)),
      (c) => local.spark(c, sparkHooksOf(runDeps)),
    )(),
  ),
);
/** The polars sandbox. */
export const polars = /* @__PURE__ */ lazily((): PolarsPorts => guardPorts(byProfile(aws.polars, local.polars)()));
/** bloom, the distributed SQL engine. */
export const bloom = /* @__PURE__ */ lazily((): BloomPorts => guardPorts(byProfile(aws.bloom, local.bloom)()));

/** Alert notifications: destinations, the delivery log, the durable queue, the sender (ADR 0054). */
export const notifications = /* @__PURE__ */ lazily((): NotificationPorts => guardPorts(byProfile(aws.notifications, local.notifications)()));
/** What the alerts side calls for every change of an alert: queues one delivery per destination of the org. */
export const alertNotifier = (): AlertNotifier => notifications().notifier;

// Every group's ports raise passing infrastructure failures as TransientError (a 503), see guardPorts.

// Each use case is handed only the groups it reads, so its handler's bundle carries only those.

/** The authorizer use case (a failed secret read is tried again by the next request). */
export const authorizer = /* @__PURE__ */ lazilyUntilFailed((): Promise<Authorizer> => authorizerOf({ config, platform }));
/** The run use cases. */
export const runDeps = /* @__PURE__ */ lazily((): RunDeps => runDepsOf({ platform, lake, spark }));
/** Bloom runs. */
export const bloomRunDeps = /* @__PURE__ */ lazily((): BloomRunDeps => bloomRunDepsOf({ platform, lake, spark, bloom }));
/** Reading a run (a view over the run store, the bloom poller and the router's DuckDB; each built on first use). */
export const readRunDeps = /* @__PURE__ */ lazily((): ReadRunDeps => readRunDepsOf({ platform, lake, spark, bloom }));
/** The legacy warehouse query. */
export const legacyQueryDeps = /* @__PURE__ */ lazily((): LegacyQueryDeps => legacyQueryDepsOf({ config, platform, lake }));
/** The routed query. */
export const routedQueryDeps = /* @__PURE__ */ lazily((): RoutedQueryDeps => routedQueryDepsOf({ config, platform, lake, spark, polars, bloom }));
/** The polars endpoint. */
export const polarsDeps = /* @__PURE__ */ lazily((): PolarsDeps => polarsDepsOf({ platform, lake, polars }));
/** The results-table expiry. */
export const resultsExpiryDeps = /* @__PURE__ */ lazily((): ResultsExpiryDeps => resultsExpiryDepsOf({ platform, lake }));
/** The lineage tables' scheduled upkeep (run with the results expiry). */
export const lineageTablesMaintenanceDeps = /* @__PURE__ */ lazily((): LineageTablesMaintenanceDeps => lineageTablesMaintenanceDepsOf({ platform, lake }));

/** Starts preparing DuckDB's first instance during a cold start (query handlers call it at init). */
export const warmQueryEngine = (): void => {
  try {
    lake().duckdb.warm();
  } catch (err) {
    // A misconfiguration surfaces on the first request, with the request's error handling.
    logger.warn('query engine not warmed', { error: err });
  }
};

/** Starts the first polars sandbox worker during a cold start (local); errors surface on the first request. */
export const warmPolarsSandbox = (): void => {
  try {
    polars().sandbox.warm?.();
  } catch {
    // As above: the first request reports it.
  }
};

/**
 * Forgets the configuration and everything built from it: the local stack calls this after it
 * sets the environment of a (re)started stack in the same process.
 */
export const reconfigure = (): void => forgetBuilt();
