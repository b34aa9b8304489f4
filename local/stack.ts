/**
 * @module stack
 * Starts the whole local profile in this process: the gateway on 127.0.0.1, the local DynamoDB as
 * a child process, the tables, and the demo organization with its API key. The same handlers and
 * adapters as in AWS run here; only configuration differs.
 */
import type http from 'node:http';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { parseApiKey } from '#domain/core/api-key';
import { createKey, createOrg } from '#domain/orgs/manage';
import { API_URL_ENV, DEMO_DATA_ENV, DEMO_LINEAGE_ENV, DYNAMODB_ENDPOINT_ENV, HOME_ENV, PROFILE_ENV, SESSION_SECRET_ENV } from '#composition/env-names';
import { logger } from '#shared/observability';
import { startLocalDynamo, type LocalDynamo } from './dynamo.ts';
import { createConsoleFiles } from './console-files.ts';
import { createGatewayListener, createGatewayServer, moduleHandlerLoader } from './gateway.ts';
import { readLocalInfo, sessionSecretFor, writeLocalInfo, type LocalInfo } from './home.ts';
import { recoverLocalRuns } from './runs-recovery.ts';
import { seedDemoLineage } from './demo-lineage.ts';

/** Options of {@link startLocalStack}. */
export interface LocalStackOptions {
  readonly home: string;
  readonly host?: string;
  /** 0 picks a free port. @default 8080 */
  readonly port?: number;
  /**
   * Called when a part the stack cannot serve without (the local store) failed for good; the
   * caller should exit non-zero, naming the reason.
   */
  readonly onFatal?: (reason: string) => void;
  /** The built console served at `/`. @default `web/dist` of this checkout */
  readonly consoleDir?: string;
}

/** Where `npm run build:web` puts the console. */
export const DEFAULT_CONSOLE_DIR = fileURLToPath(new URL('../web/dist', import.meta.url));

/** A running local stack. */
export interface LocalStack extends LocalInfo {
  readonly dynamodbEndpoint: string;
  stop(): Promise<void>;
}

/** The port is taken: the caller reports it and exits non-zero. */
export class PortInUseError extends Error {}

const listen = (server: http.Server, host: string, port: number): Promise<number> =>
  new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'EADDRINUSE' ? new PortInUseError(`port ${port} on ${host} is already in use; choose another with LAKELINE_PORT or --port`) : err),
    );
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });

/** Reuses the demo org and key from a previous run when they still work, else creates them. */
const seedDemo = async (home: string, baseUrl: string, endpoint: string): Promise<{ apiKey: string; orgId: string }> => {
  const { orgs, keys } = (await import('#composition/index')).platform();
  const previous = readLocalInfo(home);
  const parsed = previous ? parseApiKey(previous.apiKey) : undefined;
  if (previous && parsed) {
    const key = await keys.get(parsed.keyId);
    if (key && !key.revokedAt && (await orgs.get(previous.orgId))) return { apiKey: previous.apiKey, orgId: previous.orgId };
  }
  const org = await createOrg(orgs, { name: 'Demo', plan: 'pro', paymentMethod: true });
  const { token } = await createKey(orgs, keys, org.orgId, 'demo');
  writeLocalInfo(home, { baseUrl, apiKey: token, orgId: org.orgId, dynamodbEndpoint: endpoint });
  return { apiKey: token, orgId: org.orgId };
};

/** Loads TPC-H SF 0.01 into the demo org on first start (LAKELINE_DEMO_DATA=0 skips it). */
const loadDemoData = async (orgId: string): Promise<void> => {
  if (process.env[DEMO_DATA_ENV] === '0') return;
  const { catalog, writer } = (await import('#composition/index')).lake();
  if ((await catalog.listTables(orgId, 'tpch')).length >= 8) return;
  await writer.demoLoad(orgId, 0.01, 'tpch');
};

/**
 * Seeds the demo lineage history through the gateway, now listening (ADR 0044), on first start;
 * LAKELINE_DEMO_DATA=0 or LAKELINE_DEMO_LINEAGE=0 skips it. A failure is logged, not fatal: the
 * stack serves without its demo.
 */
const seedLineage = async (home: string, baseUrl: string, apiKey: string): Promise<void> => {
  if (process.env[DEMO_DATA_ENV] === '0' || process.env[DEMO_LINEAGE_ENV] === '0') return;
  try {
    await seedDemoLineage(home, baseUrl, apiKey);
  } catch (error) {
    logger.warn('seeding the demo lineage failed; the next start tries again', { error });
  }
};

/** How often the local stack drops expired results tables (in AWS: an hourly schedule). */
const RESULTS_EXPIRY_INTERVAL_MS = 3_600_000;

