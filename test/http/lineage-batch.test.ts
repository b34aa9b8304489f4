// POST /api/v1/lineage/batch through the local gateway: the answer of OpenLineage.yml (status,
// summary, failed_events with index, reason, retriable), valid events of a partly bad batch stored,
// resends stored once, per-element sizes, and bodies that are not a batch.
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventId } from '#domain/lineage/event-id';
import { MAX_BATCH_EVENTS, MAX_LISTED_FAILURES } from '#domain/lineage/ingest';
import { example } from '../unit/domain/lineage/examples.ts';
import { dataset, eventText } from '../adapters/lineage-fixtures.ts';
import { ALL_TIME, freshOrg, type LineageApi } from './lineage-api.ts';

let api: LineageApi;
beforeAll(async () => {
  ({ api } = await freshOrg('Batch'));
});

/** A distinct valid event (its own run) at a given second. */
const eventAt = (second: number, seq = 0) =>
  eventText({ time: new Date(second * 1000).toISOString(), runId: randomUUID(), state: 'COMPLETE', job: 'batch_job', namespace: 'batch', producer: 'urn:lakeline:batch-test', padding: 0, seq });

/** Ids stored in [second, second + 1). */
const idsAt = async (second: number): Promise<string[]> => {
  const { body } = await api.events({ start: String(second), end: String(second + 1), limit: '1000' });
  return body.map((e) => e.id).sort();
};

