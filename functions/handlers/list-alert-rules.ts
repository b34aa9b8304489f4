/**
 * @module list-alert-rules
 * `GET /api/v1/alert-rules`: the caller's org's alert rules (the built-in ones first).
 */
import { alertDeps } from '#composition/index';
import { listRules } from '#domain/alerts/manage';
import { ListAlertRules } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(ListAlertRules, async ({ principal }) => ({ statusCode: 200, body: { rules: await listRules(alertDeps(), principal.orgId) } }));
