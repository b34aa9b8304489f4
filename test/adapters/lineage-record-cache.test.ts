// The readers' cache of job heads and dataset nodes (lineage-record-cache.ts) against the local
// DynamoDB: a repeated graph is served without reading records again, and a change a consumer in
// another process makes shows at the reader's next sync — also when the consumer died before its
// change entry and the batch was applied again, when the reader was idle past the log's horizon,
// and when an entry is lost (the age bound).
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { BatchWriteCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoLineageModelStore } from '#adapters/dynamodb/lineage-model-store';
import type { RecordCacheOptions } from '#adapters/dynamodb/lineage-record-cache';
import { applyEventsToLineageModel } from '#domain/lineage-graph/apply';
import { lineageGraph } from '#domain/lineage-graph/graph';
import { createDocumentClient, localDynamoClient } from '#adapters/dynamodb/clients';
import { localTableName } from '#composition/config';
import { LINEAGE_TABLE } from '#shared/table-definitions';
import { newRunId, runEvent } from '../unit/domain/lineage-graph/events.ts';

const client = localDynamoClient(inject('stack').dynamodbEndpoint);
const doc = createDocumentClient(client);
const table = localTableName(LINEAGE_TABLE);

afterAll(() => client.destroy());

/** A document client that counts commands by name and can refuse writes of the change log. */
const instrumented = (options: { refuseChangeLog?: boolean } = {}) => {
  const counts = new Map<string, number>();
  const proxy = new Proxy(doc, {
    get(target, property, receiver) {
      if (property !== 'send') return Reflect.get(target, property, receiver);
      return (command: { constructor: { name: string }; input: { Item?: { pk?: unknown } } }) => {
        counts.set(command.constructor.name, (counts.get(command.constructor.name) ?? 0) + 1);
        if (options.refuseChangeLog && String(command.input.Item?.pk ?? '').endsWith('#CHG')) return Promise.reject(new Error('the consumer died here'));
        return target.send(command as Parameters<DynamoDBDocumentClient['send']>[0]);
      };
    },
  });
  return { doc: proxy, count: (name: string) => counts.get(name) ?? 0 };
};

/**
 * One clock for a test's "processes", moved by hand. A sync drops what entries of the last 10 s
 * (the overlap) name, each time: `past` moves beyond the window of the changes made so far.
 */
const clock = () => {
  let at = Date.now();
  return { now: () => at, advance: (ms: number) => void (at += ms), past: () => void (at += OVERLAP_MS + 1) };
};

const OVERLAP_MS = 10_000;
const storeOn = (d: DynamoDBDocumentClient, now: () => number, records: RecordCacheOptions = {}) =>
  new DynamoLineageModelStore(d, table, { generationCacheMs: 0, now, records: { minIntervalMs: 0, now, ...records } });

const T0 = '2024-06-01T00:00:00.000Z';
const T1 = '2024-06-02T00:00:00.000Z';
const firstRun = () => runEvent({ eventType: 'COMPLETE', time: T0, runId: newRunId(), job: 'load', inputs: ['pg:raw.a'], outputs: ['pg:mart.x'] });
const secondRun = () => runEvent({ eventType: 'COMPLETE', time: T1, runId: newRunId(), job: 'load', inputs: ['pg:raw.b'], outputs: ['pg:mart.x'] });

const graphIds = async (store: DynamoLineageModelStore, org: string): Promise<string[]> =>
  (await lineageGraph(store, org, { nodeId: { type: 'JOB', namespace: 'etl', name: 'load' }, depth: 5, direction: 'both' })).graph.map((n) => n.id);

const BEFORE = ['dataset:pg:mart.x', 'dataset:pg:raw.a', 'job:etl:load'];
const AFTER = ['dataset:pg:mart.x', 'dataset:pg:raw.b', 'job:etl:load'];

/** Deletes an org's change entries, as DynamoDB's TTL would once they expired. */
const expireChangeLog = async (org: string): Promise<void> => {
  const out = await doc.send(new QueryCommand({ TableName: table, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `${org}#1#CHG` }, ProjectionExpression: 'pk, sk' }));
  const keys = (out.Items ?? []).map((i) => ({ DeleteRequest: { Key: { pk: i.pk, sk: i.sk } } }));
  for (let i = 0; i < keys.length; i += 25) await doc.send(new BatchWriteCommand({ RequestItems: { [table]: keys.slice(i, i + 25) } }));
};

