/**
 * @module local
 * The local profile's wiring, top to bottom: the same DynamoDB adapters on the local DynamoDB
 * (dynalite), event bodies in `<home>/blobs`, the SQLite Iceberg catalog and the warehouse
 * directory, the lake writer as a subprocess, DuckDB, Spark as supervised `spark-submit`
 * processes, polars in bubblewrap-confined workers, and bloom on a Trino server of its own
 * (started on first use).
 */
import path from 'node:path';
import { DirectoryBlobStore } from '#adapters/blob/directory-blob-store';
import { DuckDBQueryEngine } from '#adapters/duckdb/engine';
import { DuckDBManifestReader } from '#adapters/duckdb/manifest-reader';
import { TempDirectoryScratch } from '#adapters/duckdb/result-scratch';
import { createDocumentClient, localDynamoClient } from '#adapters/dynamodb/clients';
import { DynamoEventFeed, DynamoStoredEventSource, eventsOf } from '#adapters/dynamodb/event-feed';
import { DynamoEventStore } from '#adapters/dynamodb/event-store';
import { DynamoAlertStore, ruleStoreOf } from '#adapters/dynamodb/alert-store';
import { FileAlertNotifier } from '#adapters/local/file-alert-notifier';
import { fileClock } from '#adapters/clock';
import { DynamoKeyStore } from '#adapters/dynamodb/key-store';
import { DynamoFeedWatermarks, feedMarkKeys } from '#adapters/dynamodb/lineage-feed-watermarks';
import { DynamoLineageModelStore } from '#adapters/dynamodb/lineage-model-store';
import { DynamoOrgStore } from '#adapters/dynamodb/org-store';
import { DynamoRunStore } from '#adapters/dynamodb/run-store';
import { DynamoLocalDeliveryQueue } from '#adapters/dynamodb/local-delivery-queue';
import { DynamoNotificationStore } from '#adapters/dynamodb/notification-store';
import { GuardedWebhookSender, systemResolver } from '#adapters/http/webhook-sender';
import { LocalDeliveryWorker } from '#adapters/local/delivery-worker';
import { FsLakeStorage } from '#adapters/local/fs-lake-storage';
import { InProcessFeed, notifyingEventStore } from '#adapters/local/in-process-feed';
import { BwrapPolarsPool } from '#adapters/local/polars-pool';
import { LocalSparkEngine } from '#adapters/local/spark-submit';
import { SqliteCatalog } from '#adapters/local/sqlite-catalog';
import { SubscriberQueue } from '#adapters/local/subscriber-queue';
import { SubprocessLakeWriter } from '#adapters/local/subprocess-lake-writer';
import { TrinoBloomEngine } from '#adapters/trino/bloom-engine';
import { findTrinoJava } from '#adapters/trino/java';
import { LocalTrinoServer, trinoInstalled } from '#adapters/trino/server';
import { ServiceUnavailableError } from '#domain/errors';
import { EventStoreLineageSink } from '#domain/lineage-capture/event-store-sink';
import { millisOfMark } from '#domain/feed/marks';
import type { AddressPolicy } from '#domain/notifications/address-policy';
import { attemptDelivery } from '#domain/notifications/deliver';
import { QueueingNotifier } from '#domain/notifications/notifier';
import { logger } from '#shared/observability';
import { ALERTS_TABLE, EVENTS_TABLE, KEYS_TABLE, LINEAGE_TABLE, NOTIFICATIONS_TABLE, ORGS_TABLE, RUNS_TABLE } from '#shared/table-definitions';
import { REPO_ROOT, tableName, TRINO_VERSION, type LocalConfig } from './config.ts';
import { SESSION_SECRET_ENV } from './env-names.ts';
import { builtOnFirstUse, lazily } from './lazy.ts';
import { feedSubscribers } from './subscribers.ts';
import { LakeWriterLineageTables } from '#domain/lineage-tables/lake-writer-store';
import { LINEAGE_TABLES_BATCHING, LINEAGE_TABLES_SUBSCRIBER } from '#domain/lineage-tables/feed-subscriber';
import type { AlertNotifier } from '#domain/notifications/ports';
import type { AlertPorts, BloomAvailability, BloomPorts, FeedGroups, FeedPorts, LakePorts, LineageGraphPorts, NotificationPorts, PlatformHooks, PlatformPorts, PolarsPorts, SparkHooks, SparkPorts } from './ports.ts';

