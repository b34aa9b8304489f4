/**
 * @module local-delivery-queue
 * The local profile's durable delivery queue (ADR 0054): one item per queued delivery in the
 * Notifications table's `QUEUE` partition of the local DynamoDB, written before `enqueue` returns
 * and deleted only once its delivery is done, so a stack killed mid-delivery finds it again on its
 * next start (at least once). The sort key orders items by lane (org, destination, alert) and then
 * by sequence, so a lane's head is its first item in key order.
 */
import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { DeliveryQueue, QueuedDelivery } from '#domain/notifications/deliveries';

/** The queue's partition in the Notifications table. */
export const QUEUE_PARTITION = 'QUEUE';

/** A queued item with when it is due. */
export interface LocalQueueItem extends QueuedDelivery {
  /** The lane: deliveries of one lane leave one at a time, in `sequence` order. */
  readonly lane: string;
  /** Epoch milliseconds of its next attempt. */
  readonly dueAt: number;
  /** The item's key in the queue. */
  readonly key: string;
}

/** `#` separates key parts, so ids carrying one are escaped. */
const part = (value: string): string => encodeURIComponent(value);

const laneOf = (item: QueuedDelivery): string => [item.orgId, item.destinationId, item.alertId].map(part).join('#');
const keyOf = (item: QueuedDelivery): string => `${laneOf(item)}#${String(item.sequence).padStart(16, '0')}#${part(item.deliveryId)}`;

/** The durable local queue, told to its worker by `onEnqueued` (in the same process). */
export class DynamoLocalDeliveryQueue implements DeliveryQueue {
  /** Called after items were durably queued (the worker wakes at once rather than at its next poll). */
  onEnqueued: () => void = () => undefined;

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly now: () => number = Date.now,
    /** The partition holding the items (a test's own queue takes another, beside a running stack's). */
    private readonly partition: string = QUEUE_PARTITION,
  ) {}

  async enqueue(items: readonly QueuedDelivery[]): Promise<void> {
    for (const item of items) {
      const key = keyOf(item);
      // The key is the delivery's: queueing the same delivery twice leaves one item, due as first queued.
      await this.doc.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { pk: this.partition, sk: key, orgId: item.orgId, destinationId: item.destinationId, deliveryId: item.deliveryId, alertId: item.alertId, sequence: item.sequence, dueAt: this.now() },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ).catch((err: unknown) => {
        if ((err as { name?: string }).name !== 'ConditionalCheckFailedException') throw err;
      });
    }
    if (items.length > 0) this.onEnqueued();
  }

  /** Every queued item, in key order (lanes together, each by sequence). */
  async pending(): Promise<LocalQueueItem[]> {
    const items: LocalQueueItem[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.doc.send(
        new QueryCommand({ TableName: this.tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': this.partition }, ExclusiveStartKey: start, ConsistentRead: true }),
      );
      for (const item of out.Items ?? []) {
        const queued: QueuedDelivery = { orgId: item.orgId, destinationId: item.destinationId, deliveryId: item.deliveryId, alertId: item.alertId, sequence: item.sequence };
        items.push({ ...queued, lane: laneOf(queued), dueAt: item.dueAt as number, key: item.sk as string });
      }
      start = out.LastEvaluatedKey;
    } while (start);
    return items;
  }

  /** Puts an item back, due at `dueAt`. */
  async postpone(item: LocalQueueItem, dueAt: number): Promise<void> {
    await this.doc.send(new UpdateCommand({ TableName: this.tableName, Key: { pk: this.partition, sk: item.key }, UpdateExpression: 'SET dueAt = :due', ExpressionAttributeValues: { ':due': dueAt } }));
  }

  /** Takes a done item off the queue. */
  async remove(item: LocalQueueItem): Promise<void> {
    await this.doc.send(new DeleteCommand({ TableName: this.tableName, Key: { pk: this.partition, sk: item.key } }));
  }
}
