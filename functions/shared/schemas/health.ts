/**
 * @module schemas/health
 * `GET /api/v1/health`: the caller's organization as the service sees it — each event feed
 * subscriber and how far it trails the org's newest stored event (ADR 0045).
 */
import { z } from './zod.ts';

/** One subscriber's standing in the org's feed. */
export const FeedSubscriberHealth = z
  .strictObject({
    subscriber: z.string().openapi({ example: 'lineage-model' }),
    appliedUpTo: z.string().nullable().openapi({ description: 'Receipt time (ISO 8601) of the newest event it applied; null when it applied none yet' }),
    lagMs: z
      .number()
      .int()
      .min(0)
      .nullable()
      .openapi({ description: 'Milliseconds between the newest stored event and the newest it applied (0: caught up); null when it applied none while events exist' }),
  })
  .openapi('FeedSubscriberHealth');

/** The answer of `GET /api/v1/health`. */
export const Health = z
  .strictObject({
    keyScope: z.enum(['full', 'read']).openapi({ description: "What the caller's key may do: `read` for a key created with `--read-only` (ADR 0049)" }),
    status: z.enum(['ok', 'lagging']).openapi({ description: '`lagging` when a subscriber trails the newest stored event by more than a minute (or applied none of them)' }),
    feed: z.strictObject({
      newestStoredAt: z.string().nullable().openapi({ description: "Receipt time (ISO 8601) of the organization's newest stored event; null when it has none" }),
      subscribers: z.array(FeedSubscriberHealth),
    }),
  })
  .openapi('Health');