/** One value per local store endpoint, made on first use and shared by the groups. */
const perEndpoint = <T>(make: (endpoint: string) => T) => {
  const made = new Map<string, T>();
  return (config: LocalConfig): T => {
    let value = made.get(config.dynamodbEndpoint);
    if (value === undefined) made.set(config.dynamodbEndpoint, (value = make(config.dynamodbEndpoint)));
    return value;
  };
};
const documents = /* @__PURE__ */ perEndpoint((endpoint) => createDocumentClient(localDynamoClient(endpoint)));
/** For single-event writes (`cacheMiddleware`; adapters/dynamodb/clients.ts). */
const putClient = /* @__PURE__ */ perEndpoint((endpoint) => localDynamoClient(endpoint, { cacheMiddleware: true }));

/** Large event bodies in `<home>/blobs`. */
const eventBlobs = (config: LocalConfig) => lazily(() => new DirectoryBlobStore(path.join(config.home, 'blobs')));

/**
 * Orgs, keys, sessions and events on the local DynamoDB; large event bodies in `<home>/blobs`.
 * Events are written with the feed's receipt keys, and each newly stored event is handed to the
 * in-process event feed once its write committed (`hooks`).
 */
export const platform = (config: LocalConfig, hooks: PlatformHooks): PlatformPorts => {
  const events = lazily(() =>
    notifyingEventStore(new DynamoEventStore(documents(config), tableName(config, EVENTS_TABLE), eventBlobs(config), { feed: true, putClient: putClient(config) }), hooks.onEventsStored),
  );
  return builtOnFirstUse<PlatformPorts>({
    orgs: () => new DynamoOrgStore(documents(config), tableName(config, ORGS_TABLE)),
    keys: () => new DynamoKeyStore(documents(config), tableName(config, KEYS_TABLE)),
    events,
    lineage: () => new EventStoreLineageSink(events()),
    sessionSecret: () => async () => {
      if (!config.sessionSecret) throw new Error(`configuration: ${SESSION_SECRET_ENV} is not set (the local stack sets it)`);
      return config.sessionSecret;
    },
  });
};

/** The lineage read model on the local DynamoDB, kept up to date by the in-process feed (ADR 0031, ADR 0045). */
export const lineageGraph = (config: LocalConfig, _platform: () => PlatformPorts): LineageGraphPorts => {
  const blobs = eventBlobs(config);
  return builtOnFirstUse<LineageGraphPorts>({
    model: () => new DynamoLineageModelStore(documents(config), tableName(config, LINEAGE_TABLE)),
    storedEvents: () => new DynamoStoredEventSource(documents(config), tableName(config, EVENTS_TABLE), blobs),
    blobs,
  });
};

/**
 * The event feed in this process: the Events table's receipt index is the stored order (and its
 * last entry the head), each subscriber's marks live in the Lineage table's META partitions.
 */
export const feed = (config: LocalConfig, groups: FeedGroups): FeedPorts => {
  const events = lazily(() => new DynamoEventFeed(documents(config), tableName(config, EVENTS_TABLE), eventBlobs(config)));
  const marks = (sortKey: string) => new DynamoFeedWatermarks(documents(config), tableName(config, LINEAGE_TABLE), sortKey);
  const lineageTables = lazily(() => new LakeWriterLineageTables(new SubprocessLakeWriter(config.lake.pythonBin, REPO_ROOT, config.home)));
  const subscribers = lazily(() => feedSubscribers({ lineageModel: () => groups.lineageGraph().model, alerts: () => ({ ...groups.alerts(), lineage: groups.lineageGraph().model }), lineageTables }, { onLineageExported: (orgId, outcome) => logger.debug('lineage tables exported', { orgId, ...outcome }) }));
  return builtOnFirstUse<FeedPorts>({
    directory: () => ({ subscribers: subscribers(), head: events(), applied: (name) => marks(feedMarkKeys.applied(name)), events: events() }),
    inProcess: () =>
      new InProcessFeed(
        subscribers().map(
          (subscriber) =>
            new SubscriberQueue(
              {
                subscriber,
                feed: events(),
                watermarks: marks(feedMarkKeys.watermark(subscriber.name)),
                applied: marks(feedMarkKeys.applied(subscriber.name)),
                orgIds: async () => (await groups.platform().orgs.list()).map((org) => org.orgId),
                warn: (message, fields) => logger.warn(message, fields),
                onApplied: (orgId, events, high) => logApplied(subscriber.name, orgId, events, high),
              },
              // Each lineage tables batch is a commit: events gather first (ADR 0056).
              subscriber.name === LINEAGE_TABLES_SUBSCRIBER ? LINEAGE_TABLES_BATCHING : {},
            ),
        ),
      ),
    byKeys: () => (keys) => eventsOf(documents(config), tableName(config, EVENTS_TABLE), eventBlobs(config), keys, true),
    fanOut: () => undefined,
  });
};

