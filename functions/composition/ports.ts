/**
 * @module ports
 * Every port the service's use cases are given, grouped by what they serve. A profile's root
 * (`aws.ts`, `local.ts`) builds each group from its adapters; `index.ts` picks the profile. The
 * groups are separate so each Lambda bundles only the adapters of the groups its handler reads (a
 * listing function carries no Glue, EMR or SQL parser), and every member is built on first use.
 */
import type { DuckDBQueryEngine } from '#adapters/duckdb/engine';
import type { BloomEngine } from '#domain/bloom/ports';
import type { Catalog, LakeStorage, LakeWriter, ScratchSpace } from '#domain/lake/ports';
import type { BlobStore, EventStore } from '#domain/lineage/ports';
import type { FanOutDeps } from '#adapters/aws/feed-fanout';
import type { InProcessFeed } from '#adapters/local/in-process-feed';
import type { FeedDirectory, FeedEvent } from '#domain/feed/ports';
import type { AlertDeps } from '#domain/alerts/deps';
import type { AlertMemory, AlertRuleStore, AlertStore, Clock } from '#domain/alerts/ports';
import type { AlertNotifier } from '#domain/notifications/ports';
import type { LineageModelStore, StoredEventSource } from '#domain/lineage-graph/ports';
import type { LineageTablesStore } from '#domain/lineage-tables/ports';
import type { CatalogKind } from '#domain/lineage-capture/datasets';
import type { LineageSink } from '#domain/lineage-capture/ports';
import type { KeyStore, OrgStore } from '#domain/orgs/ports';
import type { PolarsSandbox } from '#domain/polars/ports';
import type { AddressPolicy, HostResolver } from '#domain/notifications/address-policy';
import type { DeliveryQueue, DeliverySender, NotificationStore } from '#domain/notifications/deliveries';
import type { ManifestReader } from '#domain/routing/ports';
import type { OutcomeListener, RunStateReports, RunStore, SparkEngine, StartListener } from '#domain/runs/ports';
import type { AwsConfig, LocalConfig } from './config.ts';

/** Orgs, keys, sessions and lineage events: what every authenticated endpoint stands on. */
export interface PlatformPorts {
  readonly orgs: OrgStore;
  readonly keys: KeyStore;
  readonly events: EventStore;
  /** Lineage lakeline records for its own queries: the org's own event store. */
  readonly lineage: LineageSink;
  /** The key that signs session cookies (Secrets Manager in AWS, read once; the local stack's own). */
  sessionSecret(): Promise<string>;
}

/** What the platform tells others (the local profile's event feed); AWS reports through the table's stream instead. */
export interface PlatformHooks {
  /** Events the store newly stored, once the write committed; must return at once. */
  readonly onEventsStored: (orgId: string, events: readonly FeedEvent[]) => void;
}

/** The lineage read model: its store and the stored events it is derived from (the feed keeps it up to date). */
export interface LineageGraphPorts {
  readonly model: LineageModelStore;
  /** Every stored event of an org, for a rebuild. */
  readonly storedEvents: StoredEventSource;
  /** Where large event bodies live (the stream consumer reads them). */
  readonly blobs: BlobStore;
}

/**
 * The event feed (ADR 0045): the subscribers the profile's root lists, their marks and the feed's
 * head (health, replay), and locally the in-process feed that delivers to them.
 */
export interface FeedPorts {
  readonly directory: FeedDirectory;
  /** The in-process feed; `undefined` in AWS (the Events stream's fan-out delivers through a queue per subscriber). */
  readonly inProcess: InProcessFeed | undefined;
  /** The events of Events table keys, read consistently (a subscriber Lambda reads its queue's messages with it). */
  readonly byKeys: (keys: readonly string[]) => Promise<readonly FeedEvent[]>;
  /** AWS: what the stream's fan-out sends with (a queue per subscriber, the head); `undefined` locally. */
  readonly fanOut: FanOutDeps | undefined;
}

/** What the feed's subscribers are built on (the CLI gives the same from its own stores). */
export interface SubscriberSources {
  readonly lineageModel: () => LineageModelStore;
  /** The lineage lake tables (ADR 0056); absent where no lake writer is bound (their subscriber is then not listed). */
  readonly lineageTables?: (() => LineageTablesStore) | undefined;
  /** Alert evaluation's ports; absent where alerts are not evaluated (the CLI's replays of the lineage model). */
  readonly alerts?: () => AlertDeps;
}

/**
 * Alerts (issue 27): their store, rules and memory, the notifier each change is handed to, and the
 * clock of the late-table check.
 */
export interface AlertPorts {
  readonly alerts: AlertStore;
  readonly memory: AlertMemory;
  readonly rules: AlertRuleStore;
  /**
   * Where each alert change goes. The seam notifications (`domain/notifications`) plugs into:
   * locally a JSON-lines file in the home until then, in AWS the log.
   */
  readonly notifier: AlertNotifier;
  readonly clock: Clock;
}

