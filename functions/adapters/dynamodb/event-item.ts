/**
 * @module event-item
 * How one lineage event is laid out in the Events table (see docs/adr/0010-event-keys-sharding-and-listing.md):
 * its base key, the keys of the six listing indexes, the small filter attributes they project,
 * and the body — the stored event's derived fields as JSON text plus the raw JSON text exactly as
 * received, gzip-compressed above a threshold, and moved to the blob store when the item would
 * not fit DynamoDB's 400 KB item limit.
 */
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { toPublicEvent } from '#domain/lineage/derive';
import { foldForSearch } from '#domain/lineage/search-fold';
import type { EventRecord } from '#domain/lineage/ports';
import type { StoredLineageEvent } from '#domain/lineage/types';

/**
 * Write shards per org on the time, size and state indexes. Every index partition key carries a
 * shard (hash of the event id mod this), so one busy org's writes spread over this many partition
 * key values instead of one (a partition key value takes about 1,000 writes/s); listing reads
 * this many partitions and merges them. Changing it re-keys every stored event: a constant.
 */
export const SHARD_COUNT = 8;

/** Raw bodies at least this long (bytes of UTF-8) are stored gzip-compressed. Measured: docs/benchmarks.md#store-options-benchlineage-store-optionsts (why: docs/adr/0011-large-events-and-object-storage.md). */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * Largest item written inline. DynamoDB refuses items above 400 KB (409,600 bytes, names included);
 * the margin covers the estimate's rounding of numbers and attribute overhead.
 */
export const MAX_INLINE_ITEM_BYTES = 350 * 1024;

/**
 * gzip level of stored bodies. Level 1 costs half of level 6's CPU on 16–50 KB events for bodies
 * about 15% larger (bench/lineage-store-options.ts); the CPU is on every request's path.
 */
export const GZIP_LEVEL = 1;

/** Digits of the zero-padded size in `sizeKey`: enough for any body below 1 TB. */
const SIZE_WIDTH = 12;

/**
 * Partitions per job name on the job index: a busy job spreads its writes over this many partition
 * key values, and a listing filtered to one job name merges this many partitions.
 */
export const JOB_BUCKETS = 2;

/**
 * Partitions per namespace on the namespace index: a namespace can hold most of an org's events
 * (one Airflow instance, one Spark cluster), so it is spread like the org itself ({@link SHARD_COUNT}).
 */
export const NAMESPACE_BUCKETS = SHARD_COUNT;

/** Index names of the Events table (`EVENTS_TABLE`). */
export const EVENT_INDEXES = { byTime: 'byTime', bySize: 'bySize', byState: 'byState', byRun: 'byRun', byJob: 'byJob', byNamespace: 'byNamespace', byReceipt: 'byReceipt' } as const;

/** The partition key of an org on the local feed's receipt index. */
export const feedKey = (orgId: string): string => `${orgId}#feed`;

/**
 * An event's place in its org's feed: when it was received (fixed width, so it sorts), then its id.
 * The local consumer's watermark is a value of this form.
 */
export const receivedKeyOf = (event: { readonly received_at: string; readonly id: string }): string => `${event.received_at}#${event.id}`;

/** The receipt-index attributes of an event (the local profile writes them; see `EVENTS_TABLE`). */
const feedAttributes = (orgId: string, event: { readonly received_at: string; readonly id: string }) => ({ feedKey: feedKey(orgId), receivedKey: receivedKeyOf(event) });

/** Attributes the listing reads back in full for a page (never the index-only attributes). */
export const BODY_ATTRIBUTES = ['pk', 'doc', 'raw', 'rawGz', 'blob', 'sizeBytes'] as const;

/** An event's item, plus the blob to write first when its body lives in the blob store. */
export interface EncodedEvent {
  readonly item: Record<string, unknown>;
  readonly blob?: { readonly key: string; readonly body: Buffer };
}

