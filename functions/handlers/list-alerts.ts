/**
 * @module list-alerts
 * `GET /api/v1/alerts`: the caller's org's alerts, newest first, filtered and paged.
 */
import { alertDeps } from '#composition/index';
import { listAlerts } from '#domain/alerts/manage';
import { ListAlerts } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(ListAlerts, async ({ principal, query }) => ({ statusCode: 200, body: await listAlerts(alertDeps(), principal.orgId, query) }));
