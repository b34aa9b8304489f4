/**
 * @module post-alert-rule
 * `POST /api/v1/alert-rules`: adds a scoped alert rule to the caller's org and answers it.
 */
import { randomUUID } from 'node:crypto';
import { alertDeps } from '#composition/index';
import { createRule } from '#domain/alerts/manage';
import { PostAlertRule } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** Lambda entry point. */
export const handler = httpHandler(PostAlertRule, async ({ principal, body }) => ({ statusCode: 200, body: await createRule(alertDeps(), principal.orgId, body, `rule-${randomUUID()}`) }));
