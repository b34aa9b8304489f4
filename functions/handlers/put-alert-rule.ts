/**
 * @module put-alert-rule
 * `PUT /api/v1/alert-rules/{ruleId}`: replaces one of the caller's org's rules (a built-in one is tuned or turned off).
 */
import { alertDeps } from '#composition/index';
import { replaceRule } from '#domain/alerts/manage';
import { PutAlertRule } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(PutAlertRule, async ({ principal, pathParameters, body }) => ({ statusCode: 200, body: await replaceRule(alertDeps(), principal.orgId, pathParameters.ruleId ?? '', body) }));
