/**
 * @module sqs-delivery-queue
 * The delivery queue in AWS (ADR 0054): an SQS FIFO queue whose message group is a lane — an org,
 * a destination and an alert — so a later notice of an alert waits for the earlier, and lanes (and
 * so orgs) never wait for each other: Lambda's FIFO poller runs as many lanes at once as have
 * messages. The deduplication id is the delivery's id (a notice given twice within five minutes is
 * queued once; after that its log entry, no longer PENDING, makes the copy a no-op).
 * {@link deliveryConsumer} is the queue's Lambda: one message per invocation, and a failed attempt
 * is put back with its backoff as the message's visibility timeout.
 */
import { createHash } from 'node:crypto';
import { ChangeMessageVisibilityCommand, SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { AttemptOutcome } from '#domain/notifications/deliver';
import type { DeliveryQueue, QueuedDelivery } from '#domain/notifications/deliveries';

/** SQS takes at most 10 messages per batch. */
const SQS_BATCH = 10;
/** SQS's longest visibility timeout (12 hours). */
const MAX_VISIBILITY_SECONDS = 43_200;

/** A lane's message group id (SQS allows 128 characters; a hash keeps any alert id within them). */
export const messageGroupOf = (item: QueuedDelivery): string => createHash('sha256').update(`${item.orgId}\n${item.destinationId}\n${item.alertId}`).digest('hex');

/** Reads a message body back; throws on anything else. */
export const parseQueuedDelivery = (body: string): QueuedDelivery => {
  const value = JSON.parse(body) as Partial<QueuedDelivery>;
  if (typeof value.orgId !== 'string' || typeof value.destinationId !== 'string' || typeof value.deliveryId !== 'string' || typeof value.alertId !== 'string' || typeof value.sequence !== 'number') {
    throw new Error('not a queued delivery');
  }
  return { orgId: value.orgId, destinationId: value.destinationId, deliveryId: value.deliveryId, alertId: value.alertId, sequence: value.sequence };
};

/** The FIFO queue as a {@link DeliveryQueue}. */
export class SqsDeliveryQueue implements DeliveryQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async enqueue(items: readonly QueuedDelivery[]): Promise<void> {
    for (let i = 0; i < items.length; i += SQS_BATCH) {
      const batch = items.slice(i, i + SQS_BATCH);
      const out = await this.sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: this.queueUrl,
          Entries: batch.map((item, n) => ({ Id: String(n), MessageBody: JSON.stringify(item), MessageGroupId: messageGroupOf(item), MessageDeduplicationId: item.deliveryId })),
        }),
      );
      if (out.Failed && out.Failed.length > 0) throw new Error(`the delivery queue refused ${out.Failed.length} message(s): ${out.Failed[0]?.Code ?? ''} ${out.Failed[0]?.Message ?? ''}`.trim());
    }
  }

  /** Hides a received message for `seconds` (its retry's backoff). */
  async postpone(receiptHandle: string, seconds: number): Promise<void> {
    await this.sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: this.queueUrl, ReceiptHandle: receiptHandle, VisibilityTimeout: Math.min(MAX_VISIBILITY_SECONDS, Math.max(0, Math.ceil(seconds))) }));
  }
}

/** What the consumer needs. */
export interface DeliveryConsumerDeps {
  readonly attempt: (item: QueuedDelivery) => Promise<AttemptOutcome>;
  readonly postpone: (receiptHandle: string, seconds: number) => Promise<void>;
  readonly log: { error(message: string, fields: Record<string, unknown>): void };
}

/**
 * The queue's Lambda handler. A message that failed (its attempt to be retried, or an error) is
 * reported in `batchItemFailures`, with every later message of its lane in the invocation, so the
 * lane's order holds; after the queue's receive limit a message goes to the dead-letter queue.
 */
export const deliveryConsumer =
  (deps: () => DeliveryConsumerDeps) =>
  async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const failures: string[] = [];
    const failedGroups = new Set<string>();
    for (const record of event.Records) {
      const group = record.attributes.MessageGroupId ?? record.messageId;
      if (failedGroups.has(group)) {
        failures.push(record.messageId);
        continue;
      }
      try {
        const outcome = await deps().attempt(parseQueuedDelivery(record.body));
        if (outcome.outcome === 'retry') {
          await deps().postpone(record.receiptHandle, outcome.afterMs / 1000);
          failures.push(record.messageId);
          failedGroups.add(group);
        }
      } catch (error) {
        deps().log.error('delivery attempt failed; the queue retries it', { messageId: record.messageId, error });
        failures.push(record.messageId);
        failedGroups.add(group);
      }
    }
    return { batchItemFailures: failures.map((itemIdentifier) => ({ itemIdentifier })) };
  };
