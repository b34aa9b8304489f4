/**
 * @module deliver-notifications
 * The alert notifications' delivery Lambda (not an HTTP route; ADR 0054): reads the SQS FIFO
 * delivery queue, one message per invocation, and makes one attempt of its delivery; a failed
 * attempt goes back on the queue with its backoff as the message's visibility timeout.
 */
import { deliveryConsumer } from '#adapters/aws/sqs-delivery-queue';
import { attemptDelivery } from '#domain/notifications/deliver';
import { notifications } from '#composition/index';
import { logger } from '#shared/observability';

/** Lambda entry point. */
export const handler = deliveryConsumer(() => {
  const ports = notifications();
  return {
    attempt: (item) => attemptDelivery({ store: ports.store, sender: ports.sender, now: () => new Date() }, item),
    postpone: async (receiptHandle, seconds) => {
      if (!ports.postpone) throw new Error('configuration: the delivery queue is not bound to this function');
      await ports.postpone(receiptHandle, seconds);
    },
    log: logger,
  };
});
