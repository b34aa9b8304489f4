/**
 * @module post-alert-resolve
 * `POST /api/v1/alerts/{alertId}/resolve`: resolves one of the caller's org's alerts and answers it.
 */
import { alertDeps } from '#composition/index';
import { changeAlert } from '#domain/alerts/manage';
import { PostAlertResolve } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(PostAlertResolve, async ({ principal, pathParameters }) => ({
  statusCode: 200,
  body: await changeAlert(alertDeps(), principal.orgId, pathParameters.alertId ?? '', 'RESOLVE'),
}));
