/**
 * @module container-bloom
 * The composition root of the bloom engine: Amazon Athena in AWS (configured when the bloom
 * workgroup is bound to the function), the local Trino server in the local profile (configured
 * when it is installed — `scripts/setup.mjs` — and a JDK 24+ is found; `LAKELINE_BLOOM=0` turns it
 * off). The local server starts on the first bloom statement and stops with the stack
 * ({@link stopLocalBloom}). Bloom runs use the run use cases' dependencies plus the engine.
 */
import { AthenaClient } from '@aws-sdk/client-athena';
import path from 'node:path';
import { AthenaBloomEngine } from '#adapters/aws/athena-bloom';
import { TrinoBloomEngine } from '#adapters/trino/bloom-engine';
import { findTrinoJava } from '#adapters/trino/java';
import { LocalTrinoServer, trinoInstalled } from '#adapters/trino/server';
import type { BloomEngine } from '#domain/bloom/ports';
import { refreshBloomRun, type BloomRunDeps } from '#domain/bloom/runs';
import type { RunDeps } from '#domain/runs/deps';
import type { ReadRunDeps } from '#domain/runs/read';
import type { Run } from '#domain/runs/run';
import { BLOOM_ENV, BLOOM_WORKGROUP_ENV, TRINO_HEAP_ENV, TRINO_HOME_ENV } from './bloom-env.ts';
import { getConfig, REPO_ROOT } from './config.ts';
import { queryEngine } from './container-lake.ts';
import { runDeps } from './container-runs.ts';
import { once } from './once.ts';

/** The Trino release scripts/setup.mjs installs. */
export const TRINO_VERSION = '476';

const trinoHome = (): string => process.env[TRINO_HOME_ENV] ?? path.join(REPO_ROOT, '.lakeline', 'trino', `trino-server-${TRINO_VERSION}`);

/** Whether bloom is configured in this deployment, and if not, why (for the capability error). */
export const bloomAvailability = once((): { readonly configured: true } | { readonly configured: false; readonly why: string } => {
  const config = getConfig();
  if (config.profile === 'aws') return process.env[BLOOM_WORKGROUP_ENV] ? { configured: true } : { configured: false, why: 'no Athena workgroup is bound to this function' };
  if (process.env[BLOOM_ENV] === '0') return { configured: false, why: `${BLOOM_ENV}=0 turned it off` };
  if (!trinoInstalled(trinoHome())) return { configured: false, why: `Trino is not installed at ${trinoHome()} (run node scripts/setup.mjs)` };
  if (!findTrinoJava()) return { configured: false, why: 'no JDK 24 or newer was found for Trino (set LAKELINE_TRINO_JAVA_HOME)' };
  return { configured: true };
});

let server: Promise<LocalTrinoServer> | undefined;

/** The local Trino server, started on first use (and again if it died). */
const localServer = async (): Promise<LocalTrinoServer> => {
  const current = server ? await server.catch(() => undefined) : undefined;
  if (current?.running) return current;
  const config = getConfig();
  server = LocalTrinoServer.start({
    installDir: trinoHome(),
    javaHome: findTrinoJava() as string,
    stateDir: path.join(config.home, 'trino'),
    heapMb: Number(process.env[TRINO_HEAP_ENV] ?? 2048),
  });
  return server;
};

/**
 * Starts the local Trino server now, in the background, when bloom is configured and
 * `LAKELINE_BLOOM=eager` (the local stack calls this at start; otherwise the server starts on the
 * first bloom statement). A server that fails to start is reported then, to that statement.
 */
export const warmLocalBloom = (): void => {
  if (getConfig().profile !== 'local' || process.env[BLOOM_ENV] !== 'eager' || !bloomAvailability().configured) return;
  void localServer().catch(() => undefined);
};

/** Stops the local Trino server, when one was started (the local stack's stop). */
export const stopLocalBloom = async (): Promise<void> => {
  const running = server;
  server = undefined;
  await (await running?.catch(() => undefined))?.stop();
};

/** The bloom engine of this deployment. Callers check {@link bloomAvailability} first. */
export const bloomEngine = once((): BloomEngine => {
  const config = getConfig();
  if (config.profile === 'aws') {
    return new AthenaBloomEngine(new AthenaClient({}), { workGroup: process.env[BLOOM_WORKGROUP_ENV] as string, warehouseUri: config.lake.warehouse as string });
  }
  return new TrinoBloomEngine(localServer, { catalogFile: config.lake.catalogFile as string, warehouse: config.lake.warehouse as string }, TRINO_VERSION);
});

/**
 * The run use cases' dependencies with the bloom engine. A view over `runDeps()` (its members stay
 * lazy); bloom is metered by the wall clock in both profiles (Athena bills by bytes scanned, not
 * per run as EMR does), so `meteredByPlatform` is false here.
 */
export const bloomRunDeps = once(
  (): BloomRunDeps =>
    Object.create(runDeps(), {
      bloom: { get: () => bloomEngine() },
      meteredByPlatform: { value: false },
    }) as RunDeps & BloomRunDeps,
);

/**
 * What reading a run needs (`GET /api/v1/runs/{run_id}`): a view over `runDeps()` (its members stay
 * lazy: a run read from the store alone builds no bloom engine and no DuckDB).
 */
export const readRunDeps = once(
  (): ReadRunDeps =>
    Object.create(runDeps(), {
      bloom: { value: { refresh: (run: Run) => refreshBloomRun(bloomRunDeps(), run) } },
      duckdb: { get: () => queryEngine() },
    }) as ReadRunDeps,
);
