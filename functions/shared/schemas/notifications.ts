/**
 * @module schemas/notifications
 * The webhooks' requests and answers (`/api/v1/webhooks`, ADR 0054): a destination (never its
 * secret, but for the one answer that creates it), a page of destinations, a delivery of the log
 * and a page of those.
 */
import { ValidationError } from '#domain/errors';
import { MAX_URL_CHARS } from '#domain/notifications/address-policy';
import { ALERT_KINDS, DESTINATION_ID_PATTERN } from '#domain/notifications/destinations';
import type { NewDestination } from '#domain/notifications/manage';
import type { PageRequest } from '#domain/notifications/deliveries';
import { z } from './zod.ts';

const AlertKindSchema = z.enum(ALERT_KINDS as ['RUN_FAILED', 'TEST_FAILED', 'LATE_TABLE', 'ODD_RUN']);
const DestinationKindSchema = z.enum(['webhook', 'slack']);

/** Largest description. */
const MAX_DESCRIPTION_CHARS = 500;

/** `POST /api/v1/webhooks`. */
export const CreateWebhookRequest = z
  .strictObject({
    url: z.string().min(1).max(MAX_URL_CHARS).openapi({ description: 'an https URL whose host resolves to public addresses only (the local profile also takes loopback, over http too)', example: 'https://hooks.example.com/lakeline' }),
    kind: DestinationKindSchema.optional().openapi({ description: 'webhook (default): the Standard Webhooks payload, signed; slack: a Slack incoming-webhook message' }),
    description: z.string().max(MAX_DESCRIPTION_CHARS).optional(),
    alertKinds: z.array(AlertKindSchema).max(ALERT_KINDS.length).optional().openapi({ description: 'only these alert kinds; absent or empty: every kind' }),
  })
  .openapi('CreateWebhookRequest');

/** Reads a creation request. @throws {ValidationError} naming each offending field */
export const parseCreateWebhookRequest = (value: unknown): NewDestination => {
  const parsed = CreateWebhookRequest.safeParse(value);
  if (!parsed.success) throw new ValidationError(parsed.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; '));
  const { url, kind, description, alertKinds } = parsed.data;
  return { url, kind: kind ?? 'webhook', alertKinds: alertKinds ?? [], ...(description === undefined ? {} : { description }) };
};

/** A destination as every answer but the creation shows it. */
export const Webhook = z
  .object({
    id: z.string().regex(DESTINATION_ID_PATTERN),
    kind: DestinationKindSchema,
    url: z.string().openapi({ description: "the URL; a Slack webhook's (itself a credential) shortened after creation" }),
    description: z.string().optional(),
    alertKinds: z.array(AlertKindSchema),
    createdAt: z.string(),
  })
  .openapi('Webhook');

/** The creation's answer: the destination and, this once, its signing secret. */
export const CreatedWebhook = Webhook.extend({
  secret: z.string().regex(/^whsec_[A-Za-z0-9+/]+=*$/).openapi({ description: 'the Standard Webhooks signing secret; shown in this answer only' }),
}).openapi('CreatedWebhook');

export const Webhooks = z.object({ webhooks: z.array(Webhook), next: z.string().optional().openapi({ description: 'pass as `after` for the next page' }) }).openapi('Webhooks');

/** One delivery of the log. */
export const WebhookDelivery = z
  .object({
    id: z.string().openapi({ description: 'also the webhook-id header' }),
    webhookId: z.string(),
    test: z.boolean(),
    alertId: z.string().optional(),
    alertKind: AlertKindSchema.optional(),
    transition: z.enum(['OPENED', 'UPDATED', 'ACKNOWLEDGED', 'RESOLVED']).optional(),
    sequence: z.int().optional(),
    status: z.enum(['PENDING', 'DELIVERED', 'FAILED']),
    attempts: z.int().min(0),
    lastStatusCode: z.int().optional(),
    lastError: z.string().optional(),
    createdAt: z.string(),
    lastAttemptAt: z.string().optional(),
    nextAttemptAt: z.string().optional(),
    deliveredAt: z.string().optional(),
  })
  .openapi('WebhookDelivery');

export const WebhookDeliveries = z.object({ deliveries: z.array(WebhookDelivery), next: z.string().optional() }).openapi('WebhookDeliveries');

/** A page cursor: base64url, at most 1,300 characters (a sort key of at most 975 bytes). */
const CURSOR_PATTERN = /^[A-Za-z0-9_-]{2,1300}$/;

/** Largest page. */
const MAX_PAGE = 100;
const DEFAULT_PAGE = 20;

/** `?limit=&after=` of the webhooks' listings. */
export const WebhookPageQuery = z
  .object({
    limit: z.int().min(1).max(MAX_PAGE).optional().openapi({ description: `default ${DEFAULT_PAGE}` }),
    after: z.string().regex(CURSOR_PATTERN).optional().openapi({ description: "the previous page's `next`" }),
  })
  .openapi('WebhookPageQuery');

/** Reads `limit` and `after`. @throws {ValidationError} naming the bad parameter */
export const parseWebhookPage = (params: Readonly<Record<string, string | undefined>>): PageRequest => {
  const unknown = Object.keys(params).find((name) => name !== 'limit' && name !== 'after');
  if (unknown !== undefined) throw new ValidationError(`unknown query parameter ${unknown} (limit, after)`);
  let limit = DEFAULT_PAGE;
  if (params.limit !== undefined) {
    if (!/^\d{1,4}$/.test(params.limit) || Number(params.limit) < 1 || Number(params.limit) > MAX_PAGE) throw new ValidationError(`limit: must be a whole number from 1 to ${MAX_PAGE}`);
    limit = Number(params.limit);
  }
  if (params.after !== undefined && !CURSOR_PATTERN.test(params.after)) throw new ValidationError("after: must be a page's `next` (2 to 1,300 base64url characters)");
  return { limit, ...(params.after === undefined ? {} : { after: params.after }) };
};

/** The `{id}` of a webhook's paths. */
export const WEBHOOK_ID_PARAM = { id: z.string().regex(DESTINATION_ID_PATTERN).openapi({ description: 'a webhook id (wh_ + 20 hex digits)', example: 'wh_0123456789abcdef0123' }) };
