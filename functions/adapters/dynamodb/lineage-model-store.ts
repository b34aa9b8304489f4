/**
 * @module lineage-model-store
 * LineageModelStore on DynamoDB (LINEAGE_TABLE; item types in `lineage-items.ts`). Records are
 * written with compare-and-set on a `rev` attribute; grow-only sets with atomic `ADD`, spilling to
 * shard items once a set nears its item's share of the 400 KB limit; large bodies are gzipped and,
 * above their share, split into content-addressed chunk items. Reads are batched (BatchGetItem of
 * up to 100 keys, in parallel) and never scan; the one Scan is a rebuild's deletion of the
 * generation it replaced.
 */
import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, ScanCommand, UpdateCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { FacetEntry } from '#domain/lineage-graph/facets';
import { namespaceIdOf, tagIdOf, type QualifiedName } from '#domain/lineage-graph/ids';
import { canonicalNameOf } from '#domain/lineage-graph/merge';
import type { DatasetSetAdd, IdPage, IndexEntry, LineageModel, LineageModelStore, OrderQuery, Page, Versioned } from '#domain/lineage-graph/ports';
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
} from '#domain/lineage-graph/records';
import { batchDeleteAll, batchGetAll, batchPutAll } from './batch-ops.ts';
import {
  childKey,
  columnLineageKey,
  datasetKey,
  datasetListingPk,
  headKey,
  idOfListingSk,
  jobListingPk,
  listingSk,
  metaKey,
  namespacesPk,
  tagsPk,
  overflowKey,
  pack,
  packedNames,
  runKey,
  runOrderKey,
  scopeOf,
  searchPk,
  unpack,
  versionOrderKey,
  type BlobChunk,
} from './lineage-items.ts';
import { LineageRecordCache, type RecordCacheOptions } from './lineage-record-cache.ts';
import { LineageSearchCache, searchStamp, type SearchCacheOptions } from './lineage-search-cache.ts';

type Item = Record<string, unknown>;
type Key = { pk: string; sk: string };

const isConditionFailure = (err: unknown): boolean => err instanceof ConditionalCheckFailedException || (err as { name?: string }).name === 'ConditionalCheckFailedException';
const itemKey = (item: Item): string => `${String(item.pk)}\u0000${String(item.sk)}`;
const keyString = (key: Key): string => `${key.pk}\u0000${key.sk}`;

/** Byte shares of one item: bodies past them go to chunk items (DynamoDB's limit is 400 KB per item). */
const INLINE = { run: 300 * 1024, headLinks: 150 * 1024, headBody: 150 * 1024, datasetBody: 80 * 1024, columnLineage: 300 * 1024, schema: 40 * 1024 } as const;
/** Members a set keeps in its dataset item (ids of 36 bytes: 4 sets × ~37 KB) before spilling to shard items. */
export const MAX_SET_MEMBERS_INLINE = 1_000;
/** Shard items per spilled set. */
export const OVERFLOW_SHARDS = 16;

const SET_ATTRIBUTES: Readonly<Record<DatasetSetName, { readonly set: string; readonly flag: string }>> = {
  writers: { set: 'wj', flag: 'xw' },
  readers: { set: 'rj', flag: 'xr' },
  clDown: { set: 'cd', flag: 'xc' },
  members: { set: 'mb', flag: 'xm' },
};
const LINK_ATTRIBUTES = ['pk', 'sk', 'dns', 'dnm', 'rev', 'sl', ...Object.values(SET_ATTRIBUTES).flatMap((a) => [a.set, a.flag])];

/** The minute of a fixed-width UTC time (the search index's resolution). */
const minuteOf = (time: string): string => (time === '' ? '' : `${time.slice(0, 16)}:00.000000+00:00`);

/** Bounds the single-item requests in flight across a process. */
class Gate {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly limit: number) {}
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await work();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

/** Options of {@link DynamoLineageModelStore}. */
export interface DynamoLineageModelStoreOptions {
  /** How long readers trust the generation pointer they read. @default 1000 ms */
  readonly generationCacheMs?: number;
  /** Single-item requests in flight. @default 32 */
  readonly writeConcurrency?: number;
  readonly search?: SearchCacheOptions;
  /** Readers' cache of job heads and dataset nodes (`maxEntries: 0` turns it off). */
  readonly records?: RecordCacheOptions;
  /** The clock (search stamps, caches). @default Date.now */
  readonly now?: () => number;
}

interface Meta {
  readonly current: number;
  readonly building: number | null;
  /** The highest generation ever started, so an abandoned one's number is never reused. */
  readonly highest: number;
  readonly rev: number | null;
}