describe('POST /api/v1/lineage/batch', () => {
  it('Should store every event of a valid batch and answer success with a summary', async () => {
    // Prepare
    const second = 1_600_000_001;
    const texts = [eventAt(second, 1), eventAt(second, 2), example('marquez/event_dataset_event.json').text];

    // Act
    const answer = await api.batch(`[${texts.join(',')}]`);

    // Assess
    expect(answer).toMatchObject({
      status: 200,
      body: { status: 'success', summary: { received: 3, successful: 3, failed: 0, retriable: 0, non_retriable: 0 }, failed_events: [] },
    });
    expect(await idsAt(second)).toEqual(texts.slice(0, 2).map((t) => eventId(JSON.parse(t))).sort());
  });

  it('Should store the valid events of a partly bad batch and name each bad one by index and field', async () => {
    // Prepare
    const second = 1_600_000_002;
    const good = [eventAt(second, 1), eventAt(second, 2)];
    const body = `[${good[0]}, ${example('fluentd/event_no_run_id.json').text}, {"eventTime": "yesterday"}, ${good[1]}, 42]`;

    // Act
    const answer = await api.batch(body);

    // Assess
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      status: 'partial_success',
      summary: { received: 5, successful: 2, failed: 3, retriable: 0, non_retriable: 3 },
      failed_events: [
        { index: 1, reason: expect.stringMatching(/^run\.runId: is required/) as unknown, retriable: false },
        { index: 2, reason: expect.stringMatching(/eventTime: must be a date-time/) as unknown, retriable: false },
        { index: 4, reason: 'event: must be a JSON object', retriable: false },
      ],
    });
    expect(await idsAt(second)).toEqual(good.map((t) => eventId(JSON.parse(t))).sort());
  });

  it('Should answer 400 with the per-event detail when no event is valid', async () => {
    // Act
    const answer = await api.batch('[{}, "x"]');

    // Assess
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      error: 'none of the 2 events is valid (see failed_events)',
      status: 'failure',
      summary: { received: 2, successful: 0, failed: 2, retriable: 0, non_retriable: 2 },
    });
  });

  it('Should store an event sent twice, in one batch or across batches, once, keeping the first received_at', async () => {
    // Prepare
    const second = 1_600_000_003;
    const text = eventAt(second, 7);
    await api.batch(`[${text}]`);
    const [first] = (await api.events({ start: String(second), end: String(second + 1) })).body;

    // Act
    const answer = await api.batch(`[${text}, ${JSON.stringify(JSON.parse(text), null, 2)}, ${text}]`);

    // Assess
    expect(answer.body).toMatchObject({ status: 'success', summary: { received: 3, successful: 3, failed: 0 } });
    const after = (await api.events({ start: String(second), end: String(second + 1) })).body;
    expect(after).toEqual([first]);
  });

  it('Should size each element by its own text as sent and keep that text', async () => {
    // Prepare
    const second = 1_600_000_004;
    const pretty = JSON.stringify(JSON.parse(eventAt(second, 3)), null, 3);

    // Act
    await api.batch(`[\n${pretty}\n]`);

    // Assess
    const [stored] = (await api.events({ start: String(second), end: String(second + 1) })).body;
    expect(stored?.event_size_in_bytes).toBe(Buffer.byteLength(pretty));
    expect(stored?.event_raw).toEqual(JSON.parse(pretty));
  });

  it('Should take a gzip batch of 200 events in one request', async () => {
    // Prepare
    const events = dataset(200, 21, 1_600_100_000);

    // Act
    const answer = await api.batch(gzipSync(`[${events.map((e) => e.text).join(',')}]`), { 'content-encoding': 'gzip' });

    // Assess
    expect(answer.body).toMatchObject({ status: 'success', summary: { received: 200, successful: 200 } });
    const { body } = await api.events({ start: '1600100000', end: '1600100100', limit: '1000' });
    expect(body.map((e) => e.id).sort()).toEqual([...new Set(events.map((e) => e.id))].sort());
  });

  it('Should answer an empty batch with success', async () => {
    // Act & Assess
    expect(await api.batch('[]')).toMatchObject({ status: 200, body: { status: 'success', summary: { received: 0, successful: 0, failed: 0 }, failed_events: [] } });
  });

  it.each([
    ['a single event', () => eventAt(1_600_000_005), 'body: must be a JSON array of OpenLineage events'],
    ['text that is not JSON', () => '[{"a":', /^body: must be valid JSON/],
    ['an empty body', () => '', 'body: is required'],
  ])('Should refuse %s with a 400', async (_what, body, error) => {
    // Act
    const answer = await api.batch(body());

    // Assess
    expect(answer.status).toBe(400);
    expect((answer.body as { error: string }).error).toMatch(error);
  });

  it('Should not store anything of a refused batch body', async () => {
    // Act
    await api.batch(eventAt(1_600_000_006));

    // Assess
    expect((await api.events({ start: '1600000006', end: '1600000007' })).body).toEqual([]);
    expect((await api.events({ ...ALL_TIME, limit: '1000' })).status).toBe(200);
  });

  it(`Should refuse a batch of more than ${MAX_BATCH_EVENTS} events with 413 at once, storing none, with a small answer`, async () => {
    // Prepare: a 10 MB body of empty objects (3.4 million of them) and one just over the limit.
    const huge = `[${'{},'.repeat(3_400_000)}{}]`;
    const justOver = `[${Array.from({ length: MAX_BATCH_EVENTS + 1 }, (_, i) => eventAt(1_600_000_020, i)).join(',')}]`;
    // Act
    const started = performance.now();
    const refused = await api.batch(huge);
    const elapsedMs = performance.now() - started;
    const over = await api.batch(justOver);
    // Assess
    expect(refused.status).toBe(413);
    expect(refused.body).toEqual({ error: `body: a batch holds at most ${MAX_BATCH_EVENTS} events; this one has more, so split it into several batches` });
    expect(over.status).toBe(413);
    expect(await idsAt(1_600_000_020)).toEqual([]);
    // Loose bound: the old path parsed 3.4 M elements and answered 437 MB after about 10 s.
    expect(elapsedMs).toBeLessThan(5_000);
  });

  it(`Should list at most ${MAX_LISTED_FAILURES} refused events and count the rest`, async () => {
    // Prepare: 300 invalid events and one valid.
    const body = `[${[...Array.from({ length: 300 }, () => '{}'), eventAt(1_600_000_021)].join(',')}]`;
    // Act
    const answer = await api.batch(body);
    // Assess
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: 'partial_success', summary: { received: 301, successful: 1, failed: 300, non_retriable: 300 } });
    const failed = (answer.body as { failed_events: { index: number }[] }).failed_events;
    expect(failed).toHaveLength(MAX_LISTED_FAILURES);
    expect(failed.map((f) => f.index)).toEqual(Array.from({ length: MAX_LISTED_FAILURES }, (_, i) => i));
    expect(await idsAt(1_600_000_021)).toHaveLength(1);
  });

  it('Should refuse only the element that JSON cannot carry faithfully, naming it', async () => {
    // Prepare
    const bad = eventAt(1_600_000_022, 1).replace('"padding":{', '"padding":{"big":1e999,');
    // Act
    const answer = await api.batch(`[${eventAt(1_600_000_022, 0)},${bad}]`);
    // Assess
    expect(answer.status).toBe(200);
    expect((answer.body as { failed_events: unknown[] }).failed_events).toEqual([
      { index: 1, reason: '[1].run.facets.padding.big: is a number too large to represent (it would be stored as null); send it as a string', retriable: false },
    ]);
  });

  it.each([['[1,,2]'], ['[1,2,]'], ['[,1]'], ['[1] x']])('Should refuse the malformed array %s as invalid JSON', async (body) => {
    const answer = await api.batch(body);
    expect(answer.status).toBe(400);
    expect((answer.body as { error: string }).error).toMatch(/^body: must be valid JSON/);
  });
});
