/**
 * @module feed/lag
 * How far each subscriber trails the newest stored event of an organization: the receipt time of
 * the newest stored event minus that of the newest event the subscriber applied (0 once it applied
 * the newest). Measured on the marks, so it is the same figure in both profiles.
 */
import { millisOfMark } from './marks.ts';
import type { FeedDirectory } from './ports.ts';

/** One subscriber's standing in an org's feed. */
export interface SubscriberLag {
  readonly subscriber: string;
  /** Receipt time of the newest event it applied (ISO 8601); null when it applied none yet. */
  readonly appliedUpTo: string | null;
  /** Milliseconds between the newest stored event and the newest it applied; null when it applied none while events exist. */
  readonly lagMs: number | null;
}

/** The feed of one org as the health answer shows it. */
export interface FeedLag {
  /** Receipt time of the org's newest stored event; null when it has none. */
  readonly newestStoredAt: string | null;
  readonly subscribers: readonly SubscriberLag[];
}

const receivedAtOf = (mark: string | undefined): string | null => (mark === undefined ? null : new Date(millisOfMark(mark)).toISOString());

/** Each subscriber's lag behind the org's newest stored event. */
export const feedLag = async (feed: FeedDirectory, orgId: string): Promise<FeedLag> => {
  const [head, ...applied] = await Promise.all([feed.head.newest(orgId), ...feed.subscribers.map((s) => feed.applied(s.name).read(orgId))]);
  return {
    newestStoredAt: receivedAtOf(head),
    subscribers: feed.subscribers.map((s, i) => {
      const mark = applied[i];
      const lagMs = head === undefined ? 0 : mark === undefined ? null : mark >= head ? 0 : Math.max(0, millisOfMark(head) - millisOfMark(mark));
      return { subscriber: s.name, appliedUpTo: receivedAtOf(mark), lagMs };
    }),
  };
};