/** The groups the feed's subscribers are built from. */
export interface FeedGroups {
  readonly platform: () => PlatformPorts;
  readonly lineageGraph: () => LineageGraphPorts;
  readonly alerts: () => AlertPorts;
}

/** The Iceberg lake: catalog, table files, the lake writer and the in-process DuckDB. */
export interface LakePorts {
  readonly catalog: Catalog;
  readonly storage: LakeStorage;
  /** The lake writer (pyiceberg); reading it where none is bound to the function throws, naming the setting. */
  readonly writer: LakeWriter;
  /** Whether a lake writer is bound to this function (the polars endpoint refuses `destination` without one). */
  readonly hasWriter: boolean;
  readonly duckdb: DuckDBQueryEngine;
  /** Reads manifests for the planned-files estimate of the routed endpoint. */
  readonly manifests: ManifestReader;
  /** Where autosave stages results; absent where the lake writer cannot read this function's files. */
  readonly scratch: ScratchSpace | undefined;
  /** The lineage lake tables, through the lake writer (ADR 0056). */
  readonly lineageTables: LineageTablesStore;
  /** How lineage names the catalog's datasets (`glue` or `jdbc`). */
  readonly catalogKind: CatalogKind;
}

/** Managed Spark: the run store, the engine, and how runs are metered. */
export interface SparkPorts {
  readonly runs: RunStore;
  /** Reading it where Spark cannot run (pyspark missing locally) throws a 503-mapped error. */
  readonly engine: SparkEngine;
  /** Whether the platform bills runs and reports it with each run's end (EMR), rather than the wall clock. */
  readonly meteredByPlatform: boolean;
  /** AWS: the engine's own reports of run state changes (EMR Serverless events); none locally. */
  readonly stateReports: RunStateReports | undefined;
}

/** What the local Spark engine reports back into the run use cases (AWS reports through events instead). */
export interface SparkHooks {
  readonly onOutcome: OutcomeListener;
  readonly onStarted: StartListener;
}

/** The polars sandbox. */
export interface PolarsPorts {
  readonly sandbox: PolarsSandbox & { warm?(): void };
}

/** Whether bloom is configured in this deployment, and if not, why (the capability error says it). */
export type BloomAvailability = { readonly configured: true } | { readonly configured: false; readonly why: string };

/** bloom, the distributed SQL engine: Athena in AWS, a local Trino server. */
export interface BloomPorts {
  readonly availability: BloomAvailability;
  /** Callers check {@link availability} first. */
  readonly engine: BloomEngine;
  /** Starts the engine's server now when the profile has one and is set to (local `LAKELINE_BLOOM=eager`). */
  warm(): void;
  /** Stops a server the engine started (the local stack's stop). */
  stop(): Promise<void>;
}

/**
 * Alert notifications (issue 27, ADR 0054): the destinations and the delivery log, the durable
 * queue (the local DynamoDB locally, SQS FIFO in AWS), the SSRF-guarded sender, and the notifier
 * the alerts side calls.
 */
export interface NotificationPorts {
  readonly store: NotificationStore;
  readonly queue: DeliveryQueue;
  readonly sender: DeliverySender;
  readonly resolver: HostResolver;
  /** Loopback destinations in the local profile only. */
  readonly policy: AddressPolicy;
  /** What alerts call for every change of an alert (`domain/notifications/ports.ts`). */
  readonly notifier: AlertNotifier;
  /** The local delivery worker (the local stack starts and stops it); `undefined` in AWS (the queue's Lambda delivers). */
  readonly worker: { start(): void; stop(): Promise<void> } | undefined;
  /** AWS: hides a received message for its retry's backoff; `undefined` locally. */
  readonly postpone: ((receiptHandle: string, seconds: number) => Promise<void>) | undefined;
}

/** Every port of the service. */
export interface Ports {
  readonly platform: PlatformPorts;
  readonly lake: LakePorts;
  readonly spark: SparkPorts;
  readonly polars: PolarsPorts;
  readonly bloom: BloomPorts;
  readonly lineageGraph: LineageGraphPorts;
  readonly feed: FeedPorts;
  readonly alerts: AlertPorts;
  readonly notifications: NotificationPorts;
}

/**
 * What a profile's root module exports: one builder per group (as separate functions, not one
 * object, so a bundle keeps only the builders its handler reaches).
 */
export interface ProfileRoot<C> {
  platform(config: C, hooks: PlatformHooks): PlatformPorts;
  lake(config: C): LakePorts;
  spark(config: C, hooks: SparkHooks): SparkPorts;
  polars(config: C): PolarsPorts;
  bloom(config: C): BloomPorts;
  lineageGraph(config: C, platform: () => PlatformPorts): LineageGraphPorts;
  feed(config: C, groups: FeedGroups): FeedPorts;
  alerts(config: C, notifier: () => AlertNotifier): AlertPorts;
  notifications(config: C): NotificationPorts;
}

/** The profile roots' shapes, checked at compile time only. */
export type AwsRoot = ProfileRoot<AwsConfig>;
export type LocalRoot = ProfileRoot<LocalConfig>;
