/**
 * @module adapters/dynamodb/lineage-model-base
 * The shared part of the lineage model on DynamoDB (`lineage-model-reader.ts` reads it,
 * `lineage-model-writer.ts` writes it): item keys and attributes, the bounds of one item, the
 * process-wide request gate and search stamps, and the model's plumbing — batched reads, chunked
 * bodies, paged queries, and the jobs and datasets a consumer touched.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { QualifiedName } from '#domain/lineage-graph/ids';
import type { DatasetSetName } from '#domain/lineage-graph/records';
import { batchGetAll } from './batch-ops.ts';
import { unpack } from './lineage-items.ts';
import type { LineageRecordCache } from './lineage-record-cache.ts';
import type { LineageSearchCache } from './lineage-search-cache.ts';

export type Item = Record<string, unknown>;
export type Key = { pk: string; sk: string };

export const isConditionFailure = (err: unknown): boolean => err instanceof ConditionalCheckFailedException || (err as { name?: string }).name === 'ConditionalCheckFailedException';
export const itemKey = (item: Item): string => `${String(item.pk)}\u0000${String(item.sk)}`;
export const keyString = (key: Key): string => `${key.pk}\u0000${key.sk}`;

/** Byte shares of one item: bodies past them go to chunk items (DynamoDB's limit is 400 KB per item). */
export const INLINE = { run: 300 * 1024, headLinks: 150 * 1024, headBody: 150 * 1024, datasetBody: 80 * 1024, columnLineage: 300 * 1024, schema: 40 * 1024 } as const;
/** Members a set keeps in its dataset item (ids of 36 bytes: 4 sets × ~37 KB) before spilling to shard items. */
export const MAX_SET_MEMBERS_INLINE = 1_000;
/** Shard items per spilled set. */
export const OVERFLOW_SHARDS = 16;

export const SET_ATTRIBUTES: Readonly<Record<DatasetSetName, { readonly set: string; readonly flag: string }>> = {
  writers: { set: 'wj', flag: 'xw' },
  readers: { set: 'rj', flag: 'xr' },
  clDown: { set: 'cd', flag: 'xc' },
  members: { set: 'mb', flag: 'xm' },
};
export const LINK_ATTRIBUTES = ['pk', 'sk', 'dns', 'dnm', 'rev', 'sl', ...Object.values(SET_ATTRIBUTES).flatMap((a) => [a.set, a.flag])];

/** The minute of a fixed-width UTC time (the search index's resolution). */
export const minuteOf = (time: string): string => (time === '' ? '' : `${time.slice(0, 16)}:00.000000+00:00`);

/** Bounds the single-item requests in flight across a process. */
export class Gate {
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

/**
 * What each item's searchable fields were when last read, so a write that leaves them unchanged
 * keeps its stamp (and the search index is not rewritten on every event of a busy job).
 */
export class SearchStamps {
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
export class ColumnLineageRefs {
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
export const searchFields = (type: 'J' | 'D', name: QualifiedName, updatedAt: string, alias?: QualifiedName) => {
  const fields: Record<string, string> = { st: type, sn: name.namespace, sm: name.name, su: minuteOf(updatedAt), ...(alias ? { sa: `${alias.namespace}\u0000${alias.name}` } : {}) };
  return { fields, signature: JSON.stringify([fields.sn, fields.sm, fields.su, fields.sa ?? null]) };
};

/**
 * The shared part of one org generation of the model: its keys and clients, batched reads,
 * chunked bodies, and what a consumer touched. A reader's model (eventually consistent reads) serves job heads
 * and dataset nodes through the process's record cache; a consumer's (strongly consistent) reads
 * the store every time and notes every job and dataset it reads or writes, for `publishChanges`.
 */
export abstract class DynamoLineageModelBase {
  protected readonly touched = { jobIds: new Set<string>(), datasetIds: new Set<string>() };

  constructor(
    protected readonly doc: DynamoDBDocumentClient,
    protected readonly tableName: string,
    protected readonly scope: string,
    protected readonly gate: Gate,
    protected readonly search: LineageSearchCache,
    protected readonly records: LineageRecordCache,
    protected readonly stamps: SearchStamps,
    protected readonly now: () => number,
    protected readonly columnLineageRefs: ColumnLineageRefs,
    protected readonly consistentReads: boolean,
  ) {}

  protected getItems(keys: readonly Key[], projection?: readonly string[]): Promise<Map<string, Item>> {
    if (keys.length === 0) return Promise.resolve(new Map());
    const unique = [...new Map(keys.map((k) => [keyString(k), k])).values()];
    return batchGetAll(this.doc, this.tableName, itemKey, unique, projection, 10, this.consistentReads);
  }

  protected readonly loadChunks = async (pk: string): Promise<Uint8Array[]> => {
    const items = await this.queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, ConsistentRead: this.consistentReads });
    return items.map((i) => i.d as Uint8Array);
  };

  protected unpack<T>(item: Item, prefix: string): Promise<T | undefined> {
    return unpack<T>(this.scope, item, prefix, this.loadChunks);
  }

  protected async queryAll(input: Omit<QueryCommandInput, 'TableName'>, want = Number.POSITIVE_INFINITY): Promise<Item[]> {
    const items: Item[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.doc.send(new QueryCommand({ TableName: this.tableName, ...input, ExclusiveStartKey: start, ...(Number.isFinite(want) ? { Limit: Math.min(1_000, Math.max(want - items.length, 25)) } : {}) }));
      items.push(...((out.Items ?? []) as Item[]));
      start = out.LastEvaluatedKey;
    } while (start && items.length < want);
    return items;
  }

  protected async countAll(input: Omit<QueryCommandInput, 'TableName'>): Promise<number> {
    let count = 0;
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.doc.send(new QueryCommand({ TableName: this.tableName, ...input, Select: 'COUNT', ExclusiveStartKey: start }));
      count += out.Count ?? 0;
      start = out.LastEvaluatedKey;
    } while (start);
    return count;
  }

  /**
   * A consumer notes every job and dataset it reads, not only those it writes: a batch applied
   * again after a crash between its writes and this call finds nothing left to write, but reads
   * the same records, so it names them again.
   */
  protected noteJobs(jobIds: readonly string[]): void {
    if (this.consistentReads) for (const id of jobIds) this.touched.jobIds.add(id);
  }

  protected noteDatasets(datasetIds: readonly string[]): void {
    if (this.consistentReads) for (const id of datasetIds) this.touched.datasetIds.add(id);
  }
}
