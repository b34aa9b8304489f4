/**
 * @module lineage-model-store
 * LineageModelStore on DynamoDB (LINEAGE_TABLE; item types in `lineage-items.ts`): which generation
 * of an org's model readers and consumers use, and rebuilds. The model itself is split along the
 * port's seam: `lineage-model-reader.ts` (what readers read), `lineage-model-writer.ts` (what the
 * appliers write), over `lineage-model-base.ts`. The one Scan is a rebuild's deletion of the
 * generation it replaced.
 */
import { GetCommand, PutCommand, ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { LineageModel, LineageModelReader, LineageModelStore } from '#domain/lineage-graph/ports';
import { batchDeleteAll } from './batch-ops.ts';
import { metaKey, scopeOf } from './lineage-items.ts';
import { LineageRecordCache, type RecordCacheOptions } from './lineage-record-cache.ts';
import { LineageSearchCache, type SearchCacheOptions } from './lineage-search-cache.ts';
import { ColumnLineageRefs, Gate, isConditionFailure, SearchStamps } from './lineage-model-base.ts';
import { DynamoLineageModelReader } from './lineage-model-reader.ts';
import { DynamoLineageModel } from './lineage-model-writer.ts';

export { MAX_SET_MEMBERS_INLINE, OVERFLOW_SHARDS } from './lineage-model-base.ts';

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

  /** Readers get the readers' half only (eventually consistent, through the record cache). */
  async model(orgId: string): Promise<LineageModelReader> {
    const cached = this.metas.get(orgId);
    const meta = cached && this.now() - cached.at < this.generationCacheMs ? cached.meta : await this.readMeta(orgId);
    return new DynamoLineageModelReader(this.doc, this.tableName, scopeOf(orgId, meta.current), this.gate, this.search, this.records, this.seen, this.now, this.columnLineageRefs, false);
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
