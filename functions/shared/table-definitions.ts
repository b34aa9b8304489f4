/**
 * @module table-definitions
 * The one source of truth for every DynamoDB table: keys, GSIs and TTL. `lib/data.ts` turns these
 * into CDK tables; the local profile creates the same tables in dynalite from the same objects.
 */

/** DynamoDB attribute types used in keys. */
export type KeyType = 'S' | 'N';

/** One key attribute. */
export interface KeyAttribute {
  readonly name: string;
  readonly type: KeyType;
}

/** A global secondary index. */
export interface IndexDefinition {
  readonly indexName: string;
  readonly partitionKey: KeyAttribute;
  readonly sortKey?: KeyAttribute;
  /** `KEYS_ONLY`, `ALL`, or the list of non-key attributes to project (`INCLUDE`). */
  readonly projection: 'KEYS_ONLY' | 'ALL' | readonly string[];
}

/** A table, independent of how it is created. */
export interface TableDefinition {
  /** Logical id: the CDK construct id and the env var stem. */
  readonly id: string;
  readonly partitionKey: KeyAttribute;
  readonly sortKey?: KeyAttribute;
  readonly indexes: readonly IndexDefinition[];
  /** Attribute holding an epoch-seconds expiry, when items expire. */
  readonly ttlAttribute?: string;
  /** Environment variable carrying the deployed table name into functions. */
  readonly envName: string;
  /** A DynamoDB stream of the table's changes, and what its records carry (AWS only: dynalite has no streams). */
  readonly stream?: 'NEW_IMAGE';
}

/** Organizations: plan, payment method, credit limit and metered usage. */
export const ORGS_TABLE: TableDefinition = {
  id: 'Orgs',
  partitionKey: { name: 'orgId', type: 'S' },
  indexes: [],
  envName: 'LAKELINE_ORGS_TABLE',
};

/** API keys: only a hash of each secret is stored. */
export const KEYS_TABLE: TableDefinition = {
  id: 'ApiKeys',
  partitionKey: { name: 'keyId', type: 'S' },
  indexes: [
    {
      indexName: 'byOrg',
      partitionKey: { name: 'orgId', type: 'S' },
      sortKey: { name: 'createdAt', type: 'S' },
      projection: 'ALL',
    },
  ],
  envName: 'LAKELINE_KEYS_TABLE',
};

/**
 * Lineage events. The base table is addressed by event id (idempotent puts); listing goes through
 * sharded GSIs (see docs/adr/0010-event-keys-sharding-and-listing.md). The attribute names here are the key names
 * the event store writes.
 */
export const EVENTS_TABLE: TableDefinition = {
  id: 'Events',
  partitionKey: { name: 'pk', type: 'S' },
  indexes: [
    {
      indexName: 'byTime',
      partitionKey: { name: 'shardKey', type: 'S' },
      sortKey: { name: 'timeKey', type: 'S' },
      projection: ['eventTime', 'sizeBytes', 'runState', 'jobLc', 'namespaceLc', 'integrationLc', 'runId'],
    },
    {
      indexName: 'bySize',
      partitionKey: { name: 'shardKey', type: 'S' },
      sortKey: { name: 'sizeKey', type: 'S' },
      projection: ['eventTime', 'timeKey', 'runState', 'jobLc', 'namespaceLc', 'integrationLc', 'runId'],
    },
    {
      indexName: 'byState',
      partitionKey: { name: 'stateKey', type: 'S' },
      sortKey: { name: 'timeKey', type: 'S' },
      projection: ['eventTime', 'sizeBytes', 'runState', 'jobLc', 'namespaceLc', 'integrationLc', 'runId'],
    },
    {
      indexName: 'byRun',
      partitionKey: { name: 'runKey', type: 'S' },
      sortKey: { name: 'timeKey', type: 'S' },
      projection: ['eventTime', 'sizeBytes', 'runState', 'jobLc', 'namespaceLc', 'integrationLc', 'runId'],
    },
    // A listing filtered by job name or job namespace reads only the matching names' events (the
    // names come from the org's name directory; docs/adr/0010-event-keys-sharding-and-listing.md):
    // the job index by job name, the namespace index by namespace; the other filters apply to the
    // projected attributes.
    {
      indexName: 'byJob',
      partitionKey: { name: 'jobKey', type: 'S' },
      sortKey: { name: 'timeKey', type: 'S' },
      projection: ['eventTime', 'sizeBytes', 'runState', 'jobLc', 'namespaceLc', 'integrationLc', 'runId'],
    },
    {
      indexName: 'byNamespace',
      partitionKey: { name: 'namespaceKey', type: 'S' },
      sortKey: { name: 'timeKey', type: 'S' },
      projection: ['eventTime', 'sizeBytes', 'runState', 'jobLc', 'namespaceLc', 'integrationLc', 'runId'],
    },
    // The local lineage feed (docs/adr/0031-lineage-read-model.md): an org's events in the order
    // they were stored, read after the feed's watermark when the local consumer starts. Sparse and
    // written by the local profile only; in AWS the table's stream is the feed and this stays empty.
    {
      indexName: 'byReceipt',
      partitionKey: { name: 'feedKey', type: 'S' },
      sortKey: { name: 'receivedKey', type: 'S' },
      projection: 'KEYS_ONLY',
    },
  ],
  envName: 'LAKELINE_EVENTS_TABLE',
  // The lineage model's consumer Lambda reads every new event from it (ADR 0031).
  stream: 'NEW_IMAGE',
};