/** The base-table key value of an org's event. */
export const eventPk = (orgId: string, eventId: string): string => `${orgId}#${eventId}`;

/** The write shard of an event: its id is a hash already, so its leading bits are uniform. */
export const shardOf = (eventId: string): number => Number.parseInt(eventId.slice(0, 8), 16) % SHARD_COUNT;

/** The partition key of an org's shard on the time and size indexes. */
export const shardKey = (orgId: string, shard: number): string => `${orgId}#${shard}`;

/** The partition key of an org's shard of one state on the state index. */
export const stateKey = (orgId: string, state: string, shard: number): string => `${orgId}#${state}#${shard}`;

/** The partition key of a run on the run index. */
export const runKey = (orgId: string, runId: string): string => `${orgId}#${runId}`;

/**
 * A short, fixed-width digest of a folded name for index keys: names are the caller's text of any
 * length (a key attribute may hold at most 2 KB) and any characters (no separator is safe). Two
 * names sharing a digest only share a partition; the listing still filters on the names themselves.
 */
const nameDigest = (...parts: readonly string[]): string => createHash('sha256').update(parts.join('\u0000'), 'utf8').digest('base64url').slice(0, 16);

/** The job-index bucket of an event (from its id, like its shard). */
export const jobBucketOf = (eventId: string): number => Number.parseInt(eventId.slice(0, 8), 16) % JOB_BUCKETS;

/**
 * The partition key of one bucket of a job name (folded) on the job index. The name alone, not
 * the namespace and name: a job name filter then reads one name's partitions whatever the number
 * of namespaces that run a job of that name.
 */
export const jobKey = (orgId: string, jobFolded: string, bucket: number): string => `${orgId}#j#${nameDigest(jobFolded)}#${bucket}`;

/** The partition key of one bucket (the event's shard) of a namespace (folded) on the namespace index. */
export const namespaceKey = (orgId: string, namespaceFolded: string, bucket: number): string => `${orgId}#n#${nameDigest(namespaceFolded)}#${bucket}`;

/** The job and namespace index attributes of an event that names a job (a DatasetEvent names none: both indexes are sparse). */
const nameIndexKeys = (orgId: string, eventId: string, namespaceFolded: string, jobFolded: string) => ({
  jobKey: jobKey(orgId, jobFolded, jobBucketOf(eventId)),
  namespaceKey: namespaceKey(orgId, namespaceFolded, shardOf(eventId)),
});

/** A size as the fixed-width prefix of `sizeKey`. */
export const paddedSize = (bytes: number): string => String(bytes).padStart(SIZE_WIDTH, '0');

/** The blob key of an event's body: per org and event, and per raw text, so a blob is never rewritten with other bytes. */
export const blobKey = (orgId: string, eventId: string, rawText: string): string =>
  `events/${orgId}/${eventId}/${createHash('sha256').update(rawText, 'utf8').digest('hex').slice(0, 32)}.json.gz`;

/**
 * Builds the item (and, for a body too large to keep inline, the blob) of one event.
 *
 * @param orgId - the owning organization
 * @param record - the derived event and its raw text
 * @param compressMinBytes - raw bodies at least this long are gzip-compressed
 * @param feed - also write the local feed's receipt-index attributes
 */