/** DynamoDB-backed {@link LineageModelStore}. */
export class DynamoLineageModelStore implements LineageModelStore {
  private readonly search: LineageSearchCache;
  private readonly records: LineageRecordCache;
  private readonly gate: Gate;
  private readonly metas = new Map<string, { meta: Meta; at: number }>();
  private readonly seen = new SearchStamps();
  private readonly columnLineageRefs = new ColumnLineageRefs();
  private readonly generationCacheMs: number;
  private readonly now: () => number;

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    options: DynamoLineageModelStoreOptions = {},
  ) {
    this.search = new LineageSearchCache(doc, tableName, options.search);
    this.records = new LineageRecordCache(doc, tableName, { ...(options.now ? { now: options.now } : {}), ...options.records });
    this.gate = new Gate(options.writeConcurrency ?? 32);
    this.generationCacheMs = options.generationCacheMs ?? 1_000;
    this.now = options.now ?? Date.now;
  }

  /** Job heads and dataset nodes the readers' cache holds now (for benchmarks and diagnostics). */
  get cachedRecords(): number {
    return this.records.size;
  }

  private async readMeta(orgId: string): Promise<Meta> {
    const out = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: metaKey(orgId), ConsistentRead: true }));
    const item = out.Item;
    const meta: Meta = item
      ? { current: Number(item.cur), building: item.bld === undefined ? null : Number(item.bld), highest: Number(item.hi), rev: Number(item.rev) }
      : { current: 1, building: null, highest: 1, rev: null };
    this.metas.set(orgId, { meta, at: this.now() });
    return meta;
  }

  private async writeMeta(orgId: string, next: Omit<Meta, 'rev'>, expectedRev: number | null): Promise<boolean> {
    try {
      await this.doc.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...metaKey(orgId), cur: next.current, hi: next.highest, rev: (expectedRev ?? 0) + 1, ...(next.building === null ? {} : { bld: next.building }) },
          ConditionExpression: expectedRev === null ? 'attribute_not_exists(pk)' : 'rev = :rev',
          ...(expectedRev === null ? {} : { ExpressionAttributeValues: { ':rev': expectedRev } }),
        }),
      );
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }

  /**
   * A generation of an org's model. Consumers read strongly consistently (their compare-and-set
   * cycles need the latest revision); readers eventually consistently, which DynamoDB serves at
   * half the read units, a few milliseconds behind at most.
   */
  private modelAt(orgId: string, generation: number, consistentReads: boolean): DynamoLineageModel {
    return new DynamoLineageModel(this.doc, this.tableName, scopeOf(orgId, generation), this.gate, this.search, this.records, this.seen, this.now, this.columnLineageRefs, consistentReads);
  }

  async model(orgId: string): Promise<LineageModel> {
    const cached = this.metas.get(orgId);
    const meta = cached && this.now() - cached.at < this.generationCacheMs ? cached.meta : await this.readMeta(orgId);
    return this.modelAt(orgId, meta.current, false);
  }

  async modelsToWrite(orgId: string): Promise<LineageModel[]> {
    const meta = await this.readMeta(orgId);
    return [meta.current, ...(meta.building === null ? [] : [meta.building])].map((g) => this.modelAt(orgId, g, true));
  }

  async beginRebuild(orgId: string): Promise<{ generation: number; model: LineageModel }> {
    for (;;) {
      const meta = await this.readMeta(orgId);
      const generation = meta.highest + 1;
      if (await this.writeMeta(orgId, { current: meta.current, building: generation, highest: generation }, meta.rev)) {
        return { generation, model: this.modelAt(orgId, generation, true) };
      }
    }
  }

  async commitRebuild(orgId: string, generation: number): Promise<void> {
    for (;;) {
      const meta = await this.readMeta(orgId);
      if (meta.building !== generation) throw new Error(`lineage model: generation ${generation} of ${orgId} is not being rebuilt (another rebuild took over)`);
      if (await this.writeMeta(orgId, { current: generation, building: null, highest: meta.highest }, meta.rev)) break;
    }
    this.metas.delete(orgId);
    for (let g = 1; g < generation; g++) {
      this.search.drop(scopeOf(orgId, g));
      this.records.drop(scopeOf(orgId, g));
    }
    await this.deleteGenerationsBefore(orgId, generation);
  }

  /**
   * Deletes every item of the org's generations other than `keep`. A parallel Scan filtered on the
   * key prefix: the only Scan of this store, run by rebuilds alone (an item index per org would
   * cost a write per item for an operation this rare).
   */
  private async deleteGenerationsBefore(orgId: string, keep: number): Promise<void> {
    const segments = 4;
    await Promise.all(
      Array.from({ length: segments }, async (_, segment) => {
        let start: Record<string, unknown> | undefined;
        do {
          const out = await this.doc.send(
            new ScanCommand({
              TableName: this.tableName,
              Segment: segment,
              TotalSegments: segments,
              ProjectionExpression: 'pk, sk',
              FilterExpression: 'begins_with(pk, :org) AND NOT begins_with(pk, :keep) AND pk <> :meta',
              ExpressionAttributeValues: { ':org': `${orgId}#`, ':keep': `${scopeOf(orgId, keep)}#`, ':meta': metaKey(orgId).pk },
              ExclusiveStartKey: start,
            }),
          );
          const keys = (out.Items ?? []).map((i) => ({ pk: i.pk, sk: i.sk }));
          if (keys.length > 0) await batchDeleteAll(this.doc, this.tableName, keys);
          start = out.LastEvaluatedKey;
        } while (start);
      }),
    );
  }
}

/**
 * What each item's searchable fields were when last read, so a write that leaves them unchanged
 * keeps its stamp (and the search index is not rewritten on every event of a busy job).
 */
