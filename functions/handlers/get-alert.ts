/**
 * @module get-alert
 * `GET /api/v1/alerts/{alertId}`: one of the caller's org's alerts with its runs and blast radius; 404 otherwise.
 */
import { alertDeps } from '#composition/index';
import { getAlert } from '#domain/alerts/manage';
import { GetAlert } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(GetAlert, async ({ principal, pathParameters }) => ({ statusCode: 200, body: await getAlert(alertDeps(), principal.orgId, pathParameters.alertId ?? '') }));
