// ingestEvent / ingestBatch: validation, what reaches the store, and the batch answer of OpenLineage.yml.
import { describe, expect, it } from 'vitest';
import { ValidationError } from '#domain/errors';
import { InvalidEventError } from '#domain/lineage/errors';
import { eventId } from '#domain/lineage/event-id';
import { ingestBatch, ingestEvent, type ReceivedBody } from '#domain/lineage/ingest';
import type { EventListQuery, EventPage, EventRecord, EventStore, PutManyOutcome, PutOutcome } from '#domain/lineage/ports';
import { example } from './examples.ts';

const ORG = 'org-1';
const NOW = new Date('2024-05-01T12:00:00Z');

/** Records what reaches the store; outcomes can be scripted per event id. */
class RecordingStore implements EventStore {
  readonly puts: EventRecord[] = [];
  readonly batches: EventRecord[][] = [];
  constructor(private readonly script: (record: EventRecord) => PutManyOutcome = () => ({ ok: true, outcome: 'stored' })) {}
  async put(_orgId: string, record: EventRecord): Promise<PutOutcome> {
    this.puts.push(record);
    return 'stored';
  }
  async putMany(_orgId: string, records: readonly EventRecord[]): Promise<PutManyOutcome[]> {
    this.batches.push([...records]);
    return records.map(this.script);
  }
  async list(_orgId: string, _query: EventListQuery): Promise<EventPage> {
    return { events: [] };
  }
  async count(_orgId: string, _query: EventListQuery): Promise<number> {
    return 0;
  }
}

const body = (text: string): ReceivedBody => ({ value: JSON.parse(text) as unknown, text, bytes: Buffer.byteLength(text) });

describe('ingestEvent', () => {
  it('Should store the derived event with the body text verbatim and its byte length as the size', async () => {
    // Prepare
    const store = new RecordingStore();
    const { text, json } = example('marquez/event_unicode.json');

    // Act
    const outcome = await ingestEvent(store, ORG, body(text), NOW);

    // Assess
    expect(outcome).toBe('stored');
    expect(store.puts).toHaveLength(1);
    expect(store.puts[0]?.rawText).toBe(text);
    expect(store.puts[0]?.event.event_size_in_bytes).toBe(Buffer.byteLength(text));
    expect(store.puts[0]?.event.id).toBe(eventId(json));
    expect(store.puts[0]?.event.received_at).toBe('2024-05-01T12:00:00.000000+00:00');
  });

  it('Should refuse an invalid event with an InvalidEventError naming the field, storing nothing', async () => {
    // Prepare
    const store = new RecordingStore();
    const { text } = example('fluentd/event_no_run_id.json');

    // Act
    const attempt = ingestEvent(store, ORG, body(text), NOW);

    // Assess
    await expect(attempt).rejects.toBeInstanceOf(InvalidEventError);
    await expect(attempt).rejects.toThrow(/^run\.runId: is required/);
    expect(store.puts).toHaveLength(0);
  });

  it('Should refuse a JSON array with a message naming the event', async () => {
    // Act & Assess
    await expect(ingestEvent(new RecordingStore(), ORG, body('[]'), NOW)).rejects.toThrow('event: must be a JSON object, not an array');
  });
});

describe('ingestBatch', () => {
  const good = example('marquez/event_simple.json').text;
  const other = example('client/example_full_event.json').text;
  const bad = example('fluentd/event_no_run_id.json').text;

  it('Should store every valid element and report success', async () => {
    // Prepare
    const store = new RecordingStore();

    // Act
    const outcome = await ingestBatch(store, ORG, body(`[${good},${other}]`), NOW);

    // Assess
    expect(outcome).toEqual({
      status: 'success',
      summary: { received: 2, successful: 2, failed: 0, retriable: 0, non_retriable: 0 },
      failed_events: [],
    });
    expect(store.batches[0]?.map((r) => r.rawText)).toEqual([good.trim(), other.trim()]);
  });

  it('Should size and keep each element as its own slice of the request text', async () => {
    // Prepare
    const store = new RecordingStore();
    const compact = JSON.stringify(JSON.parse(good));

    // Act
    await ingestBatch(store, ORG, body(`[\n  ${compact} ,\n  ${good}\n]`), NOW);

    // Assess
    const [first, second] = store.batches[0] ?? [];
    expect(first?.rawText).toBe(compact);
    expect(first?.event.event_size_in_bytes).toBe(Buffer.byteLength(compact));
    expect(second?.event.event_size_in_bytes).toBe(Buffer.byteLength(good.trim()));
    // Formatting does not change the identity.
    expect(first?.event.id).toBe(second?.event.id);
  });

  it('Should store the valid elements of a partly bad batch and list the bad ones by index, not retriable', async () => {
    // Prepare
    const store = new RecordingStore();

    // Act
    const outcome = await ingestBatch(store, ORG, body(`[${bad},${good},{"eventTime":"x"},${other}]`), NOW);

    // Assess
    expect(outcome.status).toBe('partial_success');
    expect(outcome.summary).toEqual({ received: 4, successful: 2, failed: 2, retriable: 0, non_retriable: 2 });
    expect(outcome.failed_events.map((f) => [f.index, f.retriable])).toEqual([
      [0, false],
      [2, false],
    ]);
    expect(outcome.failed_events[0]?.reason).toMatch(/^run\.runId: is required/);
    expect(outcome.failed_events[1]?.reason).toMatch(/eventTime: must be a date-time/);
    expect(store.batches[0]).toHaveLength(2);
  });

  it('Should report failure when no element is valid, without calling the store', async () => {
    // Prepare
    const store = new RecordingStore();

    // Act
    const outcome = await ingestBatch(store, ORG, body(`[${bad}, 3]`), NOW);

    // Assess
    expect(outcome.status).toBe('failure');
    expect(outcome.summary).toMatchObject({ received: 2, successful: 0, failed: 2, non_retriable: 2 });
    expect(outcome.failed_events[1]?.reason).toBe('event: must be a JSON object');
    expect(store.batches).toHaveLength(0);
  });

  it('Should pass on retriable store failures by index', async () => {
    // Prepare
    const failing = eventId(JSON.parse(other));
    const store = new RecordingStore((r) => (r.event.id === failing ? { ok: false, reason: 'Server error: the store is unavailable; retry later', retriable: true } : { ok: true, outcome: 'stored' }));

    // Act
    const outcome = await ingestBatch(store, ORG, body(`[${good},${bad},${other}]`), NOW);

    // Assess
    expect(outcome.status).toBe('partial_success');
    expect(outcome.summary).toEqual({ received: 3, successful: 1, failed: 2, retriable: 1, non_retriable: 1 });
    expect(outcome.failed_events).toEqual([
      { index: 1, reason: expect.stringMatching(/^run\.runId/) as unknown, retriable: false },
      { index: 2, reason: 'Server error: the store is unavailable; retry later', retriable: true },
    ]);
  });

  it('Should answer an empty batch with success and zero counts', async () => {
    // Act
    const outcome = await ingestBatch(new RecordingStore(), ORG, body('[]'), NOW);

    // Assess
    expect(outcome).toEqual({ status: 'success', summary: { received: 0, successful: 0, failed: 0, retriable: 0, non_retriable: 0 }, failed_events: [] });
  });

  it('Should refuse a body that is not an array', async () => {
    // Act & Assess
    const attempt = ingestBatch(new RecordingStore(), ORG, body(good), NOW);
    await expect(attempt).rejects.toBeInstanceOf(ValidationError);
    await expect(attempt).rejects.toThrow('body: must be a JSON array of OpenLineage events');
  });
});
