/**
 * @module delete-alert-rule
 * `DELETE /api/v1/alert-rules/{ruleId}`: deletes one of the caller's org's own rules and answers the rules left.
 */
import { alertDeps } from '#composition/index';
import { deleteRule, listRules } from '#domain/alerts/manage';
import { DeleteAlertRule } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(DeleteAlertRule, async ({ principal, pathParameters }) => {
  const deps = alertDeps();
  await deleteRule(deps, principal.orgId, pathParameters.ruleId ?? '');
  return { statusCode: 200, body: { rules: await listRules(deps, principal.orgId) } };
});
