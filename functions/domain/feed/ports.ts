/**
 * @module feed/ports
 * The event feed (ADR 0045): every stored lineage event, handed to each subscriber in order per
 * organization, at least once, in batches, each subscriber with a durable watermark of its own.
 * Subscribers (the lineage model today; alerts and the lineage lake tables next) are a name and a
 * handler; the composition roots list them and the profile's feed adapter delivers to them: the
 * in-process feed locally, the stream fan-out to a queue per subscriber in AWS.
 */
import type { StoredLineageEvent } from '../lineage/types.ts';

/** A stored event as the feed carries it (with `received_at`, its place in the org's feed). */
export type FeedEvent = StoredLineageEvent;

/**
 * A reader of the feed. The handler must be idempotent and tolerate a batch it has seen before
 * (at least once: a retry, a catch-up after a crash or a replay re-delivers events); batches of one
 * org arrive in stored order, but two of its batches may overlap in time in AWS (parallel retries),
 * so a handler must converge whatever order they finish in.
 */
export interface FeedSubscriber {
  /** Stable name: the queue's, the watermark's and the CLI's (`lakeline feed replay --subscriber`). */
  readonly name: string;
  /** Takes one org's batch; a throw fails the batch (for this subscriber only), which is delivered again. */
  handle(orgId: string, events: readonly FeedEvent[]): Promise<void>;
}

/**
 * Port: an organization's stored events in the order they were stored. A position in it is a mark
 * (`feedMarkOf`): events stored at the same microsecond are ordered by id.
 */
export interface StoredEventFeed {
  /** The org's events whose mark is above `mark` (`''`: all of them), in batches of at most `batchSize`, in stored order. */
  after(orgId: string, mark: string, batchSize: number): AsyncIterable<readonly FeedEvent[]>;
}

/** Port: a durable mark per organization that only moves up (a subscriber's watermark, the feed's head). */
export interface OrgMarks {
  /** The org's mark; `undefined` when none was ever written. */
  read(orgId: string): Promise<string | undefined>;
  /** Moves the org's mark up to `mark`; never down (a lower mark is ignored). */
  advance(orgId: string, mark: string): Promise<void>;
}

/** Port: the newest stored event's mark per organization (the head the lag is measured from). */
export interface FeedHead {
  newest(orgId: string): Promise<string | undefined>;
}

/** What the feed knows of its subscribers, for the lag in the health answer and for replays. */
export interface FeedDirectory {
  readonly subscribers: readonly FeedSubscriber[];
  readonly head: FeedHead;
  /** The highest mark each subscriber has applied, per org (what its lag is measured by). */
  applied(subscriber: string): OrgMarks;
  /** The org's stored events in stored order (replays read them). */
  readonly events: StoredEventFeed;
}
