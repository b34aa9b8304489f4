/**
 * The local event feed with several subscribers, on the real local DynamoDB (ADR 0045): each
 * subscriber has a queue of its own, so one whose batches of an org fail (a poisoned batch) holds
 * up neither the other subscriber nor its own other orgs, and gets the org's events once it
 * recovers; each catches up from its own watermark on start; each has its own lag (from the
 * receipt index's head and its applied mark); and a replay hands one subscriber the events stored
 * since a time, touching no other.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { DirectoryBlobStore } from '#adapters/blob/directory-blob-store';
import { createDocumentClient, localDynamoClient } from '#adapters/dynamodb/clients';
import { DynamoEventFeed } from '#adapters/dynamodb/event-feed';
import { DynamoEventStore } from '#adapters/dynamodb/event-store';
import { DynamoFeedWatermarks, feedMarkKeys } from '#adapters/dynamodb/lineage-feed-watermarks';
import { InProcessFeed, notifyingEventStore } from '#adapters/local/in-process-feed';
import { SubscriberQueue } from '#adapters/local/subscriber-queue';
import { localTableName } from '#composition/config';
import { feedLag } from '#domain/feed/lag';
import type { FeedDirectory } from '#domain/feed/ports';
import { replayFeed } from '#domain/feed/replay';
import { prepareEvent } from '#domain/lineage/derive';
import type { EventRecord } from '#domain/lineage/ports';
import { EVENTS_TABLE, LINEAGE_TABLE } from '#shared/table-definitions';
import { RecordingSubscriber } from '../helpers/memory-feed.ts';
import { newRunId, runEventJson } from '../unit/domain/lineage-graph/events.ts';

const client = localDynamoClient(inject('stack').dynamodbEndpoint);
const doc = createDocumentClient(client);
const blobDir = mkdtempSync(path.join(os.tmpdir(), 'event-feed-'));
const blobs = () => new DirectoryBlobStore(blobDir);
const events = new DynamoEventStore(doc, localTableName(EVENTS_TABLE), blobs, { feed: true });
const stored = new DynamoEventFeed(doc, localTableName(EVENTS_TABLE), blobs);
const marks = (sortKey: string) => new DynamoFeedWatermarks(doc, localTableName(LINEAGE_TABLE), sortKey);

afterAll(() => {
  client.destroy();
  rmSync(blobDir, { recursive: true, force: true });
});

const record = (receivedAt = new Date()): EventRecord => {
  const rawText = JSON.stringify(runEventJson({ eventType: 'COMPLETE', time: '2030-01-01T00:00:00Z', runId: newRunId(), job: 'extract', inputs: ['s3://raw:orders'], outputs: ['warehouse:staging.orders'] }));
  const prepared = prepareEvent(JSON.parse(rawText), Buffer.byteLength(rawText), receivedAt);
  if (!prepared.ok) throw new Error(prepared.error);
  return { event: prepared.event, rawText };
};

/** The in-process feed over real stores, one queue per subscriber (marks under test-unique names). */
const feedFor = (subscribers: RecordingSubscriber[], orgIds: string[] = []) =>
  new InProcessFeed(
    subscribers.map(
      (subscriber) =>
        new SubscriberQueue(
          { subscriber, feed: stored, watermarks: marks(feedMarkKeys.watermark(subscriber.name)), applied: marks(feedMarkKeys.applied(subscriber.name)), orgIds: async () => orgIds, warn: () => undefined },
          { replayMarginMs: 0, watermarkEveryMs: 0, quietDelayMs: 0, retryMs: 50 },
        ),
    ),
  );

const directoryOf = (subscribers: RecordingSubscriber[]): FeedDirectory => ({ subscribers, head: stored, events: stored, applied: (name) => marks(feedMarkKeys.applied(name)) });

