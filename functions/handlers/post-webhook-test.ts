/**
 * @module post-webhook-test
 * `POST /api/v1/webhooks/{id}/test`: queues a test delivery to one of the caller's org's
 * destinations (signed, retried and logged as any other) and answers its log entry, PENDING.
 */
import { deliveryView } from '#domain/notifications/deliveries';
import { sendTestDelivery } from '#domain/notifications/manage';
import { notifications } from '#composition/index';
import { PostWebhookTest } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(PostWebhookTest, async ({ principal, pathParameters }) => {
  const ports = notifications();
  const delivery = await sendTestDelivery({ store: ports.store, queue: ports.queue, policy: ports.policy, resolver: ports.resolver, now: () => new Date() }, principal.orgId, pathParameters.id ?? '');
  return { statusCode: 200, body: deliveryView(delivery) };
});
