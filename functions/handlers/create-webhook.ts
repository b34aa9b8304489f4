/**
 * @module create-webhook
 * `POST /api/v1/webhooks`: creates an alert destination of the caller's org, its URL refused (400,
 * naming why) when its host resolves to an address the deployment does not reach; the answer
 * carries the signing secret, which no later answer does.
 */
import { createDestination } from '#domain/notifications/manage';
import { notifications } from '#composition/index';
import { CreateWebhook } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(CreateWebhook, async ({ principal, body }) => {
  const ports = notifications();
  return { statusCode: 200, body: await createDestination({ store: ports.store, policy: ports.policy, resolver: ports.resolver, now: () => new Date() }, principal.orgId, body) };
});