class SearchStamps {
  private readonly byPk = new Map<string, { rev: number; signature: string; stamp: string }>();
  remember(pk: string, rev: number, signature: string, stamp: string): void {
    if (this.byPk.size > 50_000) this.byPk.clear();
    this.byPk.set(pk, { rev, signature, stamp });
  }
  stampFor(pk: string, expectedRev: number | null, signature: string): string | undefined {
    const known = this.byPk.get(pk);
    return known && known.rev === expectedRev && known.signature === signature ? known.stamp : undefined;
  }
}

/** Which column-lineage value items this process knows exist, per dataset item (bounded). */
class ColumnLineageRefs {
  private readonly known = new Map<string, string>();
  remember(pk: string, hash: string): void {
    if (this.known.size > 50_000) this.known.clear();
    this.known.set(pk, hash);
  }
  has(pk: string, hash: string): boolean {
    return this.known.get(pk) === hash;
  }
}

/** Search fields of an item and their signature. */
const searchFields = (type: 'J' | 'D', name: QualifiedName, updatedAt: string, alias?: QualifiedName) => {
  const fields: Record<string, string> = { st: type, sn: name.namespace, sm: name.name, su: minuteOf(updatedAt), ...(alias ? { sa: `${alias.namespace}\u0000${alias.name}` } : {}) };
  return { fields, signature: JSON.stringify([fields.sn, fields.sm, fields.su, fields.sa ?? null]) };
};

/**
 * One org generation of the model. A reader's model (eventually consistent reads) serves job heads
 * and dataset nodes through the process's record cache; a consumer's (strongly consistent) reads
 * the store every time and notes every job and dataset it reads or writes, for `publishChanges`.
 */
