/**
 * @module lineage-feed-watermarks
 * The event feed's durable marks per org (ADR 0045), each one small item beside the org's
 * generation pointer in the Lineage table (`<org>#META`: the META partition is never deleted by a
 * rebuild), told apart by sort key ({@link feedMarkKeys}). A conditional update only ever moves a
 * mark up.
 */
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { OrgMarks } from '#domain/feed/ports';
import { metaKey } from './lineage-items.ts';

/** The sort keys of the feed's marks in an org's META partition. */
export const feedMarkKeys = {
  /**
   * A subscriber's catch-up watermark. The lineage model keeps `FEED`, the key it had before the
   * feed served several subscribers, so a home or deployment upgraded in place keeps its place.
   */
  watermark: (subscriber: string): string => (subscriber === 'lineage-model' ? 'FEED' : `FEED#${subscriber}`),
  /** The highest mark a subscriber applied (its lag is measured by it). */
  applied: (subscriber: string): string => `FEED-APPLIED#${subscriber}`,
  /** The newest stored event's mark, where the feed has no index to read it from (AWS: the fan-out writes it). */
  head: 'FEED-HEAD',
} as const;

/** An {@link OrgMarks} item per org on the Lineage table. */
export class DynamoFeedWatermarks implements OrgMarks {
  /** @param sortKey - which of the org's marks (`feedMarkKeys`); the lineage model's watermark by default */
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly sortKey: string = feedMarkKeys.watermark('lineage-model'),
  ) {}

  private keyOf(orgId: string) {
    return { pk: metaKey(orgId).pk, sk: this.sortKey };
  }

  async read(orgId: string): Promise<string | undefined> {
    const out = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: this.keyOf(orgId), ConsistentRead: true }));
    return typeof out.Item?.mark === 'string' ? out.Item.mark : undefined;
  }

  async advance(orgId: string, mark: string): Promise<void> {
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.keyOf(orgId),
          UpdateExpression: 'SET #m = :m',
          ConditionExpression: 'attribute_not_exists(#m) OR #m < :m',
          ExpressionAttributeNames: { '#m': 'mark' },
          ExpressionAttributeValues: { ':m': mark },
        }),
      );
    } catch (err) {
      // Already at or past `mark`: nothing to do.
      if ((err as { name?: string }).name !== 'ConditionalCheckFailedException') throw err;
    }
  }
}