describe('the local event feed with several subscribers', () => {
  it("Should keep one subscriber's poisoned batch from stopping the other, and deliver it once the subscriber recovers", async () => {
    // Prepare
    const [poisoned, healthy] = [`feed-${randomUUID()}`, `feed-${randomUUID()}`];
    const model = new RecordingSubscriber(`model-${randomUUID()}`);
    const alerts = new RecordingSubscriber(`alerts-${randomUUID()}`);
    alerts.failFor.add(poisoned);
    const feed = feedFor([model, alerts]);
    const store = notifyingEventStore(events, (o, e) => feed.notify(o, e));
    const [bad, good] = [[record(), record()], [record()]];
    // Act
    await store.putMany(poisoned, bad);
    await store.put(healthy, good[0] as EventRecord);
    await (feed.queues[0] as SubscriberQueue).whenIdle();
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Assess: the model has everything; alerts has the healthy org, and retries the poisoned one.
    expect(model.ids(poisoned).sort()).toEqual(bad.map((r) => r.event.id).sort());
    expect(model.ids(healthy)).toEqual([good[0]?.event.id]);
    expect(alerts.ids(healthy)).toEqual([good[0]?.event.id]);
    expect(alerts.ids(poisoned)).toEqual([]);
    // Act: the subscriber recovers.
    alerts.failFor.delete(poisoned);
    await (feed.queues[1] as SubscriberQueue).whenIdle();
    await feed.stop();
    // Assess
    expect(alerts.ids(poisoned).sort()).toEqual(bad.map((r) => r.event.id).sort());
  });

  it('Should catch each subscriber up from its own watermark on start', async () => {
    // Prepare: a process stored events, then died; one subscriber had applied the first of them.
    const org = `feed-${randomUUID()}`;
    const [first, second] = [record(new Date(Date.now() - 1_000)), record()];
    await events.put(org, first);
    await events.put(org, second);
    const model = new RecordingSubscriber(`model-${randomUUID()}`);
    const alerts = new RecordingSubscriber(`alerts-${randomUUID()}`);
    await marks(feedMarkKeys.watermark(model.name)).advance(org, `${first.event.received_at}#${first.event.id}`);
    // Act
    const feed = feedFor([model, alerts], [org]);
    await feed.start();
    await feed.whenIdle();
    await feed.stop();
    // Assess
    expect(model.ids(org)).toEqual([second.event.id]);
    expect(alerts.ids(org)).toEqual([first.event.id, second.event.id]);
  });

  it("Should measure each subscriber's lag from the newest stored event", async () => {
    // Prepare
    const org = `feed-${randomUUID()}`;
    const model = new RecordingSubscriber(`model-${randomUUID()}`);
    const alerts = new RecordingSubscriber(`alerts-${randomUUID()}`);
    const older = record(new Date(Date.now() - 4_000));
    const newest = record();
    await events.put(org, older);
    const feed = feedFor([model]);
    const store = notifyingEventStore(events, (o, e) => feed.notify(o, e));
    await store.put(org, newest);
    await feed.whenIdle();
    await feed.stop();
    await marks(feedMarkKeys.applied(alerts.name)).advance(org, `${older.event.received_at}#${older.event.id}`);
    // Act
    const lag = await feedLag(directoryOf([model, alerts]), org);
    // Assess
    expect(lag.newestStoredAt).toBe(new Date(newest.event.received_at.slice(0, 23) + 'Z').toISOString());
    expect(lag.subscribers[0]).toMatchObject({ subscriber: model.name, lagMs: 0 });
    expect(lag.subscribers[1]?.lagMs).toBeGreaterThanOrEqual(3_900);
  });

  it('Should replay to one subscriber the events stored since a time, and to no other', async () => {
    // Prepare
    const org = `feed-${randomUUID()}`;
    const [old, recent] = [record(new Date(Date.now() - 60_000)), record()];
    await events.put(org, old);
    await events.put(org, recent);
    const model = new RecordingSubscriber(`model-${randomUUID()}`);
    const alerts = new RecordingSubscriber(`alerts-${randomUUID()}`);
    // Act
    const summary = await replayFeed(directoryOf([model, alerts]), alerts, org, Date.now() - 30_000);
    // Assess
    expect(summary).toEqual({ orgId: org, events: 1, batches: 1 });
    expect(alerts.ids(org)).toEqual([recent.event.id]);
    expect(model.batches).toEqual([]);
    expect(await marks(feedMarkKeys.applied(alerts.name)).read(org)).toBe(`${recent.event.received_at}#${recent.event.id}`);
  });
});
