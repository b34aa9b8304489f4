/**
 * @module notification-store
 * NotificationStore on DynamoDB (the Notifications table, ADR 0054). Items:
 * - a destination: `pk = <orgId>#WEBHOOKS`, `sk = <id>`;
 * - a delivery: `pk = <orgId>#DELIVERIES#<destinationId>`, `sk = <deliveryId>` (created only if
 *   absent: a notice given twice records nothing new), and `gpk = pk`, `gsk = <createdAt>#<id>` for
 *   the log's newest-first listing through `byTime`.
 * Every key starts with the org's id, so no read of one org can reach another's items.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Delivery, DeliveryChange, NotificationStore, PageRequest, Paged } from '#domain/notifications/deliveries';
import type { Destination } from '#domain/notifications/destinations';

const destinationsKey = (orgId: string): string => `${orgId}#WEBHOOKS`;
const deliveriesKey = (orgId: string, destinationId: string): string => `${orgId}#DELIVERIES#${destinationId}`;

/**
 * A page cursor: the sort key the page ended at, base64url (opaque to clients). Any cursor is a
 * position within the caller's own partition, so a cursor of another listing, or another org's,
 * only starts a page somewhere in the caller's own items: it reaches nothing else.
 */
const cursorOf = (sortKey: string): string => Buffer.from(sortKey, 'utf8').toString('base64url');
const sortKeyOf = (cursor: string): string => Buffer.from(cursor, 'base64url').toString('utf8');

const paged = <T>(items: readonly T[], last: Record<string, unknown> | undefined, sortKey: string): Paged<T> => {
  const position = last?.[sortKey];
  return typeof position === 'string' ? { items, next: cursorOf(position) } : { items };
};

/** The log's start key after `gsk` (`<createdAt>#<deliveryId>`): the base table's key follows from it. */
const deliveryStartKey = (gpk: string, gsk: string): Record<string, string> => {
  const id = gsk.slice(gsk.lastIndexOf('#') + 1);
  return { gpk, gsk, pk: gpk, sk: id === '' ? gsk : id };
};

const toDestination = (item: Record<string, unknown>): Destination => ({
  orgId: item.orgId as string,
  id: item.sk as string,
  kind: item.kind as Destination['kind'],
  url: item.url as string,
  ...(typeof item.description === 'string' ? { description: item.description } : {}),
  alertKinds: (item.alertKinds as Destination['alertKinds'] | undefined) ?? [],
  secret: item.secret as string,
  createdAt: item.createdAt as string,
});

const DELIVERY_FIELDS = ['alertId', 'alertKind', 'transition', 'sequence', 'lastStatusCode', 'lastError', 'lastAttemptAt', 'nextAttemptAt', 'deliveredAt'] as const;

const toDelivery = (item: Record<string, unknown>): Delivery =>
  ({
    orgId: item.orgId,
    destinationId: item.destinationId,
    id: item.sk,
    test: item.test === true,
    status: item.status,
    attempts: item.attempts,
    createdAt: item.createdAt,
    body: item.body,
    ...Object.fromEntries(DELIVERY_FIELDS.flatMap((field) => (item[field] === undefined ? [] : [[field, item[field]]]))),
  }) as Delivery;

/** DynamoDB-backed {@link NotificationStore}. */
export class DynamoNotificationStore implements NotificationStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async putDestination(destination: Destination): Promise<void> {
    await this.doc.send(new PutCommand({ TableName: this.tableName, Item: { pk: destinationsKey(destination.orgId), sk: destination.id, ...destination, id: undefined }, ConditionExpression: 'attribute_not_exists(pk)' }));
  }

  async getDestination(orgId: string, id: string): Promise<Destination | undefined> {
    const out = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: { pk: destinationsKey(orgId), sk: id }, ConsistentRead: true }));
    return out.Item ? toDestination(out.Item) : undefined;
  }

  async listDestinations(orgId: string, page: PageRequest): Promise<Paged<Destination>> {
    const pk = destinationsKey(orgId);
    const out = await this.doc.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        Limit: page.limit,
        ...(page.after === undefined ? {} : { ExclusiveStartKey: { pk, sk: sortKeyOf(page.after) } }),
        ConsistentRead: true,
      }),
    );
    return paged((out.Items ?? []).map(toDestination), out.LastEvaluatedKey, 'sk');
  }

  async allDestinations(orgId: string): Promise<readonly Destination[]> {
    const all: Destination[] = [];
    let after: string | undefined;
    do {
      const page = await this.listDestinations(orgId, { limit: 100, ...(after === undefined ? {} : { after }) });
      all.push(...page.items);
      after = page.next;
    } while (after !== undefined);
    return all;
  }

  async deleteDestination(orgId: string, id: string): Promise<boolean> {
    const out = await this.doc.send(new DeleteCommand({ TableName: this.tableName, Key: { pk: destinationsKey(orgId), sk: id }, ReturnValues: 'ALL_OLD' }));
    return out.Attributes !== undefined;
  }

  async createDelivery(delivery: Delivery): Promise<boolean> {
    const pk = deliveriesKey(delivery.orgId, delivery.destinationId);
    try {
      await this.doc.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...delivery, id: undefined, pk, sk: delivery.id, gpk: pk, gsk: `${delivery.createdAt}#${delivery.id}` },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return true;
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException || (err as { name?: string }).name === 'ConditionalCheckFailedException') return false;
      throw err;
    }
  }

  async getDelivery(orgId: string, destinationId: string, id: string): Promise<Delivery | undefined> {
    const out = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: { pk: deliveriesKey(orgId, destinationId), sk: id }, ConsistentRead: true }));
    return out.Item ? toDelivery(out.Item) : undefined;
  }

  async updateDelivery(orgId: string, destinationId: string, id: string, change: DeliveryChange): Promise<void> {
    const entries = Object.entries(change).filter(([, v]) => v !== undefined);
    // A delivery no longer waiting has no next attempt.
    const remove = change.nextAttemptAt === undefined ? ' REMOVE #next' : '';
    await this.doc.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: deliveriesKey(orgId, destinationId), sk: id },
        UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}${remove}`,
        ExpressionAttributeNames: { ...Object.fromEntries(entries.map(([k], i) => [`#f${i}`, k])), ...(remove ? { '#next': 'nextAttemptAt' } : {}) },
        ExpressionAttributeValues: Object.fromEntries(entries.map(([, v], i) => [`:v${i}`, v])),
        ConditionExpression: 'attribute_exists(pk)',
      }),
    );
  }

  async listDeliveries(orgId: string, destinationId: string, page: PageRequest): Promise<Paged<Delivery>> {
    const gpk = deliveriesKey(orgId, destinationId);
    const out = await this.doc.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: 'byTime',
        KeyConditionExpression: 'gpk = :gpk',
        ExpressionAttributeValues: { ':gpk': gpk },
        ScanIndexForward: false,
        Limit: page.limit,
        ...(page.after === undefined ? {} : { ExclusiveStartKey: deliveryStartKey(gpk, sortKeyOf(page.after)) }),
      }),
    );
    return paged((out.Items ?? []).map(toDelivery), out.LastEvaluatedKey, 'gsk');
  }
}
