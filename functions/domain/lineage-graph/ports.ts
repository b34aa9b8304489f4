/**
 * @module lineage-graph/ports
 * The ports of the lineage read model: where the model of an organization lives
 * ({@link LineageModelStore}, implemented on DynamoDB by `adapters/dynamodb/lineage-model-store.ts`)
 * and where a rebuild reads the stored events from ({@link StoredEventSource}). The model has two
 * halves: what readers read ({@link LineageModelReader}) and what the appliers write
 * ({@link LineageModelWriter}); each use case depends on the half it uses.
 *
 * Writes are compare-and-set on a revision (`put*(record, expectedRev)` answers `null` when the
 * record changed since it was read), so consumers running at the same time converge: the use cases
 * re-read and re-merge on a conflict. Grow-only sets are added to atomically.
 */
import type { QualifiedName } from './ids.ts';
import type { ModelEvent } from './merge.ts';
import type {
  DatasetColumnLineage,
  DatasetLinks,
  DatasetNode,
  DatasetRecord,
  DatasetSetName,
  JobHeadLinks,
  JobHeadRecord,
  NamespaceRecord,
  OrderEntry,
  RunRecord,
  SearchEntry,
} from './records.ts';

/** A record with the store revision it was read at. */
export interface Versioned<T> {
  readonly value: T;
  readonly rev: number;
}

/** Members to add to one of a dataset name's grow-only sets. */
export interface DatasetSetAdd extends QualifiedName {
  readonly datasetId: string;
  readonly set: DatasetSetName;
  readonly members: readonly string[];
}

/** A small entry that orders or links records: kept apart so that it is never read-modify-written. */
export type IndexEntry =
  /** A run's place in its job's history; `static` for a JobEvent's version (not a run). */
  | { readonly kind: 'run-order'; readonly jobId: string; readonly ord: string; readonly static?: true }
  /** A version's place in its dataset name's history (the run that wrote it). */
  | { readonly kind: 'version-order'; readonly datasetId: string; readonly ord: string }
  /** A run that named another as its parent. */
  | { readonly kind: 'child'; readonly parentRunId: string; readonly childRunId: string; readonly parentJob: QualifiedName };

/** A page request: `limit` entries after skipping `offset`. */
export interface Page {
  readonly limit: number;
  readonly offset: number;
}

/** Newest-first order entries, optionally below a bound. */
export interface OrderQuery {
  /** Only entries whose `ord` is strictly below this. */
  readonly before?: string;
  /** Leave out JobEvent versions (run-order entries marked `static`). */
  readonly runsOnly?: boolean;
  readonly limit: number;
  readonly offset?: number;
}

/** A page of ids and how many there are in all. */
export interface IdPage {
  readonly ids: readonly string[];
  readonly total: number;
}

/**
 * What the readers (graph, objects, search, column lineage) read of one organization's lineage
 * model in one generation. The model readers get may lag writes by moments. Every key the store
 * reads is scoped to the organization.
 */
export interface LineageModelReader {
  getRuns(runIds: readonly string[]): Promise<Map<string, Versioned<RunRecord>>>;
  getJobHeads(jobIds: readonly string[]): Promise<Map<string, Versioned<JobHeadRecord>>>;
  /** The part of job heads a graph traversal needs. */
  getJobLinks(jobIds: readonly string[]): Promise<Map<string, JobHeadLinks>>;

  /** Dataset names that have a record (an event named them). */
  getDatasets(datasetIds: readonly string[]): Promise<Map<string, Versioned<DatasetRecord>>>;
  /** Links of dataset names, including names known only as another's symlink target. */
  getDatasetLinks(datasetIds: readonly string[]): Promise<Map<string, DatasetLinks>>;
  /** Links plus the record, without its `columnLineage` facet (what a graph shows of a dataset). */
  getDatasetNodes(datasetIds: readonly string[]): Promise<Map<string, DatasetNode>>;
  /** Links plus the `columnLineage` and `schema` facets. */
  getDatasetColumnLineage(datasetIds: readonly string[]): Promise<Map<string, DatasetColumnLineage>>;

  /** A job's run-order entries, newest first. */
  listRunOrder(jobId: string, query: OrderQuery): Promise<OrderEntry[]>;
  countRunOrder(jobId: string, runsOnly: boolean): Promise<number>;
  /** A dataset name's version-order entries, newest first. */
  listVersionOrder(datasetId: string, query: OrderQuery): Promise<OrderEntry[]>;
  countVersionOrder(datasetId: string): Promise<number>;
  listChildren(parentRunId: string): Promise<Array<{ readonly runId: string; readonly parentJob: QualifiedName }>>;

  getNamespaces(names: readonly string[]): Promise<Map<string, Versioned<NamespaceRecord>>>;
  listNamespaces(page: Page): Promise<{ readonly namespaces: readonly NamespaceRecord[]; readonly total: number }>;
  /** The org's tag names, by name. */
  listTags(page: Page): Promise<{ readonly tags: readonly string[]; readonly total: number }>;
  /** A namespace's jobs by name. */
  listJobs(namespace: string, page: Page): Promise<IdPage>;
  /** A namespace's dataset names by name, aliased names left out. */
  listDatasets(namespace: string, page: Page): Promise<IdPage>;

