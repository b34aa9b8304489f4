/**
 * The local lineage feed (the lineage model's queue of the in-process event feed) on the real local
 * DynamoDB: events newly stored are applied by the in-process consumer; events stored by a process that died before applying them (here: a store
 * that never tells the consumer) are applied when a consumer starts, from its watermark; and a
 * replay changes nothing. While an org's ingestion is busy the consumer holds its events back, up
 * to its lag bound: a short burst is applied once it ends, a sustained one within about the bound,
 * and other orgs' events meanwhile at once.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { DirectoryBlobStore } from '#adapters/blob/directory-blob-store';
import { createDocumentClient, localDynamoClient } from '#adapters/dynamodb/clients';
import { DynamoEventFeed } from '#adapters/dynamodb/event-feed';
import { DynamoEventStore } from '#adapters/dynamodb/event-store';
import { DynamoFeedWatermarks } from '#adapters/dynamodb/lineage-feed-watermarks';
import { DynamoLineageModelStore } from '#adapters/dynamodb/lineage-model-store';
import { localTableName } from '#composition/config';
import { prepareEvent } from '#domain/lineage/derive';
import type { EventRecord, EventStore } from '#domain/lineage/ports';
import { notifyingEventStore } from '#adapters/local/in-process-feed';
import { SubscriberQueue } from '#adapters/local/subscriber-queue';
import { feedMarkOf, markBefore } from '#domain/feed/marks';
import { lineageModelSubscriber } from '#domain/lineage-graph/feed-subscriber';
import { EVENTS_TABLE, LINEAGE_TABLE } from '#shared/table-definitions';
import { answers } from '../unit/domain/lineage-graph/answers.ts';
import { newRunId, runEventJson, type RunEventSpec } from '../unit/domain/lineage-graph/events.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const client = localDynamoClient(inject('stack').dynamodbEndpoint);
const doc = createDocumentClient(client);
const blobDir = mkdtempSync(path.join(os.tmpdir(), 'lineage-feed-'));
const blobs = () => new DirectoryBlobStore(blobDir);
const events = new DynamoEventStore(doc, localTableName(EVENTS_TABLE), blobs, { feed: true });
const model = new DynamoLineageModelStore(doc, localTableName(LINEAGE_TABLE), { generationCacheMs: 0, search: { minIntervalMs: 0 } });
const watermarks = new DynamoFeedWatermarks(doc, localTableName(LINEAGE_TABLE));

afterAll(() => {
  client.destroy();
  rmSync(blobDir, { recursive: true, force: true });
});

const record = (spec: RunEventSpec, receivedAt = new Date()): EventRecord => {
  const rawText = JSON.stringify(runEventJson(spec));
  const prepared = prepareEvent(JSON.parse(rawText), Buffer.byteLength(rawText), receivedAt);
  if (!prepared.ok) throw new Error(prepared.error);
  return { event: prepared.event, rawText };
};

const consumerFor = (orgIds: string[], options = {}) =>
  new SubscriberQueue(
    { subscriber: lineageModelSubscriber(() => model), feed: new DynamoEventFeed(doc, localTableName(EVENTS_TABLE), blobs), watermarks, orgIds: async () => orgIds, warn: () => undefined },
    { replayMarginMs: 0, watermarkEveryMs: 0, ...options },
  );

const pipeline = (): EventRecord[] => {
  const [a, b] = [newRunId(), newRunId()];
  return [
    record({ eventType: 'START', time: '2030-01-01T00:00:00Z', runId: a, job: 'extract', inputs: ['s3://raw:orders'], outputs: ['warehouse:staging.orders'] }),
    record({ eventType: 'COMPLETE', time: '2030-01-01T00:01:00Z', runId: a, job: 'extract', inputs: ['s3://raw:orders'], outputs: ['warehouse:staging.orders'] }),
    record({ eventType: 'COMPLETE', time: '2030-01-01T00:02:00Z', runId: b, job: 'report', inputs: ['warehouse:staging.orders'], outputs: ['warehouse:reports.daily'] }),
  ];
};

describe('the local lineage feed', () => {
  it('Should apply events the store newly stored, in the background', async () => {
    const org = `feed-${randomUUID()}`;
    const consumer = consumerFor([]);
    const store: EventStore = notifyingEventStore(events, (o, e) => consumer.notify(o, e));
    for (const r of pipeline()) await store.put(org, r);
    await consumer.whenIdle();
    const answer = await answers(model, org);
    expect(Object.keys(answer)).toContain('job etl:report');
    expect((answer['jobs etl'] as { jobs: { name: string }[] }).jobs.map((j) => j.name)).toEqual(['extract', 'report']);
    // The watermark follows the events applied.
    expect(await watermarks.read(org)).toBeDefined();
    await consumer.stop();
  });

  it('Should apply on start what a process stored but never applied, and change nothing when it replays', async () => {
    const org = `feed-${randomUUID()}`;
    // The process that died: events stored, the consumer never told.
    for (const r of pipeline()) await events.put(org, r);
    const first = consumerFor([org]);
    await first.start();
    await first.whenIdle();
    await first.stop();
    const after = await answers(model, org);
    expect((after['jobs etl'] as { jobs: unknown[] }).jobs).toHaveLength(2);
    // A second start replays from its watermark (here: nothing, margin 0); a full replay from the start changes nothing either.
    await watermarks.advance(org, '');
    const replay = consumerFor([org], { replayMarginMs: 60_000 });
    await replay.start();
    await replay.whenIdle();
    await replay.stop();
    expect(await answers(model, org)).toEqual(after);
  });

  it('Should hold a burst back while it lasts and apply it once ingestion is quiet again', async () => {
    // Prepare: three events at once count as a burst here
    const org = `feed-${randomUUID()}`;
    const consumer = consumerFor([], { busyEventsPerSecond: 2, busyMaxLagMs: 20_000 });
    const store = notifyingEventStore(events, (o, e) => consumer.notify(o, e));
    // Act
    const stored = Date.now();
    await store.putMany(org, pipeline());
    await new Promise((r) => setTimeout(r, 400));
    const during = await answers(model, org);
    await consumer.whenIdle();
    const appliedAfterMs = Date.now() - stored;
    // Assess: nothing while the last second was busy; everything after it, well before the bound
    expect(Object.keys(during)).not.toContain('job etl:report');
    expect(Object.keys(await answers(model, org))).toContain('job etl:report');
    expect(appliedAfterMs).toBeGreaterThanOrEqual(900);
    expect(appliedAfterMs).toBeLessThan(10_000);
    await consumer.stop();
  });

  it("Should keep applying another org's events at once while one org's burst is held back", async () => {
    // Prepare: org A sends a burst, org B one pipeline right after it
    const [burstOrg, quietOrg] = [`feed-${randomUUID()}`, `feed-${randomUUID()}`];
    const consumer = consumerFor([], { busyEventsPerSecond: 2, busyMaxLagMs: 20_000 });
    const store = notifyingEventStore(events, (o, e) => consumer.notify(o, e));
    // Act
    await store.putMany(burstOrg, pipeline());
    await store.put(quietOrg, pipeline()[0] as EventRecord);
    await new Promise((r) => setTimeout(r, 700));
    const burst = await answers(model, burstOrg);
    const quiet = await answers(model, quietOrg);
    await consumer.whenIdle();
    await consumer.stop();
    // Assess
    expect(Object.keys(quiet)).toContain('job etl:extract');
    expect(Object.keys(burst)).not.toContain('job etl:report');
    expect(Object.keys(await answers(model, burstOrg))).toContain('job etl:report');
  });

  it('Should wait the quiet delay before applying a lone event, and hold the first events of a burst with the burst', async () => {
    // Prepare: a quiet delay of 300 ms; three events within it count as a burst
    const [loneOrg, burstOrg] = [`feed-${randomUUID()}`, `feed-${randomUUID()}`];
    const consumer = consumerFor([], { busyEventsPerSecond: 2, busyMaxLagMs: 20_000, quietDelayMs: 300 });
    const store = notifyingEventStore(events, (o, e) => consumer.notify(o, e));
    const [extract, transform, report] = pipeline() as [EventRecord, EventRecord, EventRecord];
    // Act: the lone org's event and the burst's first event alone; 100 ms later the rest of the burst
    await store.put(loneOrg, extract);
    await store.put(burstOrg, extract);
    await new Promise((r) => setTimeout(r, 100));
    const loneEarly = await answers(model, loneOrg);
    await store.putMany(burstOrg, [transform, report]);
    await new Promise((r) => setTimeout(r, 600));
    const lone = await answers(model, loneOrg);
    const burst = await answers(model, burstOrg);
    await consumer.whenIdle();
    await consumer.stop();
    // Assess: the lone event after the delay; the burst's first event only with the rest of it
    expect(Object.keys(loneEarly)).not.toContain('job etl:extract');
    expect(Object.keys(lone)).toContain('job etl:extract');
    expect(Object.keys(burst)).not.toContain('job etl:extract');
    expect(Object.keys(await answers(model, burstOrg))).toEqual(expect.arrayContaining(['job etl:extract', 'job etl:report']));
  });

  it('Should apply a sustained burst within about its lag bound, while the burst goes on', async () => {
    // Prepare: ten events a second, above the busy threshold of two, for four seconds
    const org = `feed-${randomUUID()}`;
    const consumer = consumerFor([], { busyEventsPerSecond: 2, busyMaxLagMs: 1_000 });
    const store = notifyingEventStore(events, (o, e) => consumer.notify(o, e));
    const first = record({ eventType: 'COMPLETE', time: '2030-01-01T00:00:00Z', runId: newRunId(), job: 'first', inputs: ['s3://raw:orders'], outputs: ['warehouse:first'] });
    // Act
    const started = Date.now();
    const burstEvent = (i: number) => record({ eventType: 'COMPLETE', time: '2030-01-01T00:00:00Z', runId: newRunId(), job: `burst_${i}`, inputs: ['s3://raw:orders'], outputs: [`warehouse:burst_${i}`] });
    await store.putMany(org, [first, burstEvent(-1), burstEvent(-2)]);
    let seenAfterMs: number | undefined;
    for (let i = 0; Date.now() - started < 4_000; i++) {
      await store.put(org, burstEvent(i));
      if (seenAfterMs === undefined && Object.keys(await answers(model, org)).includes('job etl:first')) seenAfterMs = Date.now() - started;
      await new Promise((r) => setTimeout(r, 100));
    }
    await consumer.whenIdle();
    await consumer.stop();
    // Assess: held back for about the bound, then applied although ingestion was still busy
    expect(seenAfterMs).toBeDefined();
    expect(seenAfterMs).toBeGreaterThanOrEqual(900);
    expect(seenAfterMs).toBeLessThan(3_500);
  });

  it('Should put an event of sustained ingestion in the graph within 5 s by default (a 2 s hold-back, ADR 0050)', async () => {
    // Prepare: ten events a second, above the busy threshold of two, for six seconds; the default lag bound
    const org = `feed-${randomUUID()}`;
    const consumer = consumerFor([], { busyEventsPerSecond: 2 });
    const store = notifyingEventStore(events, (o, e) => consumer.notify(o, e));
    const first = record({ eventType: 'COMPLETE', time: '2030-01-01T00:00:00Z', runId: newRunId(), job: 'first', inputs: ['s3://raw:orders'], outputs: ['warehouse:first'] });
    const burstEvent = (i: number) => record({ eventType: 'COMPLETE', time: '2030-01-01T00:00:00Z', runId: newRunId(), job: `steady_${i}`, inputs: ['s3://raw:orders'], outputs: [`warehouse:steady_${i}`] });
    // Act
    const started = Date.now();
    await store.putMany(org, [first, burstEvent(-1), burstEvent(-2)]);
    let seenAfterMs: number | undefined;
    for (let i = 0; Date.now() - started < 6_000; i++) {
      await store.put(org, burstEvent(i));
      if (seenAfterMs === undefined && Object.keys(await answers(model, org)).includes('job etl:first')) seenAfterMs = Date.now() - started;
      await new Promise((r) => setTimeout(r, 100));
    }
    await consumer.whenIdle();
    await consumer.stop();
    // Assess: held back about 2 s, then in the graph while ingestion went on
    expect(seenAfterMs).toBeDefined();
    expect(seenAfterMs).toBeGreaterThanOrEqual(1_900);
    expect(seenAfterMs).toBeLessThan(5_000);
  });

  it('Should keep the watermark behind every event still queued, and below the margin', async () => {
    const org = `feed-${randomUUID()}`;
    const consumer = consumerFor([], { replayMarginMs: 30_000, batchSize: 1 });
    const store = notifyingEventStore(events, (o, e) => consumer.notify(o, e));
    const records = pipeline();
    await store.putMany(org, records);
    await consumer.whenIdle();
    await consumer.stop();
    const lowest = records.map((r) => feedMarkOf(r.event)).sort()[0] as string;
    const mark = (await watermarks.read(org)) as string;
    expect(mark <= markBefore(records.map((r) => feedMarkOf(r.event)).sort().at(-1) as string, 30_000)).toBe(true);
    expect(mark < lowest).toBe(true);
  });
});
