/**
 * The event feed's use cases on memory ports: each subscriber's lag behind the newest stored
 * event of an org, and a replay that hands one subscriber the org's events stored at or after a
 * time, in stored order and in batches, touching no other subscriber.
 */
import { describe, expect, it } from 'vitest';
import { feedLag } from '#domain/feed/lag';
import { feedMarkOf } from '#domain/feed/marks';
import { replayFeed, subscriberNamed } from '#domain/feed/replay';
import { memoryFeedDirectory, RecordingSubscriber, storedAt } from '../../../helpers/memory-feed.ts';
import { newRunId } from '../lineage-graph/events.ts';

const at = (iso: string) => new Date(iso);
const event = (receivedAt: string) => storedAt({ eventType: 'COMPLETE', time: '2030-01-01T00:00:00Z', runId: newRunId(), job: 'extract', inputs: ['s3://raw:orders'], outputs: ['warehouse:staging.orders'] }, at(receivedAt));

describe('feed lag', () => {
  it("Should measure each subscriber's lag from the newest stored event, 0 once caught up and null when it applied none", async () => {
    // Prepare
    const feed = memoryFeedDirectory([new RecordingSubscriber('lineage-model'), new RecordingSubscriber('alerts'), new RecordingSubscriber('lake')]);
    const first = event('2026-11-27T10:00:00.000Z');
    const newest = event('2026-11-27T10:00:05.500Z');
    feed.events.store('org-a', first, newest);
    await feed.applied('lineage-model').advance('org-a', feedMarkOf(newest));
    await feed.applied('alerts').advance('org-a', feedMarkOf(first));
    // Act
    const lag = await feedLag(feed, 'org-a');
    // Assess
    expect(lag).toEqual({
      newestStoredAt: '2026-11-27T10:00:05.500Z',
      subscribers: [
        { subscriber: 'lineage-model', appliedUpTo: '2026-11-27T10:00:05.500Z', lagMs: 0 },
        { subscriber: 'alerts', appliedUpTo: '2026-11-27T10:00:00.000Z', lagMs: 5_500 },
        { subscriber: 'lake', appliedUpTo: null, lagMs: null },
      ],
    });
  });

  it('Should answer no lag for an org with no stored events', async () => {
    // Act
    const lag = await feedLag(memoryFeedDirectory([new RecordingSubscriber('lineage-model')]), 'org-empty');
    // Assess
    expect(lag).toEqual({ newestStoredAt: null, subscribers: [{ subscriber: 'lineage-model', appliedUpTo: null, lagMs: 0 }] });
  });
});

describe('feed replay', () => {
  it('Should hand one subscriber the events stored at or after the time, in stored order and batches, and record how far it got', async () => {
    // Prepare
    const model = new RecordingSubscriber('lineage-model');
    const alerts = new RecordingSubscriber('alerts');
    const feed = memoryFeedDirectory([model, alerts]);
    const events = ['09:59:59.999', '10:00:00.000', '10:00:01.000', '10:00:02.000', '10:00:03.000'].map((t) => event(`2026-11-27T${t}Z`));
    feed.events.store('org-a', ...events);
    feed.events.store('org-b', event('2026-11-27T11:00:00.000Z'));
    // Act
    const summary = await replayFeed(feed, subscriberNamed(feed, 'alerts'), 'org-a', Date.parse('2026-11-27T10:00:00Z'), 2);
    // Assess
    expect(summary).toEqual({ orgId: 'org-a', events: 4, batches: 2 });
    expect(alerts.batches.map((b) => b.ids)).toEqual([events.slice(1, 3).map((e) => e.id), events.slice(3).map((e) => e.id)]);
    expect(model.batches).toEqual([]);
    expect(await feed.applied('alerts').read('org-a')).toBe(feedMarkOf(events.at(-1) as (typeof events)[number]));
    expect(await feed.applied('lineage-model').read('org-a')).toBeUndefined();
  });

  it('Should refuse an unknown subscriber, naming the known ones', () => {
    // Act / Assess
    expect(() => subscriberNamed(memoryFeedDirectory([new RecordingSubscriber('lineage-model')]), 'alert')).toThrow('no feed subscriber named "alert" (known: lineage-model)');
  });
});