  /** Every searchable name of the organization (the adapter may serve it from a cache kept fresh incrementally). */
  searchEntries(): Promise<readonly SearchEntry[]>;
}

/**
 * What the appliers (`apply.ts`, a rebuild) do to one organization's lineage model in one
 * generation: the versioned reads a merge starts from, read strongly consistently
 * (compare-and-set needs the latest revision), and the writes — puts, grow-only sets, index
 * entries, listings — and the change notice for readers' caches.
 */
export interface LineageModelWriter extends Pick<LineageModelReader, 'getRuns' | 'getJobHeads' | 'getDatasets' | 'getNamespaces' | 'listRunOrder'> {
  /** Writes a run if its revision is still `expectedRev` (`null`: it must not exist); the new revision, or `null` on a conflict. */
  putRun(run: RunRecord, expectedRev: number | null): Promise<number | null>;
  putJobHead(head: JobHeadRecord, expectedRev: number | null): Promise<number | null>;
  /**
   * Writes a dataset name's record if its revision is still `expectedRev`, and adds `setAdds` (of
   * this dataset's sets) in the same write: both or neither, so a batch that changes a record and
   * its sets costs one request. On a conflict nothing is added.
   */
  putDataset(record: DatasetRecord, expectedRev: number | null, setAdds?: readonly DatasetSetAdd[]): Promise<number | null>;
  /** Adds members to grow-only sets (creating a link-only entry for a name never seen in an event). */
  addToDatasetSets(adds: readonly DatasetSetAdd[]): Promise<void>;

  /** The entries of `entries` not stored yet. */
  findMissingEntries(entries: readonly IndexEntry[]): Promise<IndexEntry[]>;
  putEntries(entries: readonly IndexEntry[]): Promise<void>;
  deleteEntries(entries: readonly IndexEntry[]): Promise<void>;

  putNamespace(record: NamespaceRecord, expectedRev: number | null): Promise<number | null>;
  /** Of these tag names, those already listed. */
  getTags(names: readonly string[]): Promise<Set<string>>;
  /** Lists tag names (idempotent; the list only grows). */
  putTags(names: readonly string[]): Promise<void>;
  /** Lists jobs in their namespaces (idempotent; batched: a batch of new jobs costs a request per 25). */
  putJobListings(jobs: readonly (QualifiedName & { readonly jobId: string })[]): Promise<void>;
  /** Lists a dataset name in its namespace; `aliased` hides it (it resolves to another name). Idempotent; `aliased` only ever turns on. */
  putDatasetListing(dataset: QualifiedName & { readonly datasetId: string; readonly aliased: boolean }): Promise<void>;

  /**
   * Tells readers that the job heads and dataset names this model read or wrote since the last
   * call may have changed, so caches of them drop those (the adapter caches what graphs read).
   * Consumers call it once a batch is applied, after its writes.
   */
  publishChanges(): Promise<void>;
}

/** One organization's lineage model in one generation, both halves (what an adapter implements). */
export type LineageModel = LineageModelReader & LineageModelWriter;

/** Where the readers get an organization's lineage model. */
export interface LineageModelReads {
  /** The model readers use (its reads may lag writes by moments). */
  model(orgId: string): Promise<LineageModelReader>;
}

/** Where the appliers get the models to write, and how a rebuild swaps generations. */
export interface LineageModelWrites {
  /** The models a consumer must apply events to: the current one, and the one a rebuild is filling. */
  modelsToWrite(orgId: string): Promise<LineageModelWriter[]>;
  /**
   * Starts a rebuild: a new, empty generation that consumers write to from now on, alongside the
   * current one (so no event stored during the rebuild is lost).
   */
  beginRebuild(orgId: string): Promise<{ readonly generation: number; readonly model: LineageModelWriter }>;
  /** Makes the rebuilt generation the one readers use and deletes the previous one. */
  commitRebuild(orgId: string, generation: number): Promise<void>;
}

/** Where the lineage models of every organization live: both halves, for the composition and the consumers. */
export interface LineageModelStore extends LineageModelReads, LineageModelWrites {}

/** Port: the stored events of an organization, for rebuilds. Any order; every stored event once. */
export interface StoredEventSource {
  events(orgId: string): AsyncIterable<readonly ModelEvent[]>;
}

/** A stored event as the feed carries it: what the model reads, and when it was stored. */
export type FeedEvent = ModelEvent & { readonly received_at: string };

/**
 * Port: an organization's stored events in the order they were stored — the local profile's feed
 * (in AWS the Events table's stream delivers them instead). A position in it is a mark
 * (`feedMarkOf`): events stored at the same microsecond are ordered by id.
 */
export interface EventFeed {
  /** The org's events whose mark is above `mark` (`''`: all of them), in batches of at most `batchSize`, in stored order. */
  after(orgId: string, mark: string, batchSize: number): AsyncIterable<readonly FeedEvent[]>;
}

/** Port: the local consumer's durable watermark per organization (every event stored below it is in the model). */
export interface FeedWatermarks {
  /** The org's watermark; `undefined` when none was ever written (the consumer then starts from the first event). */
  read(orgId: string): Promise<string | undefined>;
  /** Moves the org's watermark up to `mark`; never down (a lower mark is ignored). */
  advance(orgId: string, mark: string): Promise<void>;
}
