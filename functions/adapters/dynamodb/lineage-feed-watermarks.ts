/**
 * @module lineage-feed-watermarks
 * The local lineage feed's durable watermark per org, one small item beside the org's generation
 * pointer in the Lineage table (`<org>#META`, sort key `FEED`: the META partition is never deleted
 * by a rebuild). A conditional update only ever moves it up.
 */
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { FeedWatermarks } from '#domain/lineage-graph/ports';
import { metaKey } from './lineage-items.ts';

const keyOf = (orgId: string) => ({ pk: metaKey(orgId).pk, sk: 'FEED' });

/** {@link FeedWatermarks} on the Lineage table. */
export class DynamoFeedWatermarks implements FeedWatermarks {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async read(orgId: string): Promise<string | undefined> {
    const out = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: keyOf(orgId), ConsistentRead: true }));
    return typeof out.Item?.mark === 'string' ? out.Item.mark : undefined;
  }

  async advance(orgId: string, mark: string): Promise<void> {
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keyOf(orgId),
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