describe("the readers' record cache", () => {
  it('Should answer a repeated graph without reading its records again', async () => {
    // Prepare
    const org = randomUUID();
    const time = clock();
    await applyEventsToLineageModel(storeOn(doc, time.now), org, [firstRun()]);
    const reader = instrumented();
    const store = storeOn(reader.doc, time.now);
    expect(await graphIds(store, org)).toEqual(BEFORE);
    time.past();
    expect(await graphIds(store, org)).toEqual(BEFORE);
    const readsBefore = reader.count('BatchGetCommand');
    time.past();

    // Act
    const again = await graphIds(store, org);

    // Assess
    expect(again).toEqual(BEFORE);
    expect(reader.count('BatchGetCommand')).toBe(readsBefore);
    expect(readsBefore).toBeGreaterThan(0);
  });

  it('Should read the store every time when turned off', async () => {
    // Prepare
    const org = randomUUID();
    const time = clock();
    await applyEventsToLineageModel(storeOn(doc, time.now), org, [firstRun()]);
    const reader = instrumented();
    const store = storeOn(reader.doc, time.now, { maxEntries: 0 });
    await graphIds(store, org);
    const readsBefore = reader.count('BatchGetCommand');

    // Act
    await graphIds(store, org);

    // Assess
    expect(reader.count('BatchGetCommand')).toBeGreaterThan(readsBefore);
  });

  it("Should show a consumer's change, made in another process, at the reader's next request", async () => {
    // Prepare
    const org = randomUUID();
    const time = clock();
    const consumer = storeOn(doc, time.now);
    await applyEventsToLineageModel(consumer, org, [firstRun()]);
    const reader = storeOn(doc, time.now);
    expect(await graphIds(reader, org)).toEqual(BEFORE);
    time.past();
    expect(await graphIds(reader, org)).toEqual(BEFORE);

    // Act
    await applyEventsToLineageModel(consumer, org, [secondRun()]);
    time.advance(1);

    // Assess
    expect(await graphIds(reader, org)).toEqual(AFTER);
  });

  it('Should show the change once a batch whose consumer died before its change entry is applied again', async () => {
    // Prepare
    const org = randomUUID();
    const time = clock();
    await applyEventsToLineageModel(storeOn(doc, time.now), org, [firstRun()]);
    const reader = storeOn(doc, time.now);
    expect(await graphIds(reader, org)).toEqual(BEFORE);
    time.past();
    expect(await graphIds(reader, org)).toEqual(BEFORE);
    const batch = [secondRun()];
    const dying = storeOn(instrumented({ refuseChangeLog: true }).doc, time.now);
    await expect(applyEventsToLineageModel(dying, org, batch)).rejects.toThrow('the consumer died here');
    time.advance(1);
    // The records changed but no entry says so: the reader still serves what it cached.
    expect(await graphIds(reader, org)).toEqual(BEFORE);

    // Act: the stream (or the local feed, from its watermark) hands the batch out again.
    await applyEventsToLineageModel(storeOn(doc, time.now), org, batch);
    time.advance(1);

    // Assess
    expect(await graphIds(reader, org)).toEqual(AFTER);
  });

  it("Should drop its whole cache after an idle time longer than the log's horizon", async () => {
    // Prepare
    const org = randomUUID();
    const time = clock();
    const consumer = storeOn(doc, time.now);
    await applyEventsToLineageModel(consumer, org, [firstRun()]);
    const reader = storeOn(doc, time.now, { maxGapMs: 60_000 });
    expect(await graphIds(reader, org)).toEqual(BEFORE);
    time.past();
    expect(await graphIds(reader, org)).toEqual(BEFORE);
    await applyEventsToLineageModel(consumer, org, [secondRun()]);
    await expireChangeLog(org);

    // Act
    time.advance(60_001);

    // Assess
    expect(await graphIds(reader, org)).toEqual(AFTER);
  });

  it('Should read a record again once it is older than the age bound, even when no entry names it', async () => {
    // Prepare
    const org = randomUUID();
    const time = clock();
    const consumer = storeOn(doc, time.now);
    await applyEventsToLineageModel(consumer, org, [firstRun()]);
    const reader = storeOn(doc, time.now, { maxAgeMs: 30_000 });
    expect(await graphIds(reader, org)).toEqual(BEFORE);
    time.past();
    expect(await graphIds(reader, org)).toEqual(BEFORE);
    await applyEventsToLineageModel(consumer, org, [secondRun()]);
    await expireChangeLog(org);
    // The reader last read the records when `past` moved beyond the first run's entry.
    time.advance(29_000);
    expect(await graphIds(reader, org)).toEqual(BEFORE);

    // Act
    time.advance(1_001);

    // Assess
    expect(await graphIds(reader, org)).toEqual(AFTER);
  });

  it('Should keep at most maxEntries records', async () => {
    // Prepare
    const org = randomUUID();
    const time = clock();
    await applyEventsToLineageModel(storeOn(doc, time.now), org, [firstRun()]);
    const reader = instrumented();
    const store = storeOn(reader.doc, time.now, { maxEntries: 2 });
    expect(await graphIds(store, org)).toEqual(BEFORE);
    time.past();
    expect(await graphIds(store, org)).toEqual(BEFORE);
    time.past();
    const readsBefore = reader.count('BatchGetCommand');

    // Act
    const again = await graphIds(store, org);

    // Assess: three records do not fit in two places, so some are read again.
    expect(again).toEqual(BEFORE);
    expect(reader.count('BatchGetCommand')).toBeGreaterThan(readsBefore);
  });
});
