/**
 * @module list-webhook-deliveries
 * `GET /api/v1/webhooks/{id}/deliveries?limit=&after=`: a destination's delivery log, newest first.
 */
import { deliveryView } from '#domain/notifications/deliveries';
import { listDeliveries } from '#domain/notifications/manage';
import { notifications } from '#composition/index';
import { ListWebhookDeliveries } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(ListWebhookDeliveries, async ({ principal, pathParameters, query }) => {
  const page = await listDeliveries(notifications().store, principal.orgId, pathParameters.id ?? '', query);
  return { statusCode: 200, body: { deliveries: page.items.map(deliveryView), ...(page.next === undefined ? {} : { next: page.next }) } };
});
