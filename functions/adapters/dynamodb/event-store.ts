/**
 * @module event-store
 * EventStore on DynamoDB. Writes are idempotent by key (`<org>#<event id>`, the id being a hash
 * of the event's content); bodies too large for an item go to the blob store first. Listing reads
 * thin index entries only (sharded GSIs merged in order, see event-query.ts and sorted-merge.ts),
 * then fetches the page's items with BatchGetItem, reading further entries in place of any whose
 * item is missing. Nothing ever scans the table.
 */
import { PutItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { BlobStore, EventListQuery, EventPage, EventRecord, EventStore, PutManyOutcome, PutOutcome } from '#domain/lineage/ports';
import type { StoredLineageEvent } from '#domain/lineage/types';
import { isTransientInfrastructureError } from '#adapters/transient-errors';
import { batchGetAll, batchPutAll, mapConcurrent } from './batch-ops.ts';
import { MARSHALL_OPTIONS } from './clients.ts';
import { BODY_ATTRIBUTES, blobKeyOf, decodeEvent, encodeEvent, eventPk, paddedSize, type EncodedEvent } from './event-item.ts';
import { listingKey, planQuery, resumePlan, usesNameDirectory, type QueryPlan } from './event-query.ts';
import { ListingContinuations } from './listing-continuations.ts';
import { NameDirectory, type DirectoryJob } from './name-directory.ts';
import { evenSizing, mergeSorted, type PagedSource } from './sorted-merge.ts';

/** Partitions counted at once by {@link DynamoEventStore.count}. */
const COUNT_CONCURRENCY = 8;

/** One index entry as the merge sees it. */
interface Entry {
  readonly pk: string;
  /** The value the page is ordered by (unique: it ends with the event id). */
  readonly sort: string;
}

/** Options of {@link DynamoEventStore}. */
export interface DynamoEventStoreOptions {
  /** Raw bodies at least this long are gzip-compressed. @default COMPRESS_MIN_BYTES */
  readonly compressMinBytes?: number;
  /** BatchWriteItem requests in flight per batch. @default 4 */
  readonly writeConcurrency?: number;
  /** Write the local lineage feed's receipt-index attributes (the local profile; AWS has the stream). @default false */
  readonly feed?: boolean;
  /**
   * A plain client to the same DynamoDB, made with `cacheMiddleware` (clients.ts), for the PutItem
   * of a single event: the per-request path the document client makes slowest. @default the document client
   */
  readonly putClient?: DynamoDBClient;
}

const CONDITIONAL_CHECK_FAILED = 'ConditionalCheckFailedException';
const STORE_UNAVAILABLE = 'Server error: the store is unavailable; retry later';

/** DynamoDB-backed {@link EventStore}. */
export class DynamoEventStore implements EventStore {
  private readonly compressMinBytes: number | undefined;
  private readonly writeConcurrency: number;
  private readonly feed: boolean;
  private readonly putClient: DynamoDBClient | undefined;
  private readonly names: NameDirectory;
  private readonly continuations = new ListingContinuations();

  /**
   * @param doc - the document client
   * @param tableName - the Events table (`EVENTS_TABLE`)
   * @param blobs - the blob store, resolved only when a large body is written or read (functions
   *   never handling large bodies need no bucket)
   */
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly blobs: () => BlobStore,
    options: DynamoEventStoreOptions = {},
  ) {
    this.compressMinBytes = options.compressMinBytes;
    this.writeConcurrency = options.writeConcurrency ?? 4;
    this.feed = options.feed ?? false;
    this.putClient = options.putClient;
    this.names = new NameDirectory(doc, tableName);
  }

  async put(orgId: string, record: EventRecord): Promise<PutOutcome> {
    // The job is in the name directory before any event of it is (listing relies on that).
    await this.names.record(orgId, jobsOf([record]));
    return this.putEncoded(this.encode(orgId, record));
  }

  async putMany(orgId: string, records: readonly EventRecord[]): Promise<PutManyOutcome[]> {
    try {
      await this.names.record(orgId, jobsOf(records));
    } catch (err) {
      if (!isTransientInfrastructureError(err)) throw err;
      return records.map(() => ({ ok: false, reason: STORE_UNAVAILABLE, retriable: true }));
    }
    const encoded = records.map((record) => this.encode(orgId, record));
    // The same event twice in one batch is written once; every copy gets that write's outcome.
    const firstOf = new Map<string, number>();
    encoded.forEach((e, i) => {
      if (!firstOf.has(pkOf(e))) firstOf.set(pkOf(e), i);
    });
    const unique = [...firstOf.values()];
    const outcomes = new Map<number, PutManyOutcome>();

    // Large bodies go one by one: blob first, then a conditional put (see putEncoded).
    const large = unique.filter((i) => encoded[i]?.blob !== undefined);
    await mapConcurrent(large, this.writeConcurrency, async (i) => {
      outcomes.set(i, await this.settle(() => this.putEncoded(encoded[i] as EncodedEvent)));
    });

    // Small ones go by BatchWriteItem, which cannot carry a condition: the events already stored
    // are looked up first and left alone, so a resent event keeps its first received_at.
    const small = unique.filter((i) => encoded[i]?.blob === undefined);
    if (small.length > 0) {
      let existing: Map<string, unknown>;
      try {
        existing = await batchGetAll(this.doc, this.tableName, 'pk', small.map((i) => ({ pk: pkOf(encoded[i] as EncodedEvent) })), ['pk']);
      } catch (err) {
        if (!isTransientInfrastructureError(err)) throw err;
        for (const i of small) outcomes.set(i, { ok: false, reason: STORE_UNAVAILABLE, retriable: true });
        existing = new Map();
      }
      const toWrite = small.filter((i) => !outcomes.has(i) && !existing.has(pkOf(encoded[i] as EncodedEvent)));
      for (const i of small) if (existing.has(pkOf(encoded[i] as EncodedEvent))) outcomes.set(i, { ok: true, outcome: 'duplicate' });
      const written = await batchPutAll(this.doc, this.tableName, 'pk', toWrite.map((i) => (encoded[i] as EncodedEvent).item), this.writeConcurrency);
      written.forEach((result, j) => {
        outcomes.set(toWrite[j] as number, result.ok ? { ok: true, outcome: 'stored' } : { ok: false, reason: result.reason, retriable: true });
      });
    }

    return encoded.map((e, i) => {
      const first = firstOf.get(pkOf(e)) as number;
      const outcome = outcomes.get(first) as PutManyOutcome;
      return first === i || !outcome.ok ? outcome : { ok: true, outcome: 'duplicate' };
    });
  }

  async list(orgId: string, query: EventListQuery): Promise<EventPage> {
    const plan = planQuery(orgId, query, usesNameDirectory(query) ? await this.names.read(orgId) : undefined);
    if (plan === undefined) return { events: [] };
    const entries = plan.sortBySizeInMemory ? this.sizeOrderCursor(plan, query) : this.mergedCursor(orgId, plan, query);

    // An index entry can be read before its item is (a write in flight; locally, an entry a killed
    // store wrote without its item until start-up repair removes it; in DynamoDB, an item deleted
    // before its index follows). Such an entry is skipped and the page filled from further entries:
    // a page holds `limit` events unless the listing ends.
    const items: Record<string, unknown>[] = [];
    let last: Entry | undefined;
    while (items.length < query.limit) {
      const wanted = query.limit - items.length;
      const batch = await entries(wanted);
      if (batch.length === 0) break;
      const found = await batchGetAll(this.doc, this.tableName, 'pk', batch.map((e) => ({ pk: e.pk })), BODY_ATTRIBUTES);
      for (const entry of batch) {
        const item = found.get(entry.pk);
        if (item !== undefined) items.push(item);
      }
      last = batch.at(-1);
      if (batch.length < wanted) break;
    }
    // The next page resumes after the last entry this page consumed, skipped ones included, so an
    // event is neither repeated nor skipped by the page that follows.
    if (!plan.sortBySizeInMemory && last !== undefined && items.length === query.limit) this.continuations.remember(listingKey(orgId, query), query.offset + query.limit, last.sort);

    const events: StoredLineageEvent[] = await Promise.all(
      items.map(async (item) => {
        const key = blobKeyOf(item);
        // An answer: numbers as the producer wrote them (`0.0` stays `0.0`).
        return decodeEvent(item, key === undefined ? undefined : await this.blobs().get(key), 'as-sent');
      }),
    );
    return { events };
  }

  async count(orgId: string, query: EventListQuery): Promise<number> {
    const plan = planQuery(orgId, query, usesNameDirectory(query) ? await this.names.read(orgId) : undefined);
    if (plan === undefined) return 0;
    // `Select: COUNT` over each partition, in parallel: DynamoDB reads the entries (1 MB a page)
    // and answers only how many matched the filter.
    const counts = await mapConcurrent(plan.partitions, COUNT_CONCURRENCY, async (partition) => {
      let total = 0;
      let startKey: Record<string, unknown> | undefined;
      do {
        const out = await this.doc.send(new QueryCommand({ ...this.partitionQuery(plan, partition, plan.names, startKey), Select: 'COUNT' }));
        total += out.Count ?? 0;
        startKey = out.LastEvaluatedKey;
      } while (startKey !== undefined);
      return total;
    });
    return counts.reduce((a, b) => a + b, 0);
  }

  /**
   * The entries of a merged listing from `offset` on, `wanted` at a time: the first call continues
   * from where the previous page of the same listing ended when that is known (see
   * listing-continuations.ts), else takes the first `offset + wanted` entries of the merge and
   * drops the first `offset`; later calls resume after the last entry handed out.
   */
  private mergedCursor(orgId: string, plan: QueryPlan, query: EventListQuery): (wanted: number) => Promise<Entry[]> {
    let after = query.offset > 0 ? this.continuations.find(listingKey(orgId, query), query.offset) : undefined;
    let first = true;
    return async (wanted) => {
      const page =
        first && after === undefined
          ? (await this.mergePartitions(orgId, plan, query.offset + wanted)).slice(query.offset)
          : after === undefined
            ? []
            : await this.mergePartitions(orgId, resumePlan(plan, after), wanted, after);
      first = false;
      after = page.at(-1)?.sort ?? after;
      return page;
    };
  }

  /** The entries of a size-ordered listing (read whole and sorted in memory) from `offset` on, `wanted` at a time. */
  private sizeOrderCursor(plan: QueryPlan, query: EventListQuery): (wanted: number) => Promise<Entry[]> {
    let sorted: Promise<Entry[]> | undefined;
    let at = query.offset;
    return async (wanted) => {
      sorted ??= this.readAllBySize(plan, query.order === 'ASC');
      const page = (await sorted).slice(at, at + wanted);
      at += page.length;
      return page;
    };
  }

  private encode(orgId: string, record: EventRecord): EncodedEvent {
    return encodeEvent(orgId, record, this.compressMinBytes, this.feed);
  }

  /** Writes one encoded event: its blob first (so an item never points at a missing blob), then the item, unless present. */
  private async putEncoded(encoded: EncodedEvent): Promise<PutOutcome> {
    if (encoded.blob !== undefined) {
      // A resend of a large event must not upload megabytes again; a race past this check only
      // writes a blob under another key (the key includes a hash of the text), never a wrong one.
      if (await this.exists(pkOf(encoded))) return 'duplicate';
      await this.blobs().put(encoded.blob.key, encoded.blob.body);
    }
    const condition = 'attribute_not_exists(pk)';
    try {
      if (this.putClient === undefined) await this.doc.send(new PutCommand({ TableName: this.tableName, Item: encoded.item, ConditionExpression: condition }));
      else await this.putClient.send(new PutItemCommand({ TableName: this.tableName, Item: marshall(encoded.item, MARSHALL_OPTIONS), ConditionExpression: condition }));
      return 'stored';
    } catch (err) {
      if ((err as { name?: string }).name === CONDITIONAL_CHECK_FAILED) return 'duplicate';
      throw err;
    }
  }

  private async exists(pk: string): Promise<boolean> {
    const out = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: { pk }, ProjectionExpression: 'pk', ConsistentRead: true }));
    return out.Item !== undefined;
  }

  /** Runs a write for putMany: transient store trouble becomes a retriable failure of that event. */
  private async settle(write: () => Promise<PutOutcome>): Promise<PutManyOutcome> {
    try {
      return { ok: true, outcome: await write() };
    } catch (err) {
      if (!isTransientInfrastructureError(err)) throw err;
      return { ok: false, reason: STORE_UNAVAILABLE, retriable: true };
    }
  }

  /**
   * The first `wanted` entries of the plan's partitions, merged in order. Only the sort key is
   * read: it ends with the event id, from which the item's key follows.
   * @param after - a continuation: the entry with this sort key (where the plan starts) is skipped
   */
  private async mergePartitions(orgId: string, plan: QueryPlan, wanted: number, after?: string): Promise<Entry[]> {
    const pkOfSort = (sort: string) => eventPk(orgId, sort.slice(sort.lastIndexOf('#') + 1));
    const sources = plan.partitions.map((partition) =>
      this.partitionSource(plan, partition, [plan.sortAttribute], (item) => {
        const sort = String(item[plan.sortAttribute]);
        return sort === after ? undefined : { pk: pkOfSort(sort), sort };
      }),
    );
    const compare = plan.forward ? (a: Entry, b: Entry) => compareText(a.sort, b.sort) : (a: Entry, b: Entry) => compareText(b.sort, a.sort);
    return mergeSorted(sources, compare, wanted, evenSizing(wanted, sources.length, plan.filtered));
  }

  /** Every matching entry of the plan's (single) partition, ordered by size, then time, then id. */
  private async readAllBySize(plan: QueryPlan, ascending: boolean): Promise<Entry[]> {
    const entries: Entry[] = [];
    for (const partition of plan.partitions) {
      const source = this.partitionSource(plan, partition, ['pk', 'timeKey', 'sizeBytes'], (item) => ({ pk: String(item.pk), sort: `${paddedSize(Number(item.sizeBytes))}#${String(item.timeKey)}` }));
      for (let done = false; !done; ) {
        const page = await source(1_000);
        entries.push(...page.items);
        done = page.done;
      }
    }
    return entries.sort((a, b) => (ascending ? compareText(a.sort, b.sort) : compareText(b.sort, a.sort)));
  }

  /** The Query of one partition of the plan's index, from `startKey` on. */
  private partitionQuery(plan: QueryPlan, partition: string, names: Record<string, string>, startKey: Record<string, unknown> | undefined): QueryCommandInput {
    return {
      TableName: this.tableName,
      IndexName: plan.indexName,
      KeyConditionExpression: plan.keyCondition,
      ...(plan.filterExpression === undefined ? {} : { FilterExpression: plan.filterExpression }),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ...plan.values, ':p': partition },
      ...(startKey === undefined ? {} : { ExclusiveStartKey: startKey }),
    };
  }

  /**
   * A paged Query over one partition of the plan's index, reading only the attributes the merge
   * needs; `entryOf` turns an index entry into a merge entry (or drops it).
   */
  private partitionSource(plan: QueryPlan, partition: string, attributes: readonly string[], entryOf: (item: Record<string, unknown>) => Entry | undefined): PagedSource<Entry> {
    let startKey: Record<string, unknown> | undefined;
    const names: Record<string, string> = { ...plan.names };
    const projected = attributes.map((name, i) => {
      names[`#a${i}`] = name;
      return `#a${i}`;
    });
    return async (limit) => {
      const out = await this.doc.send(
        new QueryCommand({ ...this.partitionQuery(plan, partition, names, startKey), ProjectionExpression: projected.join(', '), ScanIndexForward: plan.forward, Limit: limit }),
      );
      startKey = out.LastEvaluatedKey;
      const items = (out.Items ?? []).flatMap((item) => entryOf(item) ?? []);
      return { items, done: startKey === undefined, examined: out.ScannedCount ?? items.length };
    };
  }
}

const pkOf = (encoded: EncodedEvent): string => String(encoded.item.pk);

/** The jobs the records name (folded), for the name directory; DatasetEvents name none. */
const jobsOf = (records: readonly EventRecord[]): DirectoryJob[] =>
  records.flatMap(({ event }) => (event.job_name === null || event.job_namespace === null ? [] : [{ namespace: event.jobNamespaceFolded, job: event.jobNameFolded }]));

/** Code-unit order, the order DynamoDB sorts string keys in (keys here are ASCII). */
const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