export function encodeEvent(orgId: string, record: EventRecord, compressMinBytes = COMPRESS_MIN_BYTES, feed = false): EncodedEvent {
  const { event, rawText } = record;
  const shard = shardOf(event.id);
  const timeKey = `${event.eventTimeKey}#${event.id}`;
  const keys: Record<string, unknown> = {
    pk: eventPk(orgId, event.id),
    shardKey: shardKey(orgId, shard),
    timeKey,
    sizeKey: `${paddedSize(event.event_size_in_bytes)}#${timeKey}`,
    stateKey: stateKey(orgId, event.run_state, shard),
    // The run index is sparse: events without a run (DatasetEvent, JobEvent) have no entry.
    ...(event.run_id === null ? {} : { runKey: runKey(orgId, event.run_id) }),
    // So are the job and namespace indexes: a DatasetEvent has no job.
    ...(event.job_name === null || event.job_namespace === null ? {} : nameIndexKeys(orgId, event.id, event.jobNamespaceFolded, event.jobNameFolded)),
    eventTime: event.eventTimeKey,
    sizeBytes: event.event_size_in_bytes,
    runState: event.run_state,
    integrationLc: event.integrationFolded,
    // Empty names are left out rather than stored as '': a substring filter cannot match them anyway.
    ...(event.jobNameFolded === '' ? {} : { jobLc: event.jobNameFolded }),
    ...(event.jobNamespaceFolded === '' ? {} : { namespaceLc: event.jobNamespaceFolded }),
    ...(feed ? feedAttributes(orgId, event) : {}),
  };
  const doc = docJson(event);
  const rawBytes = Buffer.byteLength(rawText, 'utf8');
  const body: Record<string, unknown> = rawBytes >= compressMinBytes ? { doc, rawGz: gzipSync(rawText, { level: GZIP_LEVEL }) } : { doc, raw: rawText };
  if (itemSize(keys) + itemSize(body) <= MAX_INLINE_ITEM_BYTES) return { item: { ...keys, ...body } };
  const key = blobKey(orgId, event.id, rawText);
  return { item: { ...keys, blob: key }, blob: { key, body: gzipSync(`${doc}\n${rawText}`, { level: GZIP_LEVEL }) } };
}

/**
 * An item stored by an earlier layout, with the index attributes of the current one (the job
 * index's `jobKey`, the namespace index's `namespaceKey`, the local feed's `feedKey` and `receivedKey`); for a local table being rebuilt. The job is read from the derived fields
 * (`doc`, in the item or, for a large event, in its blob).
 *
 * @param blobOf - reads the gzip blob of an item whose body is in the blob store
 * @returns the item, and the job it names (folded) for the name directory
 */
export async function withCurrentIndexKeys(
  item: Record<string, unknown>,
  blobOf: (key: string) => Promise<Buffer>,
): Promise<{ readonly item: Record<string, unknown>; readonly job?: { readonly orgId: string; readonly namespace: string; readonly job: string } }> {
  const pk = String(item.pk);
  const hash = pk.lastIndexOf('#');
  // Only event items (`<org>#<event id>`) carry index attributes; directory items are kept as they are.
  if (item.timeKey === undefined || hash < 0) return { item };
  const key = blobKeyOf(item);
  const stored = decodeEvent(item, key === undefined ? undefined : await blobOf(key));
  const orgId = pk.slice(0, hash);
  const withFeed = { ...item, ...feedAttributes(orgId, stored) };
  if (stored.job_name === null || stored.job_namespace === null) return { item: withFeed };
  const namespace = foldForSearch(stored.job_namespace);
  const job = foldForSearch(stored.job_name);
  return { item: { ...withFeed, ...nameIndexKeys(orgId, stored.id, namespace, job) }, job: { orgId, namespace, job } };
}

/** Whether an item keeps its body in the blob store. */
export const blobKeyOf = (item: Record<string, unknown>): string | undefined => (typeof item.blob === 'string' ? item.blob : undefined);

/**
 * Approximate JSON size of an item's event in an API response: the derived fields plus the raw
 * text (whose length is the stored `event_size_in_bytes`). Used for the page byte budget.
 */
export function responseBytes(item: Record<string, unknown>): number {
  const doc = typeof item.doc === 'string' ? item.doc.length : 1_024;
  return doc + Number(item.sizeBytes ?? 0);
}

/**
 * How `event_raw`'s numbers are read: `parsed` as JavaScript numbers (what code computing with the
 * event needs), or `as-sent` for an answer: a number whose text JavaScript would write differently
 * (`0.0`, `1.50`, `1e3`, more digits than a double keeps) becomes a `JSON.rawJSON` value, which
 * `JSON.stringify` writes back byte for byte — so a listing shows the producer's own numbers.
 */
