/**
 * @module feed-messages
 * What the Events stream's fan-out puts on a subscriber's queue (ADR 0045): one message per org
 * and stream batch, holding the keys of the org's new events in stream order, not their bodies (a
 * body may be up to DynamoDB's 400 KB item limit, above SQS's 256 KB message limit); the
 * subscriber's Lambda reads the bodies back with consistent reads.
 */
import { z } from 'zod';

/** Keys per message: a key is under 150 bytes, so 1,000 stay far below the message limit. */
export const MAX_KEYS_PER_MESSAGE = 1_000;

/** One message on a subscriber's queue. */
export const FeedMessage = z.object({
  v: z.literal(1),
  orgId: z.string().min(1),
  /** The Events table keys (`pk`) of the org's new events, in the order the stream gave them. */
  keys: z.array(z.string().min(1)).min(1).max(MAX_KEYS_PER_MESSAGE),
});
export type FeedMessage = z.infer<typeof FeedMessage>;

/** Reads a message body; throws naming what is wrong. */
export const parseFeedMessage = (body: string): FeedMessage => FeedMessage.parse(JSON.parse(body));
