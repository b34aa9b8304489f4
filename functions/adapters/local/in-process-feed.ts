/**
 * @module in-process-feed
 * The event feed of the local profile (ADR 0045): every subscriber the composition root lists gets
 * a queue of its own ({@link SubscriberQueue}), told of each event the store newly stored, so a
 * subscriber whose batches fail (retried on its own) or that runs slow holds up no other; each
 * catches up from its own watermark on start.
 */
import type { FeedEvent } from '#domain/feed/ports';
import type { EventStore } from '#domain/lineage/ports';
import type { SubscriberQueue } from './subscriber-queue.ts';

/** The in-process feed: one queue per subscriber. */
export class InProcessFeed {
  constructor(readonly queues: readonly SubscriberQueue[]) {}

  /** Hands events the store has just committed to every subscriber's queue; returns at once. */
  notify(orgId: string, events: readonly FeedEvent[]): void {
    for (const queue of this.queues) queue.notify(orgId, events);
  }

  /** Catches every subscriber up from its watermark, in the background (the stack calls it on start). */
  async start(): Promise<void> {
    await Promise.all(this.queues.map((q) => q.start()));
  }

  /** Resolves once no subscriber has anything queued or being applied. */
  async whenIdle(): Promise<void> {
    await Promise.all(this.queues.map((q) => q.whenIdle()));
  }

  /** Stops every queue after its batch in flight and writes the watermarks decided so far. */
  async stop(): Promise<void> {
    await Promise.all(this.queues.map((q) => q.stop()));
  }
}

/**
 * The event store, telling `onStored` of every event it newly stored once the write committed
 * (duplicates changed nothing, so they are not told). `onStored` must return at once.
 */
export const notifyingEventStore = (store: EventStore, onStored: (orgId: string, events: readonly FeedEvent[]) => void): EventStore => ({
  put: async (orgId, record) => {
    const outcome = await store.put(orgId, record);
    if (outcome === 'stored') onStored(orgId, [record.event]);
    return outcome;
  },
  putMany: async (orgId, records) => {
    const outcomes = await store.putMany(orgId, records);
    const stored = new Map<string, FeedEvent>();
    outcomes.forEach((o, i) => {
      const event = records[i]?.event;
      if (o.ok && o.outcome === 'stored' && event) stored.set(event.id, event);
    });
    if (stored.size > 0) onStored(orgId, [...stored.values()]);
    return outcomes;
  },
  list: (orgId, query) => store.list(orgId, query),
  count: (orgId, query) => store.count(orgId, query),
});
