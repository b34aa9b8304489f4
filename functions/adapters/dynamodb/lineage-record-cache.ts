/**
 * @module lineage-record-cache
 * The per-process cache of the records a lineage graph reads most: job heads and dataset nodes.
 * A depth-5 graph shows up to a thousand of them, and reading each from the store on every
 * request is what a graph costs (locally, dynalite spends about 0.15 ms of CPU per item; in AWS,
 * ten BatchGetItem round trips per level). Kept fresh by a change log: every consumer batch
 * appends one entry naming the jobs and datasets it read or wrote (`publish`), and a reader, at
 * most every `minIntervalMs`, reads the entries stamped since its last sync (minus an overlap that
 * covers eventually consistent reads, clocks a little apart and reads in flight during a sync) and
 * drops what they name — usually an empty answer. A reader idle past `maxGapMs`, or facing more
 * entries than it reads in one sync, drops its whole cache instead. Entries expire by TTL.
 *
 * Only readers use it: a consumer's compare-and-set cycles always read the store.
 */
import { randomUUID } from 'node:crypto';
import { PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { LINEAGE_TABLE } from '#shared/table-definitions';
import { changeLogPk } from './lineage-items.ts';

/** Options of {@link LineageRecordCache}. */
export interface RecordCacheOptions {
  /** Records kept across all orgs (least recently used dropped first); 0 turns the cache off. @default 60000 */
  readonly maxEntries?: number;
  /** Requests closer together than this share one sync. @default 200 ms */
  readonly minIntervalMs?: number;
  /** How far before the last sync a sync looks again. @default 10 s */
  readonly overlapMs?: number;
  /** A reader that has not synced for this long drops its cache rather than read the log. @default 1 h */
  readonly maxGapMs?: number;
  /**
   * The longest a record is served from the cache. Bounds the one staleness the change log cannot
   * rule out: a consumer that dies between a write and its batch's entry, and whose batch, applied
   * again, finds nothing left to write to a record it reached only through another (a symlink
   * target's member set). @default 5 min
   */
  readonly maxAgeMs?: number;
  /** How long change entries are kept (DynamoDB TTL). @default 1 day */
  readonly retainMs?: number;
  /** The clock. @default Date.now */
  readonly now?: () => number;
}

/**
 * Heap a cached record is given: `bench/lineage-graph.ts` measures 2.8 KB (83 MB for 30,652 records
 * of 6-column schemas, after a full collection); wider schemas take more.
 */
const BYTES_PER_RECORD = 4_096;

/**
 * How many records a function with `memoryMb` of memory caches: a quarter of its memory, so the
 * answers it builds (a thousand-node graph is a few MB) and the runtime keep the rest.
 */
export const recordCacheEntriesFor = (memoryMb: number): number => Math.floor((memoryMb * 1_048_576) / 4 / BYTES_PER_RECORD);

/** What a record belongs to: a job head or a dataset name. */
export type RecordKind = 'J' | 'D';

/** Ids per change-log item: 4,000 ids of 36 characters stay far below the 400 KB item limit. */
const IDS_PER_ENTRY = 4_000;
/** Change-log items one sync reads at most before it gives up and drops the cache. */
const MAX_ENTRIES_PER_SYNC = 500;
/** The attribute DynamoDB's TTL reads. */
const EXPIRES_AT = LINEAGE_TABLE.ttlAttribute ?? 'expiresAt';

interface ScopeSync {
  /** Start time (ms) of the last sync that completed. */
  syncedAt: number;
  syncing: Promise<void> | undefined;
}

/** Job heads and dataset nodes of every org generation this process read, kept fresh by the change log. */
export class LineageRecordCache {
  private readonly records = new Map<string, { readonly value: unknown; readonly at: number }>();
  private readonly syncs = new Map<string, ScopeSync>();
  private readonly maxEntries: number;
  private readonly minIntervalMs: number;
  private readonly overlapMs: number;
  private readonly maxGapMs: number;
  private readonly maxAgeMs: number;
  private readonly retainMs: number;
  private readonly now: () => number;

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    options: RecordCacheOptions = {},
  ) {
    this.maxEntries = options.maxEntries ?? 60_000;
    this.minIntervalMs = options.minIntervalMs ?? 200;
    this.overlapMs = options.overlapMs ?? 10_000;
    this.maxGapMs = options.maxGapMs ?? 3_600_000;
    this.maxAgeMs = options.maxAgeMs ?? 300_000;
    this.retainMs = options.retainMs ?? 86_400_000;
    this.now = options.now ?? Date.now;
  }

  get enabled(): boolean {
    return this.maxEntries > 0;
  }

  /** Records held now (all orgs). */
  get size(): number {
    return this.records.size;
  }

  /**
   * Reads records through the cache: the cached ones, then `load` for the rest (whose answers are
   * kept). Values are shared between requests: callers must not mutate them.
   */
  async read<T>(scope: string, kind: RecordKind, ids: readonly string[], load: (ids: readonly string[]) => Promise<Map<string, T>>): Promise<Map<string, T>> {
    if (!this.enabled) return load(ids);
    await this.sync(scope);
    const out = new Map<string, T>();
    const missing: string[] = [];
    const now = this.now();
    for (const id of ids) {
      const key = cacheKey(scope, kind, id);
      const hit = this.records.get(key);
      if (hit === undefined || now - hit.at > this.maxAgeMs) {
        missing.push(id);
        continue;
      }
      // Most recently used last: Map keeps insertion order, so the first key is the one to drop.
      this.records.delete(key);
      this.records.set(key, hit);
      out.set(id, hit.value as T);
    }
    if (missing.length === 0) return out;
    const loaded = await load(missing);
    for (const [id, value] of loaded) {
      out.set(id, value);
      this.records.set(cacheKey(scope, kind, id), { value, at: now });
    }
    for (const key of this.records.keys()) {
      if (this.records.size <= this.maxEntries) break;
      this.records.delete(key);
    }
    return out;
  }

  /**
   * Appends a change entry naming records a consumer read or wrote: readers drop them at their
   * next sync. Called after the writes, so a reader that re-reads them then gets the new values.
   */
  async publish(scope: string, changed: { readonly jobIds: ReadonlySet<string>; readonly datasetIds: ReadonlySet<string> }): Promise<void> {
    const ids = [...[...changed.jobIds].map((id) => `J${id}`), ...[...changed.datasetIds].map((id) => `D${id}`)];
    // Readers in this process (the local profile's consumer runs beside them) need not wait for a sync.
    this.forget(scope, ids);
    const nowMs = this.now();
    const expiresAt = Math.ceil((nowMs + this.retainMs) / 1_000);
    for (let i = 0; i < ids.length; i += IDS_PER_ENTRY) {
      const part = ids.slice(i, i + IDS_PER_ENTRY);
      await this.doc.send(
        new PutCommand({ TableName: this.tableName, Item: { pk: changeLogPk(scope), sk: `${new Date(nowMs).toISOString()}#${randomUUID()}`, ids: new Set(part), [EXPIRES_AT]: expiresAt } }),
      );
    }
  }

  /** Forgets a generation (after a rebuild switched readers away from it). */
  drop(scope: string): void {
    this.syncs.delete(scope);
    for (const key of this.records.keys()) if (key.startsWith(`${scope}|`)) this.records.delete(key);
  }

  private async sync(scope: string): Promise<void> {
    const state = this.syncs.get(scope);
    if (!state) {
      // Nothing of this generation is cached yet: there is nothing to drop, only a point to start from.
      this.syncs.set(scope, { syncedAt: this.now(), syncing: undefined });
      return;
    }
    if (this.now() - state.syncedAt < this.minIntervalMs) return;
    state.syncing ??= this.refresh(scope, state).finally(() => {
      state.syncing = undefined;
    });
    await state.syncing;
  }

  private async refresh(scope: string, state: ScopeSync): Promise<void> {
    const started = this.now();
    if (started - state.syncedAt > this.maxGapMs) {
      this.drop(scope);
      this.syncs.set(scope, { syncedAt: started, syncing: undefined });
      return;
    }
    const since = new Date(state.syncedAt - this.overlapMs).toISOString();
    const changed: string[] = [];
    let entries = 0;
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND sk > :since',
          ExpressionAttributeValues: { ':pk': changeLogPk(scope), ':since': since },
          ExclusiveStartKey: start,
          Limit: MAX_ENTRIES_PER_SYNC,
        }),
      );
      for (const item of out.Items ?? []) changed.push(...((item.ids as Set<string> | undefined) ?? []));
      entries += out.Items?.length ?? 0;
      start = out.LastEvaluatedKey;
      if (start && entries >= MAX_ENTRIES_PER_SYNC) {
        this.drop(scope);
        this.syncs.set(scope, { syncedAt: started, syncing: undefined });
        return;
      }
    } while (start);
    this.forget(scope, changed);
    state.syncedAt = started;
  }

  /** Drops records named by change-log ids (`J<jobId>`, `D<datasetId>`). */
  private forget(scope: string, ids: Iterable<string>): void {
    for (const id of ids) this.records.delete(cacheKey(scope, id.slice(0, 1) as RecordKind, id.slice(1)));
  }
}

const cacheKey = (scope: string, kind: RecordKind, id: string): string => `${scope}|${kind}|${id}`;
