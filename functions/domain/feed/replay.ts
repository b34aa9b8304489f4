/**
 * @module feed/replay
 * `lakeline feed replay --subscriber X --from T`: hands one subscriber again every event of an org
 * stored at or after T, in stored order and in batches, as the feed would (other subscribers are
 * not touched). Safe because handlers are idempotent (at least once, `FeedSubscriber`).
 */
import { highestMark, markAt } from './marks.ts';
import type { FeedDirectory, FeedSubscriber } from './ports.ts';

/** What a replay did for one org. */
export interface ReplaySummary {
  readonly orgId: string;
  readonly events: number;
  readonly batches: number;
}

/** The subscriber of that name; throws naming the known ones when there is none. */
export const subscriberNamed = (feed: FeedDirectory, name: string): FeedSubscriber => {
  const found = feed.subscribers.find((s) => s.name === name);
  if (!found) throw new RangeError(`no feed subscriber named "${name}" (known: ${feed.subscribers.map((s) => s.name).join(', ')})`);
  return found;
};

/** Re-delivers to `subscriber` the org's events stored at or after `from` (epoch milliseconds). */
export const replayFeed = async (feed: FeedDirectory, subscriber: FeedSubscriber, orgId: string, from: number, batchSize = 500): Promise<ReplaySummary> => {
  let events = 0;
  let batches = 0;
  for await (const batch of feed.events.after(orgId, markAt(from), batchSize)) {
    if (batch.length === 0) continue;
    await subscriber.handle(orgId, batch);
    await feed.applied(subscriber.name).advance(orgId, highestMark(batch) as string);
    events += batch.length;
    batches++;
  }
  return { orgId, events, batches };
};
