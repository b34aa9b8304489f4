/**
 * @module list-webhooks
 * `GET /api/v1/webhooks?limit=&after=`: a page of the caller's org's destinations (no secrets).
 */
import { listDestinations } from '#domain/notifications/manage';
import { notifications } from '#composition/index';
import { ListWebhooks } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(ListWebhooks, async ({ principal, query }) => {
  const page = await listDestinations(notifications().store, principal.orgId, query);
  return { statusCode: 200, body: { webhooks: [...page.items], ...(page.next === undefined ? {} : { next: page.next }) } };
});