export type RawNumbers = 'parsed' | 'as-sent';

/** `JSON.rawJSON` (Node 21+, so every runtime lakeline runs on; TypeScript's ES2023 lib lacks it). */
const rawJson = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON;

/**
 * A number where JSON puts values (after `:`, `[` or `,`, before `,`, `]` or `}`). Text inside a
 * string can look the same; that only costs the slower parse, never a wrong answer.
 */
const VALUE_NUMBER = /[:,[]\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*(?=[,\]}])/g;

/**
 * Whether a JSON text may hold a number JSON.stringify would write differently (`0.0`, `1e3`).
 * Nearly no event does, and JSON.parse with a reviver costs several times a plain parse, so the
 * text's numbers are checked first, by the regex engine.
 */
export function hasNumberNotAsJsWrites(text: string): boolean {
  for (const match of text.matchAll(VALUE_NUMBER)) {
    const token = match[1] as string;
    if (JSON.stringify(Number(token)) !== token) return true;
  }
  return false;
}

/** Keeps the text of numbers JSON.stringify would not give back as sent (see {@link RawNumbers}). */
const numbersAsSent = (_key: string, value: unknown, context?: { source?: string }): unknown =>
  typeof value === 'number' && context?.source !== undefined && context.source !== JSON.stringify(value) ? rawJson(context.source) : value;

/**
 * The stored event of an item, exactly as the events endpoint returns it.
 *
 * @param item - the item as read (with its body attributes)
 * @param blobBody - the gzip blob, for an item whose body lives in the blob store
 * @param numbers - how `event_raw`'s numbers are read ({@link RawNumbers})
 */
export function decodeEvent(item: Record<string, unknown>, blobBody?: Buffer, numbers: RawNumbers = 'parsed'): StoredLineageEvent {
  let doc: string;
  let rawText: string;
  if (typeof item.blob === 'string') {
    if (blobBody === undefined) throw new Error(`event item ${String(item.pk)}: the blob body was not supplied`);
    const text = gunzipSync(blobBody).toString('utf8');
    const newline = text.indexOf('\n');
    doc = text.slice(0, newline);
    rawText = text.slice(newline + 1);
  } else {
    doc = String(item.doc);
    rawText = typeof item.raw === 'string' ? item.raw : gunzipSync(item.rawGz as Uint8Array).toString('utf8');
  }
  const stored = JSON.parse(doc) as Record<string, unknown>;
  // Assigning the placeholder's key keeps the contract's field order.
  const keepText = numbers === 'as-sent' && hasNumberNotAsJsWrites(rawText);
  stored.event_raw = (keepText ? JSON.parse(rawText, numbersAsSent as (key: string, value: unknown) => unknown) : JSON.parse(rawText)) as unknown;
  return stored as unknown as StoredLineageEvent;
}

/**
 * The derived fields as JSON, in the contract's order, with `event_raw` as a placeholder: the raw
 * text is stored on its own so that it stays byte for byte what the producer sent.
 */
function docJson(event: EventRecord['event']): string {
  // JSON.stringify never emits a raw newline, which the blob format relies on.
  return JSON.stringify({ ...toPublicEvent(event), event_raw: 0 });
}

/**
 * DynamoDB's item size: attribute names plus values (strings and binaries by length in bytes,
 * numbers at their worst case of 21 bytes).
 */
function itemSize(attributes: Record<string, unknown>): number {
  let size = 0;
  for (const [name, value] of Object.entries(attributes)) {
    size += Buffer.byteLength(name, 'utf8');
    if (typeof value === 'string') size += Buffer.byteLength(value, 'utf8');
    else if (value instanceof Uint8Array) size += value.byteLength;
    else if (typeof value === 'number') size += 21;
  }
  return size;
}
