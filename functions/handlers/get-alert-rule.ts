/**
 * @module get-alert-rule
 * `GET /api/v1/alert-rules/{ruleId}`: one of the caller's org's rules; 404 otherwise.
 */
import { alertDeps } from '#composition/index';
import { getRule } from '#domain/alerts/manage';
import { GetAlertRule } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(GetAlertRule, async ({ principal, pathParameters }) => ({ statusCode: 200, body: await getRule(alertDeps(), principal.orgId, pathParameters.ruleId ?? '') }));