/**
 * Alerts on the local DynamoDB. Each change is queued for the org's destinations (`notifier`, the
 * notifications' queue) and then appended to `<home>/alert-notices.jsonl`, a log one can follow;
 * the clock is a file's instant when `LAKELINE_CLOCK_FILE` is set.
 */
export const alerts = (config: LocalConfig, notifier: () => AlertNotifier): AlertPorts => {
  const store = lazily(() => new DynamoAlertStore(documents(config), tableName(config, ALERTS_TABLE)));
  return builtOnFirstUse<AlertPorts>({
    alerts: store,
    memory: store,
    rules: () => ruleStoreOf(store()),
    notifier: () => {
      const log = new FileAlertNotifier(path.join(config.home, 'alert-notices.jsonl'));
      return {
        // Queued first: the log says a notice went out only once its deliveries are durable.
        notify: async (notice) => {
          await notifier().notify(notice);
          await log.notify(notice);
        },
      };
    },
    clock: () => fileClock(config.alerts.clockFile),
  });
};

/**
 * A subscriber's lag in the logs: each batch it applied, and how long after its newest event was
 * stored; at info once past the 2 s in which an acknowledged event is in the graph, else at debug
 * (a busy local stack applies several batches a second).
 */
const logApplied = (subscriber: string, orgId: string, events: number, high: string): void => {
  const lagMs = Date.now() - millisOfMark(high);
  (lagMs > 2_000 ? logger.info : logger.debug)('feed batch applied', { subscriber, orgId, events, lagMs });
};

/** The SQLite catalog, the warehouse directory, the lake writer subprocess and DuckDB. */
export const lake = (config: LocalConfig): LakePorts =>
  builtOnFirstUse<LakePorts>({
    catalog: () => new SqliteCatalog(config.lake.catalogFile, config.lake.duckdbExtensionDir),
    storage: () => new FsLakeStorage(),
    writer: () => new SubprocessLakeWriter(config.lake.pythonBin, REPO_ROOT, config.home),
    lineageTables: () => new LakeWriterLineageTables(new SubprocessLakeWriter(config.lake.pythonBin, REPO_ROOT, config.home)),
    hasWriter: () => true,
    duckdb: () => new DuckDBQueryEngine({ extensionDir: config.lake.duckdbExtensionDir }),
    manifests: () => new DuckDBManifestReader({ extensionDir: config.lake.duckdbExtensionDir }),
    // The lake writer runs on this machine and reads autosave's staged files from a temporary directory.
    scratch: () => new TempDirectoryScratch(),
    catalogKind: () => 'jdbc',
  });

/**
 * Runs on the local DynamoDB; Spark as `spark-submit` processes the engine supervises itself,
 * reporting starts and ends straight into the run use cases (`hooks`). Usage is the wall clock.
 */
export const spark = (config: LocalConfig, hooks: SparkHooks): SparkPorts =>
  builtOnFirstUse<SparkPorts>({
    runs: () => new DynamoRunStore(documents(config), tableName(config, RUNS_TABLE)),
    engine: () => {
      try {
        return new LocalSparkEngine({
          home: config.home,
          catalogFile: config.lake.catalogFile,
          warehouse: config.lake.warehouse,
          pythonBin: config.lake.pythonBin,
          repoRoot: REPO_ROOT,
          ...config.spark,
          onOutcome: hooks.onOutcome,
          onStarted: hooks.onStarted,
          log: (message, fields) => logger.warn(message, fields),
        });
      } catch (err) {
        // pyspark or the jars are missing: the caller can do nothing about it, but may retry later.
        throw new ServiceUnavailableError(`Managed Spark is not available on this machine: ${(err as Error).message}`, { cause: err });
      }
    },
    meteredByPlatform: () => false,
    stateReports: () => undefined,
  });

