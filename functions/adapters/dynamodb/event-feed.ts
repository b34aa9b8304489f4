/**
 * @module event-feed
 * The stored events of an org read back for the lineage model: in the order they were stored,
 * after a watermark, from the local feed's receipt index ({@link DynamoEventFeed}); or all of them,
 * shard by shard from the time index, for a rebuild ({@link DynamoStoredEventSource}, both
 * profiles) or an AWS replay ({@link ShardedReplayFeed}). Index entries carry keys only; bodies are read with BatchGetItem (and the blob store
 * for large ones).
 */
import { QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { BlobStore } from '#domain/lineage/ports';
import type { StoredLineageEvent } from '#domain/lineage/types';
import type { FeedHead } from '#domain/feed/ports';
import type { EventFeed, StoredEventSource } from '#domain/lineage-graph/ports';
import { batchGetAll } from './batch-ops.ts';
import { BODY_ATTRIBUTES, blobKeyOf, decodeEvent, EVENT_INDEXES, feedKey, receivedKeyOf, SHARD_COUNT, shardKey } from './event-item.ts';

/**
 * Reads the events of index entries (`pk`s), in the entries' order; an entry whose item is gone is
 * skipped. `consistent`: strongly consistent reads (the feed's fan-out hands keys of items just written).
 */
export const eventsOf = async (doc: DynamoDBDocumentClient, tableName: string, blobs: () => BlobStore, pks: readonly string[], consistent = false): Promise<StoredLineageEvent[]> => {
  const items = await batchGetAll(doc, tableName, 'pk', pks.map((pk) => ({ pk })), BODY_ATTRIBUTES, 10, consistent);
  const kept = pks.map((pk) => items.get(pk)).filter((item): item is Record<string, unknown> => item !== undefined);
  return Promise.all(
    kept.map(async (item) => {
      const key = blobKeyOf(item);
      return decodeEvent(item, key === undefined ? undefined : await blobs().get(key));
    }),
  );
};

/** Pages of an index query's entries (keys only). */
async function* entryPages(doc: DynamoDBDocumentClient, input: QueryCommandInput): AsyncGenerator<Record<string, unknown>[]> {
  let start: Record<string, unknown> | undefined;
  do {
    const out = await doc.send(new QueryCommand({ ...input, ExclusiveStartKey: start }));
    start = out.LastEvaluatedKey;
    if ((out.Items ?? []).length > 0) yield out.Items ?? [];
  } while (start);
}

/** The local feed: an org's events after a mark, in the order they were stored; its head is the index's last entry. */
export class DynamoEventFeed implements EventFeed, FeedHead {
  /**
   * @param tableName - the Events table, written with the feed's attributes (`DynamoEventStore` option `feed`)
   */
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly blobs: () => BlobStore,
  ) {}

  async *after(orgId: string, mark: string, batchSize: number): AsyncIterable<StoredLineageEvent[]> {
    const pages = entryPages(this.doc, {
      TableName: this.tableName,
      IndexName: EVENT_INDEXES.byReceipt,
      KeyConditionExpression: 'feedKey = :k AND receivedKey > :m',
      ExpressionAttributeValues: { ':k': feedKey(orgId), ':m': mark },
      Limit: batchSize,
    });
    for await (const entries of pages) yield eventsOf(this.doc, this.tableName, this.blobs, entries.map((e) => String(e.pk)));
  }

  async newest(orgId: string): Promise<string | undefined> {
    const out = await this.doc.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: EVENT_INDEXES.byReceipt,
        KeyConditionExpression: 'feedKey = :k',
        ExpressionAttributeValues: { ':k': feedKey(orgId) },
        ScanIndexForward: false,
        Limit: 1,
      }),
    );
    const key = out.Items?.[0]?.receivedKey;
    return typeof key === 'string' ? key : undefined;
  }
}

/** Every stored event of an org, for `lakeline lineage rebuild`: each write shard of the time index in turn. */
export class DynamoStoredEventSource implements StoredEventSource {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly blobs: () => BlobStore,
    private readonly batchSize = 1_000,
  ) {}

  async *events(orgId: string): AsyncIterable<StoredLineageEvent[]> {
    for (let shard = 0; shard < SHARD_COUNT; shard++) {
      const pages = entryPages(this.doc, {
        TableName: this.tableName,
        IndexName: EVENT_INDEXES.byTime,
        KeyConditionExpression: 'shardKey = :k',
        ExpressionAttributeValues: { ':k': shardKey(orgId, shard) },
        ProjectionExpression: 'pk',
        Limit: this.batchSize,
      });
      for await (const entries of pages) yield eventsOf(this.doc, this.tableName, this.blobs, entries.map((e) => String(e.pk)));
    }
  }
}

/**
 * The stored order where the Events table has no receipt index (AWS, where the stream is the feed):
 * for a replay, every event of the org is read shard by shard (as a rebuild does) and those above
 * the mark are handed on, each batch in stored order. Batches are not in stored order across shards;
 * subscribers converge whatever order batches come in (ADR 0045).
 */
export class ShardedReplayFeed {
  constructor(private readonly source: DynamoStoredEventSource) {}

  async *after(orgId: string, mark: string, batchSize: number): AsyncIterable<StoredLineageEvent[]> {
    for await (const page of this.source.events(orgId)) {
      const above = page.filter((e) => receivedKeyOf(e) > mark).sort((a, b) => (receivedKeyOf(a) < receivedKeyOf(b) ? -1 : 1));
      for (let i = 0; i < above.length; i += batchSize) yield above.slice(i, i + batchSize);
    }
  }
}
