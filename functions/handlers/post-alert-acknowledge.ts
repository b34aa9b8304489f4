/**
 * @module post-alert-acknowledge
 * `POST /api/v1/alerts/{alertId}/acknowledge`: acknowledges one of the caller's org's alerts and answers it.
 */
import { alertDeps } from '#composition/index';
import { changeAlert } from '#domain/alerts/manage';
import { PostAlertAcknowledge } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(PostAlertAcknowledge, async ({ principal, pathParameters }) => ({
  statusCode: 200,
  body: await changeAlert(alertDeps(), principal.orgId, pathParameters.alertId ?? '', 'ACKNOWLEDGE'),
}));