/** Warm bubblewrap-confined polars workers. */
export const polars = (config: LocalConfig): PolarsPorts =>
  builtOnFirstUse<PolarsPorts>({
    sandbox: () =>
      new BwrapPolarsPool({
        pythonBin: config.lake.pythonBin,
        codeDir: path.join(REPO_ROOT, 'functions', 'polars'),
        warehouse: config.lake.warehouse,
        stateDir: path.join(config.home, 'polars'),
        ...config.polars,
      }),
  });

/** Whether the local bloom engine can run here, and if not, why. */
const bloomAvailability = (config: LocalConfig): BloomAvailability => {
  if (config.bloom.mode === 'off') return { configured: false, why: 'LAKELINE_BLOOM=0 turned it off' };
  if (!trinoInstalled(config.bloom.trinoHome)) return { configured: false, why: `Trino is not installed at ${config.bloom.trinoHome} (run node scripts/setup.mjs)` };
  if (!findTrinoJava(config.bloom.javaSearch)) return { configured: false, why: 'no JDK 24 or newer was found for Trino (set LAKELINE_TRINO_JAVA_HOME)' };
  return { configured: true };
};

/** bloom on a local Trino server: started on the first bloom statement (or with the stack when eager), again if it died. */
export const bloom = (config: LocalConfig): BloomPorts => {
  let server: Promise<LocalTrinoServer> | undefined;
  const running = async (): Promise<LocalTrinoServer> => {
    const current = server ? await server.catch(() => undefined) : undefined;
    if (current?.running) return current;
    server = LocalTrinoServer.start({
      installDir: config.bloom.trinoHome,
      javaHome: findTrinoJava(config.bloom.javaSearch) as string,
      stateDir: path.join(config.home, 'trino'),
      heapMb: config.bloom.heapMb,
    });
    return server;
  };
  const availability = lazily(() => bloomAvailability(config));
  return builtOnFirstUse<BloomPorts>({
    availability,
    engine: () => new TrinoBloomEngine(running, { catalogFile: config.lake.catalogFile, warehouse: config.lake.warehouse }, TRINO_VERSION),
    // Members that are functions: each builder returns the function.
    warm: () => () => {
      // A server that fails to start is reported to the first bloom statement.
      if (config.bloom.mode === 'eager' && availability().configured) void running().catch(() => undefined);
    },
    stop: () => async () => {
      const started = server;
      server = undefined;
      await (await started?.catch(() => undefined))?.stop();
    },
  });
};

/** The local profile lets destinations be loopback (how one tries webhooks on one machine), nothing else private. */
const LOCAL_ADDRESS_POLICY: AddressPolicy = { allowLoopback: true };

/**
 * Alert notifications on the local DynamoDB: destinations, the delivery log and the durable queue
 * in the Notifications table, delivered by a worker in this process (ADR 0054).
 */
export const notifications = (config: LocalConfig): NotificationPorts => {
  const store = lazily(() => new DynamoNotificationStore(documents(config), tableName(config, NOTIFICATIONS_TABLE)));
  const queue = lazily(() => new DynamoLocalDeliveryQueue(documents(config), tableName(config, NOTIFICATIONS_TABLE)));
  const sender = lazily(() => new GuardedWebhookSender(LOCAL_ADDRESS_POLICY, systemResolver));
  const now = () => new Date();
  return builtOnFirstUse<NotificationPorts>({
    store,
    queue,
    sender,
    resolver: () => systemResolver,
    policy: () => LOCAL_ADDRESS_POLICY,
    notifier: () => new QueueingNotifier({ store: store(), queue: queue(), now }),
    worker: () =>
      new LocalDeliveryWorker({
        queue: queue(),
        attempt: (item) => attemptDelivery({ store: store(), sender: sender(), now }, item),
        warn: (message, fields) => logger.warn(message, fields),
      }),
    postpone: () => undefined,
  });
};
