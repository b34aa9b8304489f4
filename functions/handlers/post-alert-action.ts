/**
 * @module post-alert-action
 * `POST /api/v1/alerts/{alertId}/acknowledge` and `…/resolve`: acknowledges or resolves one of the
 * caller's org's alerts and answers it; any other action is a 400 naming it.
 */
import { ValidationError } from '#domain/errors';
import { alertDeps } from '#composition/index';
import { changeAlert } from '#domain/alerts/manage';
import { PostAlertAction } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(PostAlertAction, async ({ principal, pathParameters }) => {
  const action = ACTIONS[pathParameters.action ?? ''];
  if (action === undefined) throw new ValidationError(`action: ${pathParameters.action ?? ''} is not one of acknowledge, resolve`);
  return { statusCode: 200, body: await changeAlert(alertDeps(), principal.orgId, pathParameters.alertId ?? '', action) };
});

const ACTIONS: Readonly<Record<string, 'ACKNOWLEDGE' | 'RESOLVE'>> = { acknowledge: 'ACKNOWLEDGE', resolve: 'RESOLVE' };
