/**
 * @module delete-webhook
 * `DELETE /api/v1/webhooks/{id}`: deletes one of the caller's org's destinations and answers it;
 * its queued deliveries end FAILED ("the webhook was deleted"). 404 for an unknown id.
 */
import { deleteDestination } from '#domain/notifications/manage';
import { notifications } from '#composition/index';
import { DeleteWebhook } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(DeleteWebhook, async ({ principal, pathParameters }) => ({
  statusCode: 200,
  body: await deleteDestination(notifications().store, principal.orgId, pathParameters.id ?? ''),
}));