/**
 * Runs the scheduled results expiry (`functions/handlers/expire-results.ts`) every hour, as the
 * AWS schedule does; the first run comes an hour after start, so start-up stays fast.
 */
const startResultsExpiry = (): NodeJS.Timeout => {
  const timer = setInterval(() => {
    void import('#handlers/expire-results')
      .then(({ handler }) => handler())
      .catch((error: unknown) => logger.warn('results expiry failed; the next run tries again', { error }));
  }, RESULTS_EXPIRY_INTERVAL_MS);
  timer.unref();
  return timer;
};

/**
 * Runs the late-table check (`functions/handlers/check-freshness.ts`) on a timer, as the AWS
 * schedule does; one check at a time (a slow one is not overlapped by the next).
 */
const startFreshnessChecks = async (): Promise<NodeJS.Timeout> => {
  const { config } = await import('#composition/index');
  const current = config();
  const everyMs = current.profile === 'local' ? current.alerts.freshnessCheckMs : 60_000;
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    void import('#handlers/check-freshness')
      .then(({ handler }) => handler())
      .catch((error: unknown) => logger.warn('late-table check failed; the next run tries again', { error }))
      .finally(() => (running = false));
  }, everyMs);
  timer.unref();
  return timer;
};

/** Starts the local stack. The port is bound first, so a taken port fails before anything starts. */
export const startLocalStack = async (options: LocalStackOptions): Promise<LocalStack> => {
  const host = options.host ?? '127.0.0.1';
  const server = createGatewayServer();
  server.keepAliveTimeout = 65_000;
  const port = await listen(server, host, options.port ?? 8080);
  const baseUrl = `http://${host}:${port}`;
  let dynamo: LocalDynamo | undefined;
  try {
    dynamo = await startLocalDynamo(options.home, { onGiveUp: (reason) => options.onFatal?.(reason) });
    process.env[PROFILE_ENV] = 'local';
    process.env[HOME_ENV] = options.home;
    process.env[DYNAMODB_ENDPOINT_ENV] = dynamo.endpoint;
    process.env[SESSION_SECRET_ENV] = sessionSecretFor(options.home);
    // The MCP server's tools call the gateway itself (ADR 0048): at the address it listens on, never
    // one a request's Host header names.
    process.env[API_URL_ENV] = baseUrl;
    // Everything the composition root built belongs to a previous configuration (if any).
    (await import('#composition/index')).reconfigure();
    const { apiKey, orgId } = await seedDemo(options.home, baseUrl, dynamo.endpoint);
    await loadDemoData(orgId);
    // Before serving: runs a previous process left RUNNING are re-attached or ended.
    await recoverLocalRuns();
    // The event feed's subscribers (the lineage model first): events stored after each one's
    // watermark (a previous process may have died before applying them) are re-applied in the
    // background; new ones come as they are stored.
    const eventFeed = (await import('#composition/index')).feed().inProcess;
    void eventFeed?.start();
    // Alert deliveries: what a previous process left queued (a crash mid-delivery included) goes first.
    const deliveries = (await import('#composition/index')).notifications().worker;
    deliveries?.start();
    // LAKELINE_BLOOM=eager: the bloom engine's Trino server starts now rather than on first use.
    (await import('#composition/index')).bloom().warm();
    writeLocalInfo(options.home, { baseUrl, apiKey, orgId, dynamodbEndpoint: dynamo.endpoint, pid: process.pid });
    const consoleFiles = createConsoleFiles(options.consoleDir ?? DEFAULT_CONSOLE_DIR);
    if (!consoleFiles.built()) logger.warn('the console is not built: run `npm run build:web` to serve it at /');
    server.on('request', createGatewayListener(moduleHandlerLoader(), consoleFiles));
    const expiry = startResultsExpiry();
    const freshness = await startFreshnessChecks();
    await seedLineage(options.home, baseUrl, apiKey);
    const running = dynamo;
    return {
      baseUrl,
      apiKey,
      orgId,
      dynamodbEndpoint: running.endpoint,
      stop: async () => {
        clearInterval(expiry);
        clearInterval(freshness);
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await eventFeed?.stop();
        await deliveries?.stop();
        await running.stop();
        // The bloom engine's Trino server, when a bloom statement started one.
        await (await import('#composition/index')).bloom().stop();
        // The warm Spark driver, when a small write started one (per-run JVMs outlive the stack).
        (await import('#adapters/local/warm-spark')).stopWarmDrivers();
        // The store is gone: scripts must not find a stale endpoint.
        writeLocalInfo(options.home, { baseUrl, apiKey, orgId });
      },
    };
  } catch (err) {
    server.close();
    await dynamo?.stop();
    throw err;
  }
};