/** Runs of every engine (spark, bloom, routed batch runs). */
export const RUNS_TABLE: TableDefinition = {
  id: 'Runs',
  partitionKey: { name: 'runId', type: 'S' },
  indexes: [
    {
      indexName: 'byOrg',
      partitionKey: { name: 'orgId', type: 'S' },
      sortKey: { name: 'createdAt', type: 'S' },
      projection: 'ALL',
    },
  ],
  ttlAttribute: 'expiresAt',
  envName: 'LAKELINE_RUNS_TABLE',
};

/**
 * The lineage read model (jobs, datasets, runs and their links, per org), derived from the stored
 * events: single-table design, every key starting with `<orgId>#<generation>#` (see
 * `adapters/dynamodb/lineage-items.ts` for the item types). The one index serves the per-process
 * search cache: job and dataset names by shard, ordered by when their searchable fields changed.
 */
export const LINEAGE_TABLE: TableDefinition = {
  id: 'Lineage',
  partitionKey: { name: 'pk', type: 'S' },
  sortKey: { name: 'sk', type: 'S' },
  indexes: [
    {
      indexName: 'search',
      partitionKey: { name: 'gsp', type: 'S' },
      sortKey: { name: 'gss', type: 'S' },
      projection: ['st', 'sn', 'sm', 'su', 'sa'],
    },
  ],
  // Only the change log readers' caches follow carries it (entries live a day).
  ttlAttribute: 'expiresAt',
  envName: 'LAKELINE_LINEAGE_TABLE',
};

/**
 * Alerts (issue 27, ADR 0052): an org's alerts, their open pointers and rules, and what alert
 * evaluation remembers (events seen, run starts, job figures, dataset writes), each in a partition
 * of its own per org (`adapters/dynamodb/alert-store.ts`).
 */
export const ALERTS_TABLE: TableDefinition = {
  id: 'Alerts',
  partitionKey: { name: 'pk', type: 'S' },
  sortKey: { name: 'sk', type: 'S' },
  indexes: [],
  // Events seen and run starts are remembered for 30 days.
  ttlAttribute: 'expiresAt',
  envName: 'LAKELINE_ALERTS_TABLE',
};

/**
 * Alert notifications (issue 27, ADR 0054): each org's destinations (webhooks, Slack), the delivery
 * log (one item per delivery, listed newest first through `byTime`) and, in the local profile
 * only, the durable delivery queue (partition `QUEUE`; SQS is the queue in AWS). See
 * `adapters/dynamodb/notification-store.ts` for the item types.
 */
export const NOTIFICATIONS_TABLE: TableDefinition = {
  id: 'Notifications',
  partitionKey: { name: 'pk', type: 'S' },
  sortKey: { name: 'sk', type: 'S' },
  indexes: [
    {
      indexName: 'byTime',
      partitionKey: { name: 'gpk', type: 'S' },
      sortKey: { name: 'gsk', type: 'S' },
      projection: 'ALL',
    },
  ],
  envName: 'LAKELINE_NOTIFICATIONS_TABLE',
};

/** Every table the service uses. */
export const ALL_TABLES: readonly TableDefinition[] = [ORGS_TABLE, KEYS_TABLE, EVENTS_TABLE, RUNS_TABLE, LINEAGE_TABLE, ALERTS_TABLE, NOTIFICATIONS_TABLE];

/** Table access a function needs. */
export type TableAccess = 'RO' | 'RW';
