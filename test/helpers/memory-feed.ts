/**
 * @module memory-feed
 * The event feed's ports in memory for unit tests: a stored order per org (which is also the head),
 * marks per org, and a subscriber that records what it was handed (and can be told to fail).
 */
import { feedMarkOf } from '#domain/feed/marks';
import type { FeedDirectory, FeedEvent, FeedHead, FeedSubscriber, OrgMarks, StoredEventFeed } from '#domain/feed/ports';
import { prepareEvent } from '#domain/lineage/derive';
import { runEventJson, type RunEventSpec } from '../unit/domain/lineage-graph/events.ts';

/** A stored event received at `receivedAt`, as ingestion stores it. */
export const storedAt = (spec: RunEventSpec, receivedAt: Date): FeedEvent => {
  const text = JSON.stringify(runEventJson(spec));
  const prepared = prepareEvent(JSON.parse(text), Buffer.byteLength(text), receivedAt);
  if (!prepared.ok) throw new Error(`invalid test event: ${prepared.error}`);
  return prepared.event;
};

/** Stored events per org, in stored order. */
export class MemoryEventFeed implements StoredEventFeed, FeedHead {
  readonly byOrg = new Map<string, FeedEvent[]>();

  store(orgId: string, ...events: FeedEvent[]): void {
    const all = [...(this.byOrg.get(orgId) ?? []), ...events].sort((a, b) => (feedMarkOf(a) < feedMarkOf(b) ? -1 : 1));
    this.byOrg.set(orgId, all);
  }

  async *after(orgId: string, mark: string, batchSize: number): AsyncIterable<readonly FeedEvent[]> {
    const above = (this.byOrg.get(orgId) ?? []).filter((e) => feedMarkOf(e) > mark);
    for (let i = 0; i < above.length; i += batchSize) yield above.slice(i, i + batchSize);
  }

  async newest(orgId: string): Promise<string | undefined> {
    const all = this.byOrg.get(orgId) ?? [];
    return all.length === 0 ? undefined : feedMarkOf(all.at(-1) as FeedEvent);
  }
}

/** Marks per org that only move up. */
export class MemoryOrgMarks implements OrgMarks {
  readonly marks = new Map<string, string>();
  async read(orgId: string): Promise<string | undefined> {
    return this.marks.get(orgId);
  }
  async advance(orgId: string, mark: string): Promise<void> {
    const before = this.marks.get(orgId);
    if (before === undefined || mark > before) this.marks.set(orgId, mark);
  }
}

/** A subscriber that records each batch; `failFor` makes its batches of those orgs throw. */
export class RecordingSubscriber implements FeedSubscriber {
  readonly batches: { orgId: string; ids: string[] }[] = [];
  readonly failFor = new Set<string>();
  constructor(readonly name: string) {}
  async handle(orgId: string, events: readonly FeedEvent[]): Promise<void> {
    if (this.failFor.has(orgId)) throw new Error(`${this.name}: poisoned batch of ${orgId}`);
    this.batches.push({ orgId, ids: events.map((e) => e.id) });
  }
  ids(orgId: string): string[] {
    return this.batches.filter((b) => b.orgId === orgId).flatMap((b) => b.ids);
  }
}

/** A feed directory over memory parts. */
export const memoryFeedDirectory = (subscribers: FeedSubscriber[], events = new MemoryEventFeed()): FeedDirectory & { readonly events: MemoryEventFeed; readonly marks: Map<string, MemoryOrgMarks> } => {
  const marks = new Map<string, MemoryOrgMarks>();
  return {
    subscribers,
    head: events,
    events,
    marks,
    applied: (name) => {
      const found = marks.get(name) ?? new MemoryOrgMarks();
      marks.set(name, found);
      return found;
    },
  };
};