export class DynamoLineageModel implements LineageModel {
  private readonly touched = { jobIds: new Set<string>(), datasetIds: new Set<string>() };

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly scope: string,
    private readonly gate: Gate,
    private readonly search: LineageSearchCache,
    private readonly records: LineageRecordCache,
    private readonly stamps: SearchStamps,
    private readonly now: () => number,
    private readonly columnLineageRefs: ColumnLineageRefs,
    private readonly consistentReads: boolean,
  ) {}

  // ---- plumbing ----

  private getItems(keys: readonly Key[], projection?: readonly string[]): Promise<Map<string, Item>> {
    if (keys.length === 0) return Promise.resolve(new Map());
    const unique = [...new Map(keys.map((k) => [keyString(k), k])).values()];
    return batchGetAll(this.doc, this.tableName, itemKey, unique, projection, 10, this.consistentReads);
  }

  private readonly loadChunks = async (pk: string): Promise<Uint8Array[]> => {
    const items = await this.queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, ConsistentRead: this.consistentReads });
    return items.map((i) => i.d as Uint8Array);
  };

  private unpack<T>(item: Item, prefix: string): Promise<T | undefined> {
    return unpack<T>(this.scope, item, prefix, this.loadChunks);
  }

  private async writeChunks(chunks: readonly BlobChunk[]): Promise<void> {
    if (chunks.length === 0) return;
    const results = await batchPutAll(this.doc, this.tableName, itemKey, chunks as unknown as Item[], 2);
    if (results.some((r) => !r.ok)) throw new Error('lineage model: a body chunk could not be written; retry later');
  }

  /** Writes a whole item if its `rev` is still `expectedRev`; the new revision, or null. */
  private async putIfRev(item: Item, expectedRev: number | null): Promise<number | null> {
    const rev = (expectedRev ?? 0) + 1;
    try {
      await this.gate.run(() =>
        this.doc.send(
          new PutCommand({
            TableName: this.tableName,
            Item: { ...item, rev },
            ConditionExpression: expectedRev === null ? 'attribute_not_exists(pk)' : 'rev = :rev',
            ...(expectedRev === null ? {} : { ExpressionAttributeValues: { ':rev': expectedRev } }),
          }),
        ),
      );
      return rev;
    } catch (err) {
      if (isConditionFailure(err)) return null;
      throw err;
    }
  }

  private async queryAll(input: Omit<QueryCommandInput, 'TableName'>, want = Number.POSITIVE_INFINITY): Promise<Item[]> {
    const items: Item[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.doc.send(new QueryCommand({ TableName: this.tableName, ...input, ExclusiveStartKey: start, ...(Number.isFinite(want) ? { Limit: Math.min(1_000, Math.max(want - items.length, 25)) } : {}) }));
      items.push(...((out.Items ?? []) as Item[]));
      start = out.LastEvaluatedKey;
    } while (start && items.length < want);
    return items;
  }

  private async countAll(input: Omit<QueryCommandInput, 'TableName'>): Promise<number> {
    let count = 0;
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.doc.send(new QueryCommand({ TableName: this.tableName, ...input, Select: 'COUNT', ExclusiveStartKey: start }));
      count += out.Count ?? 0;
      start = out.LastEvaluatedKey;
    } while (start);
    return count;
  }

  // ---- what a consumer touched, for readers' caches ----

  /**
   * A consumer notes every job and dataset it reads, not only those it writes: a batch applied
   * again after a crash between its writes and this call finds nothing left to write, but reads
   * the same records, so it names them again.
   */
  private noteJobs(jobIds: readonly string[]): void {
    if (this.consistentReads) for (const id of jobIds) this.touched.jobIds.add(id);
  }

  private noteDatasets(datasetIds: readonly string[]): void {
    if (this.consistentReads) for (const id of datasetIds) this.touched.datasetIds.add(id);
  }

  async publishChanges(): Promise<void> {
    if (this.touched.jobIds.size + this.touched.datasetIds.size === 0) return;
    const changed = { jobIds: new Set(this.touched.jobIds), datasetIds: new Set(this.touched.datasetIds) };
    this.touched.jobIds.clear();
    this.touched.datasetIds.clear();
    await this.records.publish(this.scope, changed);
  }

  // ---- runs ----

  async getRuns(runIds: readonly string[]): Promise<Map<string, Versioned<RunRecord>>> {
    const items = await this.getItems(runIds.map((id) => runKey(this.scope, id)));
    const out = new Map<string, Versioned<RunRecord>>();
    await Promise.all(
      runIds.map(async (id) => {
        const item = items.get(keyString(runKey(this.scope, id)));
        const value = item ? await this.unpack<RunRecord>(item, 'b') : undefined;
        if (item && value) out.set(id, { value, rev: Number(item.rev) });
      }),
    );
    return out;
  }

  async putRun(run: RunRecord, expectedRev: number | null): Promise<number | null> {
    const { attributes, chunks } = pack(this.scope, 'b', run, INLINE.run);
    await this.writeChunks(chunks);
    return this.putIfRev({ ...runKey(this.scope, run.runId), ...attributes }, expectedRev);
  }

  // ---- job heads ----

  async getJobHeads(jobIds: readonly string[]): Promise<Map<string, Versioned<JobHeadRecord>>> {
    if (!this.consistentReads) return this.records.read(this.scope, 'J', jobIds, (ids) => this.readJobHeads(ids));
    this.noteJobs(jobIds);
    return this.readJobHeads(jobIds);
  }

  private async readJobHeads(jobIds: readonly string[]): Promise<Map<string, Versioned<JobHeadRecord>>> {
    const items = await this.getItems(jobIds.map((id) => headKey(this.scope, id)));
    const out = new Map<string, Versioned<JobHeadRecord>>();
    await Promise.all(
      jobIds.map(async (id) => {
        const item = items.get(keyString(headKey(this.scope, id)));
        if (!item) return;
        const [links, body] = await Promise.all([this.unpack<JobHeadLinks>(item, 'i'), this.unpack<Omit<JobHeadRecord, keyof JobHeadLinks>>(item, 'b')]);
        if (!links || !body) return;
        const rev = Number(item.rev);
        const { signature } = searchFields('J', links, links.updatedAt);
        this.stamps.remember(String(item.pk), rev, signature, String(item.gss));
        out.set(id, { value: { ...links, ...body }, rev });
      }),
    );
    return out;
  }

  async getJobLinks(jobIds: readonly string[]): Promise<Map<string, JobHeadLinks>> {
    this.noteJobs(jobIds);
    const items = await this.getItems(jobIds.map((id) => headKey(this.scope, id)), ['pk', 'sk', ...packedNames('i')]);
    const out = new Map<string, JobHeadLinks>();
    await Promise.all(
      jobIds.map(async (id) => {
        const item = items.get(keyString(headKey(this.scope, id)));
        const links = item ? await this.unpack<JobHeadLinks>(item, 'i') : undefined;
        if (links) out.set(id, links);
      }),
    );
    return out;
  }

  async putJobHead(head: JobHeadRecord, expectedRev: number | null): Promise<number | null> {
    const { jobId, namespace, name, current, inputs, outputs, updatedAt, ...body } = head;
    const links: JobHeadLinks = { jobId, namespace, name, current, inputs, outputs, updatedAt };
    this.noteJobs([jobId]);
    const packedLinks = pack(this.scope, 'i', links, INLINE.headLinks);
    const packedBody = pack(this.scope, 'b', body, INLINE.headBody);
    await this.writeChunks([...packedLinks.chunks, ...packedBody.chunks]);
    const key = headKey(this.scope, jobId);
    const { fields, signature } = searchFields('J', head, updatedAt);
    const stamp = this.stamps.stampFor(key.pk, expectedRev, signature) ?? searchStamp(this.now(), jobId);
    const rev = await this.putIfRev({ ...key, ...packedLinks.attributes, ...packedBody.attributes, ...fields, gsp: searchPk(this.scope, jobId), gss: stamp }, expectedRev);
    if (rev !== null) this.stamps.remember(key.pk, rev, signature, stamp);
    return rev;
  }

  // ---- datasets ----

  async getDatasets(datasetIds: readonly string[]): Promise<Map<string, Versioned<DatasetRecord>>> {
    this.noteDatasets(datasetIds);
    const items = await this.getItems(datasetIds.map((id) => datasetKey(this.scope, id)));
    const columnLineage = await this.columnLineageOf(items.values());
    const out = new Map<string, Versioned<DatasetRecord>>();
    await Promise.all(
      datasetIds.map(async (id) => {
        const item = items.get(keyString(datasetKey(this.scope, id)));
        const record = item && item.rev !== undefined ? await this.recordOf(item, columnLineage.get(String(item.pk))) : undefined;
        if (!item || !record) return;
        const rev = Number(item.rev);
        this.stamps.remember(String(item.pk), rev, this.datasetSearch(record).signature, String(item.gss));
        out.set(id, { value: record, rev });
      }),
    );
    return out;
  }

  /** The record of a dataset item (its body, schema and, when asked, column-lineage facets joined). */
  private async recordOf(item: Item, columnLineage?: FacetEntry): Promise<DatasetRecord | undefined> {
    const [body, schema] = await Promise.all([this.unpack<DatasetRecord>(item, 'b'), this.unpack<FacetEntry | null>(item, 'h')]);
    if (!body) return undefined;
    return { ...body, facets: { ...body.facets, ...(columnLineage ? { columnLineage } : {}), ...(schema ? { schema } : {}) } };
  }

  /** The `columnLineage` registers of dataset items (`cr`), their values read from their own items. */
  private async columnLineageOf(items: Iterable<Item>): Promise<Map<string, FacetEntry>> {
    const registers = [...items].flatMap((item) => (typeof item.cr === 'string' ? [{ pk: String(item.pk), register: JSON.parse(item.cr) as { k: string; d?: true; h?: string } }] : []));
    const values = await this.getItems(registers.flatMap(({ pk, register }) => (register.h ? [{ pk, sk: `CL#${register.h}` }] : [])));
    const out = new Map<string, FacetEntry>();
    await Promise.all(
      registers.map(async ({ pk, register }) => {
        if (register.d) return void out.set(pk, { k: register.k, d: true });
        const item = values.get(`${pk}\u0000CL#${register.h}`);
        if (!item) throw new Error(`lineage model: column lineage ${register.h} of ${pk} is missing`);
        out.set(pk, { k: register.k, v: await this.unpack<unknown>(item, 'v') });
        this.columnLineageRefs.remember(pk, register.h as string);
      }),
    );
    return out;
  }

  private datasetSearch(record: DatasetRecord) {
    const canonical = canonicalNameOf(record);
    const aliased = canonical.namespace !== record.namespace || canonical.name !== record.name;
    return searchFields('D', record, record.updatedAt || record.createdAt, aliased ? canonical : undefined);
  }

  async putDataset(record: DatasetRecord, expectedRev: number | null): Promise<number | null> {
    this.noteDatasets([record.datasetId]);
    const { columnLineage, schema, ...otherFacets } = record.facets;
    const parts = [pack(this.scope, 'b', { ...record, facets: otherFacets }, INLINE.datasetBody), pack(this.scope, 'h', schema ?? null, INLINE.schema)];
    const key = datasetKey(this.scope, record.datasetId);
    const register = columnLineage ? await this.writeColumnLineage(key.pk, record.datasetId, columnLineage) : undefined;
    await this.writeChunks(parts.flatMap((p) => p.chunks));
    const { fields, signature } = this.datasetSearch(record);
    const stamp = this.stamps.stampFor(key.pk, expectedRev, signature) ?? searchStamp(this.now(), record.datasetId);
    const rev = (expectedRev ?? 0) + 1;
    const set: Record<string, unknown> = {
      ...Object.assign({}, ...parts.map((p) => p.attributes)),
      ...fields,
      rev,
      dns: record.namespace,
      dnm: record.name,
      sl: JSON.stringify(record.symlinkTargets),
      ...(register ? { cr: register } : {}),
      gsp: searchPk(this.scope, record.datasetId),
      gss: stamp,
    };
    // Sets (writers, readers, …) live in the same item and are added to concurrently: update the
    // attributes this write owns, never the whole item.
    const remove = [...packedNames('b'), ...packedNames('h'), 'sa', 'cr'].filter((name) => !(name in set));
    const names = Object.fromEntries([...Object.keys(set), ...remove].map((name, i) => [`#a${i}`, name]));
    const alias = Object.fromEntries(Object.entries(names).map(([k, v]) => [v, k]));
    try {
      await this.gate.run(() =>
        this.doc.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: key,
            UpdateExpression: `SET ${Object.keys(set).map((n) => `${alias[n]} = :${alias[n]?.slice(1)}`).join(', ')}${remove.length ? ` REMOVE ${remove.map((n) => alias[n]).join(', ')}` : ''}`,
            ConditionExpression: expectedRev === null ? 'attribute_not_exists(rev)' : 'rev = :expected',
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: {
              ...Object.fromEntries(Object.entries(set).map(([n, v]) => [`:${alias[n]?.slice(1)}`, v])),
              ...(expectedRev === null ? {} : { ':expected': expectedRev }),
            },
          }),
        ),
      );
    } catch (err) {
      if (isConditionFailure(err)) return null;
      throw err;
    }
    this.stamps.remember(key.pk, rev, signature, stamp);
    return rev;
  }

  /**
   * Stores a `columnLineage` register's value in its own content-addressed item (unless this
   * process knows the dataset already points at it) and answers the register to keep in the item.
   */
  private async writeColumnLineage(pk: string, datasetId: string, entry: FacetEntry): Promise<string> {
    if (entry.d) return JSON.stringify({ k: entry.k, d: true });
    const hash = createHash('sha256').update(JSON.stringify(entry.v)).digest('hex').slice(0, 32);
    if (!this.columnLineageRefs.has(pk, hash)) {
      const { attributes, chunks } = pack(this.scope, 'v', entry.v, INLINE.columnLineage);
      await this.writeChunks(chunks);
      await this.gate.run(() => this.doc.send(new PutCommand({ TableName: this.tableName, Item: { ...columnLineageKey(this.scope, datasetId, hash), ...attributes } })));
      this.columnLineageRefs.remember(pk, hash);
    }
    return JSON.stringify({ k: entry.k, h: hash });
  }

  private async readLinks(datasetIds: readonly string[], extra: readonly string[]): Promise<Map<string, { item: Item; links: DatasetLinks }>> {
    const items = await this.getItems(datasetIds.map((id) => datasetKey(this.scope, id)), [...LINK_ATTRIBUTES, ...extra]);
    const overflow: Key[] = [];
    for (const [, item] of items) {
      const id = String(item.pk).slice(String(item.pk).lastIndexOf('#') + 1);
      for (const { flag } of Object.values(SET_ATTRIBUTES)) {
        if (item[flag] === true) for (let s = 0; s < OVERFLOW_SHARDS; s++) overflow.push(overflowKey(this.scope, id, flag, s));
      }
    }
    const spilled = await this.getItems(overflow);
    const out = new Map<string, { item: Item; links: DatasetLinks }>();
    for (const id of datasetIds) {
      const item = items.get(keyString(datasetKey(this.scope, id)));
      if (!item || typeof item.dns !== 'string' || typeof item.dnm !== 'string') continue;
      const members = (name: DatasetSetName): string[] => {
        const { set, flag } = SET_ATTRIBUTES[name];
        const all = new Set<string>(item[set] instanceof Set ? (item[set] as Set<string>) : []);
        if (item[flag] === true) {
          for (let s = 0; s < OVERFLOW_SHARDS; s++) for (const m of (spilled.get(keyString(overflowKey(this.scope, id, flag, s)))?.m as Set<string> | undefined) ?? []) all.add(m);
        }
        return [...all].sort();
      };
      out.set(id, {
        item,
        links: {
          datasetId: id,
          namespace: item.dns,
          name: item.dnm,
          exists: item.rev !== undefined,
          symlinkTargets: typeof item.sl === 'string' ? (JSON.parse(item.sl) as QualifiedName[]) : [],
          writers: members('writers'),
          readers: members('readers'),
          clDown: members('clDown'),
          members: members('members'),
        },
      });
    }
    return out;
  }

  async getDatasetLinks(datasetIds: readonly string[]): Promise<Map<string, DatasetLinks>> {
    this.noteDatasets(datasetIds);
    const found = await this.readLinks(datasetIds, []);
    return new Map([...found].map(([id, { links }]) => [id, links]));
  }

  async getDatasetNodes(datasetIds: readonly string[]): Promise<Map<string, DatasetNode>> {
    if (!this.consistentReads) return this.records.read(this.scope, 'D', datasetIds, (ids) => this.readDatasetNodes(ids));
    this.noteDatasets(datasetIds);
    return this.readDatasetNodes(datasetIds);
  }

  private async readDatasetNodes(datasetIds: readonly string[]): Promise<Map<string, DatasetNode>> {
    const found = await this.readLinks(datasetIds, [...packedNames('b'), ...packedNames('h')]);
    const out = new Map<string, DatasetNode>();
    await Promise.all(
      [...found].map(async ([id, { item, links }]) => {
        out.set(id, { ...links, record: links.exists ? ((await this.recordOf(item)) ?? null) : null });
      }),
    );
    return out;
  }

  async getDatasetColumnLineage(datasetIds: readonly string[]): Promise<Map<string, DatasetColumnLineage>> {
    this.noteDatasets(datasetIds);
    const found = await this.readLinks(datasetIds, ['cr', ...packedNames('h')]);
    const columnLineage = await this.columnLineageOf([...found.values()].map((f) => f.item));
    const out = new Map<string, DatasetColumnLineage>();
    await Promise.all(
      [...found].map(async ([id, { item, links }]) => {
        const schema = await this.unpack<FacetEntry | null>(item, 'h');
        out.set(id, { ...links, columnLineage: columnLineage.get(String(item.pk)) ?? null, schema: schema ?? null });
      }),
    );
    return out;
  }

  async addToDatasetSets(adds: readonly DatasetSetAdd[]): Promise<void> {
    this.noteDatasets(adds.map((a) => a.datasetId));
    const merged = new Map<string, DatasetSetAdd & { members: string[] }>();
    for (const add of adds) {
      const key = `${add.datasetId}|${add.set}`;
      const known = merged.get(key);
      merged.set(key, { ...add, members: [...new Set([...(known?.members ?? []), ...add.members])] });
    }
    await Promise.all([...merged.values()].map((add) => this.gate.run(() => this.addToSet(add))));
  }

  /** Adds to a set in its dataset item; past {@link MAX_SET_MEMBERS_INLINE}, to its shard items. */
  private async addToSet(add: DatasetSetAdd & { members: string[] }): Promise<void> {
    const { set, flag } = SET_ATTRIBUTES[add.set];
    const key = datasetKey(this.scope, add.datasetId);
    // A name known only as another's symlink target or column-lineage input gets its identity here.
    const identity = 'dns = if_not_exists(dns, :ns), dnm = if_not_exists(dnm, :nm), st = if_not_exists(st, :st), sn = if_not_exists(sn, :ns), sm = if_not_exists(sm, :nm), gsp = if_not_exists(gsp, :gsp), gss = if_not_exists(gss, :gss)';
    const identityValues = { ':ns': add.namespace, ':nm': add.name, ':st': 'D', ':gsp': searchPk(this.scope, add.datasetId), ':gss': searchStamp(this.now(), add.datasetId) };
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key,
          UpdateExpression: `ADD #s :m SET ${identity}`,
          ConditionExpression: 'attribute_not_exists(#s) OR size(#s) <= :room',
          ExpressionAttributeNames: { '#s': set },
          ExpressionAttributeValues: { ':m': new Set(add.members), ':room': MAX_SET_MEMBERS_INLINE - add.members.length, ...identityValues },
        }),
      );
      return;
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
    const byShard = new Map<number, string[]>();
    for (const member of add.members) {
      const shard = Number.parseInt(member.slice(0, 4), 16) % OVERFLOW_SHARDS;
      byShard.set(shard, [...(byShard.get(shard) ?? []), member]);
    }
    await Promise.all(
      [...byShard].map(([shard, members]) =>
        this.doc.send(new UpdateCommand({ TableName: this.tableName, Key: overflowKey(this.scope, add.datasetId, flag, shard), UpdateExpression: 'ADD m :m', ExpressionAttributeValues: { ':m': new Set(members) } })),
      ),
    );
    // The flag is set after the members are in their shards, so a reader that sees it finds them.
    await this.doc.send(new UpdateCommand({ TableName: this.tableName, Key: key, UpdateExpression: `SET #f = :t, ${identity}`, ExpressionAttributeNames: { '#f': flag }, ExpressionAttributeValues: { ':t': true, ...identityValues } }));
  }

  // ---- order and parent entries ----

  private entryItem(entry: IndexEntry): Item {
    if (entry.kind === 'run-order') return { ...runOrderKey(this.scope, entry.jobId, entry.ord), ...(entry.static ? { fx: 1 } : {}) };
    if (entry.kind === 'version-order') return versionOrderKey(this.scope, entry.datasetId, entry.ord);
    return { ...childKey(this.scope, entry.parentRunId, entry.childRunId), cns: entry.parentJob.namespace, cnm: entry.parentJob.name };
  }

  async findMissingEntries(entries: readonly IndexEntry[]): Promise<IndexEntry[]> {
    const items = entries.map((e) => this.entryItem(e));
    const found = await this.getItems(items.map((i) => ({ pk: String(i.pk), sk: String(i.sk) })), ['pk', 'sk']);
    return entries.filter((_, i) => !found.has(itemKey(items[i] as Item)));
  }

  async putEntries(entries: readonly IndexEntry[]): Promise<void> {
    const items = [...new Map(entries.map((e) => this.entryItem(e)).map((i) => [itemKey(i), i])).values()];
    const results = await batchPutAll(this.doc, this.tableName, itemKey, items, 4);
    if (results.some((r) => !r.ok)) throw new Error('lineage model: some order entries were not written; retry later');
  }

  async deleteEntries(entries: readonly IndexEntry[]): Promise<void> {
    const keys = [...new Map(entries.map((e) => this.entryItem(e)).map((i) => [itemKey(i), { pk: i.pk, sk: i.sk }])).values()];
    await batchDeleteAll(this.doc, this.tableName, keys);
  }

  /** Newest-first order entries of one partition and prefix. */
  private async listOrder(pk: string, prefix: string, query: OrderQuery): Promise<OrderEntry[]> {
    const offset = query.offset ?? 0;
    const bounded = query.before !== undefined;
    const items = await this.queryAll(
      {
        KeyConditionExpression: bounded ? 'pk = :pk AND sk BETWEEN :lo AND :hi' : 'pk = :pk AND begins_with(sk, :lo)',
        ExpressionAttributeValues: { ':pk': pk, ':lo': prefix, ...(bounded ? { ':hi': `${prefix}${query.before}` } : {}) },
        ...(query.runsOnly ? { FilterExpression: 'attribute_not_exists(fx)' } : {}),
        ProjectionExpression: 'sk',
        ScanIndexForward: false,
        ConsistentRead: this.consistentReads,
      },
      offset + query.limit + (bounded ? 1 : 0),
    );
    // BETWEEN includes its upper bound, which the query excludes.
    const ords = items.map((i) => String(i.sk).slice(prefix.length)).filter((ord) => !bounded || ord < (query.before as string));
    return ords.slice(offset, offset + query.limit).map((ord) => ({ ord, runId: ord.slice(ord.indexOf('|') + 1) }));
  }

  listRunOrder(jobId: string, query: OrderQuery): Promise<OrderEntry[]> {
    return this.listOrder(runOrderKey(this.scope, jobId, '').pk, 'O#', query);
  }

  countRunOrder(jobId: string, runsOnly: boolean): Promise<number> {
    return this.countAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': runOrderKey(this.scope, jobId, '').pk, ':p': 'O#' },
      ...(runsOnly ? { FilterExpression: 'attribute_not_exists(fx)' } : {}),
      ConsistentRead: this.consistentReads,
    });
  }

  listVersionOrder(datasetId: string, query: OrderQuery): Promise<OrderEntry[]> {
    return this.listOrder(versionOrderKey(this.scope, datasetId, '').pk, 'V#', query);
  }

  countVersionOrder(datasetId: string): Promise<number> {
    return this.countAll({ KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)', ExpressionAttributeValues: { ':pk': versionOrderKey(this.scope, datasetId, '').pk, ':p': 'V#' }, ConsistentRead: this.consistentReads });
  }

  async listChildren(parentRunId: string): Promise<Array<{ runId: string; parentJob: QualifiedName }>> {
    const items = await this.queryAll({ KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)', ExpressionAttributeValues: { ':pk': childKey(this.scope, parentRunId, '').pk, ':p': 'C#' }, ConsistentRead: this.consistentReads });
    return items.map((i) => ({ runId: String(i.sk).slice(2), parentJob: { namespace: String(i.cns), name: String(i.cnm) } }));
  }

  // ---- namespaces and listings ----

  private namespaceKey(name: string): Key {
    return { pk: namespacesPk(this.scope), sk: listingSk(name, namespaceIdOf(name)) };
  }

  async getNamespaces(names: readonly string[]): Promise<Map<string, Versioned<NamespaceRecord>>> {
    const items = await this.getItems(names.map((n) => this.namespaceKey(n)));
    const out = new Map<string, Versioned<NamespaceRecord>>();
    for (const name of names) {
      const item = items.get(keyString(this.namespaceKey(name)));
      if (item) out.set(name, { value: { name, createdAt: String(item.ca), updatedAt: String(item.ua) }, rev: Number(item.rev) });
    }
    return out;
  }

  putNamespace(record: NamespaceRecord, expectedRev: number | null): Promise<number | null> {
    return this.putIfRev({ ...this.namespaceKey(record.name), nm: record.name, ca: record.createdAt, ua: record.updatedAt }, expectedRev);
  }

  async listNamespaces(page: Page): Promise<{ namespaces: NamespaceRecord[]; total: number }> {
    const condition = { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': namespacesPk(this.scope) }, ConsistentRead: this.consistentReads };
    const [items, total] = await Promise.all([this.queryAll(condition, page.offset + page.limit), this.countAll(condition)]);
    return { namespaces: items.slice(page.offset, page.offset + page.limit).map((i) => ({ name: String(i.nm), createdAt: String(i.ca), updatedAt: String(i.ua) })), total };
  }

  // ---- tags ----

  private tagKey(name: string): Key {
    return { pk: tagsPk(this.scope), sk: listingSk(name, tagIdOf(name)) };
  }

  async getTags(names: readonly string[]): Promise<Set<string>> {
    const items = await this.getItems(names.map((n) => this.tagKey(n)));
    return new Set(names.filter((n) => items.has(keyString(this.tagKey(n)))));
  }

  async putTags(names: readonly string[]): Promise<void> {
    const items = [...new Map(names.map((name) => ({ ...this.tagKey(name), nm: name }) as Item).map((i) => [itemKey(i), i])).values()];
    const results = await batchPutAll(this.doc, this.tableName, itemKey, items, 4);
    if (results.some((r) => !r.ok)) throw new Error('lineage model: some tags were not written; retry later');
  }

  async listTags(page: Page): Promise<{ tags: string[]; total: number }> {
    const condition = { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': tagsPk(this.scope) }, ConsistentRead: this.consistentReads };
    const [items, total] = await Promise.all([this.queryAll({ ...condition, ProjectionExpression: 'nm' }, page.offset + page.limit), this.countAll(condition)]);
    return { tags: items.slice(page.offset, page.offset + page.limit).map((i) => String(i.nm)), total };
  }

  async putJobListing(job: QualifiedName & { jobId: string }): Promise<void> {
    await this.gate.run(() => this.doc.send(new PutCommand({ TableName: this.tableName, Item: { pk: jobListingPk(this.scope, namespaceIdOf(job.namespace)), sk: listingSk(job.name, job.jobId) } })));
  }

  async putDatasetListing(dataset: QualifiedName & { datasetId: string; aliased: boolean }): Promise<void> {
    const key = { pk: datasetListingPk(this.scope, namespaceIdOf(dataset.namespace)), sk: listingSk(dataset.name, dataset.datasetId) };
    // `al` only ever turns on (a name that resolved elsewhere once always will: symlink targets only grow).
    await this.gate.run(() =>
      this.doc.send(
        new UpdateCommand({ TableName: this.tableName, Key: key, UpdateExpression: dataset.aliased ? 'SET al = :t' : 'SET al = if_not_exists(al, :f)', ExpressionAttributeValues: dataset.aliased ? { ':t': true } : { ':f': false } }),
      ),
    );
  }

  private async listing(pk: string, page: Page, filter?: string): Promise<IdPage> {
    const condition = {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk, ...(filter ? { ':t': true } : {}) },
      ...(filter ? { FilterExpression: filter } : {}),
      ConsistentRead: this.consistentReads,
    };
    const [items, total] = await Promise.all([this.queryAll({ ...condition, ProjectionExpression: 'sk' }, page.offset + page.limit), this.countAll(condition)]);
    return { ids: items.slice(page.offset, page.offset + page.limit).map((i) => idOfListingSk(String(i.sk))), total };
  }

  listJobs(namespace: string, page: Page): Promise<IdPage> {
    return this.listing(jobListingPk(this.scope, namespaceIdOf(namespace)), page);
  }

  listDatasets(namespace: string, page: Page): Promise<IdPage> {
    return this.listing(datasetListingPk(this.scope, namespaceIdOf(namespace)), page, 'al <> :t');
  }

  searchEntries(): Promise<readonly SearchEntry[]> {
    return this.search.entries(this.scope);
  }
}

