/**
 * @module get-webhook
 * `GET /api/v1/webhooks/{id}`: one of the caller's org's destinations (no secret); 404 otherwise.
 */
import { getDestination } from '#domain/notifications/manage';
import { notifications } from '#composition/index';
import { GetWebhook } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(GetWebhook, async ({ principal, pathParameters }) => ({
  statusCode: 200,
  body: await getDestination(notifications().store, principal.orgId, pathParameters.id ?? ''),
}));
