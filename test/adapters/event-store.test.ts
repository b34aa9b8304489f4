// DynamoEventStore on both DynamoDB APIs of the tests — the shared stack's dynalite with the local
// blob directory, the AWS emulator's DynamoDB with the S3 blob store on the emulator's S3 —
// with the same assertions: idempotent writes (conditional puts), batches, large bodies in the blob
// store, every listing path (the GSIs) compared with a reference implementation, org isolation,
// and what an outage looks like to callers.
import { randomUUID } from 'node:crypto';
import { BatchGetCommand, DeleteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_INLINE_ITEM_BYTES } from '#adapters/dynamodb/event-item';
import { DynamoEventStore } from '#adapters/dynamodb/event-store';
import { prepareEvent, toPublicEvent } from '#domain/lineage/derive';
import { parseListQuery } from '#domain/lineage/list-query';
import type { EventListQuery, EventRecord } from '#domain/lineage/ports';
import { createDocumentClient, localDynamoClient } from '#adapters/dynamodb/clients';
import { localTableName } from '#composition/config';
import { isTransientInfrastructureError } from '#adapters/transient-errors';
import { EVENTS_TABLE } from '#shared/table-definitions';
import { example } from '../unit/domain/lineage/examples.ts';
import { dataset, eventText, seededRandom, referencePage, type ReferenceEvent } from './lineage-fixtures.ts';
import { blobStoreFor, directoryBlobs, type TestBlobStore } from './blob-backends.ts';
import { DYNAMO_BACKENDS, openDynamoBackend } from './dynamo-backends.ts';

const record = (text: string, receivedAt = new Date()): EventRecord => {
  const prepared = prepareEvent(JSON.parse(text), Buffer.byteLength(text), receivedAt);
  if (!prepared.ok) throw new Error(prepared.error);
  return { event: prepared.event, rawText: text };
};

const WHOLE_TIME = { start: '0', end: '4102444800' };

describe.each(DYNAMO_BACKENDS)('DynamoEventStore on %s', (backend) => {
  const dynamo = openDynamoBackend(backend);
  // dynalite keeps large bodies in the local blob directory, the emulated account in S3 (as in AWS).
  const blobs: TestBlobStore = blobStoreFor(backend);
  // As the profiles build it: single events through the caching client, the rest through the document client.
  const store = new DynamoEventStore(dynamo.doc, dynamo.tableName(EVENTS_TABLE), () => blobs.store, { putClient: dynamo.putClient });
  const storeOnDocumentClient = new DynamoEventStore(dynamo.doc, dynamo.tableName(EVENTS_TABLE), () => blobs.store);
  const listAll = (orgId: string, params: Record<string, string> = {}) => store.list(orgId, parseListQuery({ ...WHOLE_TIME, limit: '1000', ...params }));

  beforeAll(() => blobs.prepare());
  afterAll(() => dynamo.close());

  describe('DynamoEventStore writes', () => {
    it.each([
      ['the caching client', () => store],
      ['the document client', () => storeOnDocumentClient],
    ])('Should store an event once and keep the first received_at when it arrives again (single writes through %s)', async (_, writer) => {
      // Prepare
      const org = randomUUID();
      const { text } = example('marquez/event_full.json');
      const first = record(text, new Date('2024-01-01T00:00:00Z'));
      const again = record(text, new Date('2024-06-01T00:00:00Z'));

      // Act
      const outcomes = [await writer().put(org, first), await writer().put(org, again)];

      // Assess
      expect(outcomes).toEqual(['stored', 'duplicate']);
      const { events } = await listAll(org);
      expect(events).toEqual([toPublicEvent(first.event)]);
      expect(events[0]?.received_at).toBe('2024-01-01T00:00:00.000000+00:00');
    });

    it('Should store a batch once per distinct event, leaving events stored earlier untouched', async () => {
      // Prepare
      const org = randomUUID();
      const earlier = record(example('marquez/event_simple.json').text, new Date('2024-01-01T00:00:00Z'));
      await store.put(org, earlier);
      const fresh = record(example('marquez/event_unicode.json').text);
      const resent = record(example('marquez/event_simple.json').text);

      // Act
      const outcomes = await store.putMany(org, [fresh, resent, fresh]);

      // Assess
      expect(outcomes).toEqual([
        { ok: true, outcome: 'stored' },
        { ok: true, outcome: 'duplicate' },
        { ok: true, outcome: 'duplicate' },
      ]);
      const { events } = await listAll(org);
      expect(events.map((e) => e.id).sort()).toEqual([earlier.event.id, fresh.event.id].sort());
      expect(events.find((e) => e.id === earlier.event.id)?.received_at).toBe('2024-01-01T00:00:00.000000+00:00');
    });

    it('Should write batches larger than one BatchWriteItem and give every event back whole', async () => {
      // Prepare
      const org = randomUUID();
      const events = dataset(120, 11);

      // Act
      const outcomes = await store.putMany(org, events.map((e) => record(e.text)));

      // Assess
      expect(outcomes.every((o) => o.ok && o.outcome === 'stored')).toBe(true);
      const { events: listed } = await listAll(org);
      expect(listed).toHaveLength(120);
      const byId = new Map(events.map((e) => [e.id, e]));
      for (const e of listed) expect(e.event_raw).toEqual(JSON.parse(byId.get(e.id)?.text ?? 'null'));
    });

    it('Should keep a body too large for an item in the blob store, written once, and give it back whole', async () => {
      // Prepare
      const org = randomUUID();
      let x = 7;
      let noise = '';
      while (noise.length < 3 * MAX_INLINE_ITEM_BYTES) noise += ((x = (x * 48_271) % 2_147_483_647) >>> 0).toString(36);
      const big = JSON.parse(example('marquez/event_simple.json').text) as { run: { facets?: unknown } };
      big.run.facets = { noise: { _producer: 'https://example.com/p', _schemaURL: 'https://example.com/s', noise } };
      const text = JSON.stringify(big);
      const before = await blobs.count();

      // Act
      const outcomes = [await store.put(org, record(text)), await store.put(org, record(text))];
      const batchOutcome = await store.putMany(org, [record(text)]);

      // Assess
      expect(outcomes).toEqual(['stored', 'duplicate']);
      expect(batchOutcome).toEqual([{ ok: true, outcome: 'duplicate' }]);
      expect(await blobs.count()).toBe(before + 1);
      const { events } = await listAll(org);
      expect(events).toHaveLength(1);
      expect(events[0]?.event_raw).toEqual(big);
      expect(events[0]?.event_size_in_bytes).toBe(Buffer.byteLength(text));
    });
  });

  describe('DynamoEventStore listing', () => {
    const org = randomUUID();
    const otherOrg = randomUUID();
    let events: ReferenceEvent[];

    beforeAll(async () => {
      events = dataset(300, 5);
      const outcomes = await store.putMany(org, events.map((e) => record(e.text)));
      expect(outcomes.every((o) => o.ok)).toBe(true);
      // Another org's events in the same window must never show up.
      await store.putMany(otherOrg, dataset(40, 6).map((e) => record(e.text)));
    });

    const compare = async (params: Record<string, string>) => {
      const query: EventListQuery = parseListQuery({ ...WHOLE_TIME, ...params });
      const page = await store.list(org, query);
      expect(page.events.map((e) => e.id)).toEqual(referencePage(events, query));
      // The count is the whole listing's, whatever the page.
      expect(await store.count(org, query)).toBe(referencePage(events, { ...query, limit: events.length, offset: 0 }).length);
      return page;
    };

    it.each([
      [{}],
      [{ order: 'ASC' }],
      [{ sort_by: 'EVENT_SIZE_IN_BYTES' }],
      [{ sort_by: 'EVENT_SIZE_IN_BYTES', order: 'ASC' }],
      [{ limit: '1000' }],
      [{ limit: '7', offset: '293' }],
      [{ offset: '400' }],
      [{ states: 'FAIL' }],
      [{ states: 'COMPLETE,ABORT' }],
      [{ states: 'START,RUNNING,COMPLETE', order: 'ASC' }],
      [{ states: 'OTHER', sort_by: 'EVENT_SIZE_IN_BYTES' }],
      [{ namespace: 'PROD' }],
      [{ job: 'daily' }],
      [{ job: 'étl_ü' }],
      [{ job: 'nothing-matches-this' }],
      [{ integrations: 'SPARK,unknown' }],
      [{ namespace: 'prod', job: 'i', integrations: 'airflow,spark,dbt', states: 'COMPLETE', limit: '5', offset: '3' }],
    ])('Should list %j exactly as the reference does', async (params) => {
      await compare(params);
    });

    it('Should list a run, in time or size order, with filters', async () => {
      const run = events[0]?.runId as string;
      await compare({ run });
      await compare({ run, order: 'ASC', limit: '5', offset: '5' });
      await compare({ run, sort_by: 'EVENT_SIZE_IN_BYTES', limit: '1000' });
      await compare({ run: run.toUpperCase(), sort_by: 'EVENT_SIZE_IN_BYTES', order: 'ASC', states: 'COMPLETE,FAIL' });
    });

    it('Should honour the time window, start inclusive and end exclusive, to the microsecond', async () => {
      const sorted = [...events].sort((a, b) => (a.timeKey < b.timeKey ? -1 : 1));
      const pivot = sorted[150] as ReferenceEvent;
      const seconds = pivot.micros / 1_000_000n;
      await compare({ start: String(seconds), end: String(seconds + 1n), limit: '1000' });
      await compare({ start: String(seconds), end: String(seconds + 5n), sort_by: 'EVENT_SIZE_IN_BYTES', limit: '1000' });
      await compare({ start: String(seconds + 1n), end: String(seconds + 3n), states: 'START', order: 'ASC' });
    });

    it('Should page through everything without skipping or repeating, for random filter combinations', async () => {
      const random = seededRandom(99);
      const choices: Record<string, string[]> = {
        sort_by: ['EVENT_TIME', 'EVENT_SIZE_IN_BYTES'],
        order: ['ASC', 'DESC'],
        states: ['FAIL', 'COMPLETE,START', 'RUNNING,OTHER,ABORT,FAIL'],
        job: ['a', 'hourly'],
        integrations: ['spark', 'airflow,unknown'],
      };
      for (let round = 0; round < 12; round++) {
        const params: Record<string, string> = { limit: String(1 + Math.floor(random() * 40)) };
        for (const [name, values] of Object.entries(choices)) if (random() < 0.5) params[name] = values[Math.floor(random() * values.length)] as string;
        const query = parseListQuery({ ...WHOLE_TIME, ...params, limit: '1000' });
        const expected = referencePage(events, query);
        const seen: string[] = [];
        for (let offset = 0; offset <= expected.length; offset += Number(params.limit)) {
          const page = await store.list(org, parseListQuery({ ...WHOLE_TIME, ...params, offset: String(offset) }));
          seen.push(...page.events.map((e) => e.id));
        }
        expect(seen).toEqual(expected);
      }
    });

    it("Should never show another org's events", async () => {
      const { events: listed } = await listAll(otherOrg);
      expect(listed).toHaveLength(40);
      expect(await store.count(otherOrg, parseListQuery(WHOLE_TIME))).toBe(40);
      expect(await store.count(randomUUID(), parseListQuery(WHOLE_TIME))).toBe(0);
      const mine = new Set(events.map((e) => e.id));
      expect(listed.some((e) => mine.has(e.id))).toBe(false);
      expect((await listAll(randomUUID())).events).toEqual([]);
    });

    it('Should continue a page from where the previous page of the same listing ended, exactly as a full merge does', async () => {
      // Prepare: pages of 7 walked in order, then the same offsets asked for out of order.
      const listing = { ...WHOLE_TIME, limit: '7' };
      const expected = referencePage(events, parseListQuery({ ...WHOLE_TIME, limit: '1000' }));
      // Act
      const walked: string[] = [];
      for (let offset = 0; offset < expected.length + 7; offset += 7) {
        walked.push(...(await store.list(org, parseListQuery({ ...listing, offset: String(offset) }))).events.map((e) => e.id));
      }
      const jumped = await store.list(org, parseListQuery({ ...listing, offset: '63' }));
      // Assess
      expect(walked).toEqual(expected);
      expect(jumped.events.map((e) => e.id)).toEqual(expected.slice(63, 70));
    });
  });

  describe('DynamoEventStore listing past index entries whose items are gone', () => {
    /**
     * The store on a client that deletes chosen events' items (for real, on the backend) just
     * before the store reads them: the store has read their index entries, and the items are gone
     * — what it meets after a crash of the local store (entries written, items not yet) and in
     * DynamoDB when an item is deleted before its index follows.
     */
    const storeDeletingBeforeRead = (doomed: Set<string>): DynamoEventStore => {
      const table = dynamo.tableName(EVENTS_TABLE);
      const doc = new Proxy(dynamo.doc, {
        get(target, name, receiver) {
          if (name !== 'send') return Reflect.get(target, name, receiver) as unknown;
          return async (command: Parameters<DynamoDBDocumentClient['send']>[0]) => {
            if (command instanceof BatchGetCommand) {
              const keys = command.input.RequestItems?.[table]?.Keys ?? [];
              const gone = keys.map((key) => String(key.pk)).filter((pk) => doomed.delete(pk));
              await Promise.all(gone.map((pk) => target.send(new DeleteCommand({ TableName: table, Key: { pk } }))));
            }
            return target.send(command);
          };
        },
      });
      return new DynamoEventStore(doc, table, () => blobs.store);
    };

    it.each<[string, Record<string, string>]>([
      ['a namespace filter, newest first', { namespace: 'staging', limit: '30' }],
      ['a namespace filter, oldest first', { namespace: 'prod', order: 'ASC', limit: '30' }],
      ['a run in size order', { run: 'first', sort_by: 'EVENT_SIZE_IN_BYTES', limit: '10' }],
    ])('Should fill every page from further entries and page through every event left once, with %s', async (_, params) => {
      // Prepare: the first page's events and every seventh after them lose their items when first read.
      const org = randomUUID();
      const events = dataset(240, 11);
      expect((await store.putMany(org, events.map((e) => record(e.text)))).every((o) => o.ok)).toBe(true);
      const listing = { ...WHOLE_TIME, ...params, ...(params.run === undefined ? {} : { run: events[0]?.runId as string }) };
      const limit = Number(params.limit);
      const expected = referencePage(events, parseListQuery({ ...listing, limit: '1000' }));
      const doomedIds = expected.filter((_, i) => i < limit || i % 7 === 0);
      const doomed = new Set(doomedIds.map((id) => `${org}#${id}`));
      const paging = storeDeletingBeforeRead(doomed);

      // Act: offset += limit, as the contract tells clients to page.
      const pages: string[][] = [];
      for (let offset = 0; offset <= expected.length; offset += limit) {
        pages.push((await paging.list(org, parseListQuery({ ...listing, offset: String(offset) }))).events.map((e) => e.id));
      }

      // Assess: every event whose item is left, once and in order, in pages cut short only at the end.
      const left = expected.filter((id) => !doomedIds.includes(id));
      expect(doomed.size).toBe(0);
      expect(pages.flat()).toEqual(left);
      const full = Math.floor(left.length / limit);
      expect(pages.slice(0, full).every((page) => page.length === limit)).toBe(true);
      expect(pages.slice(full).flat()).toHaveLength(left.length % limit);
    });
  });
});

describe('DynamoEventStore during a store outage', () => {
  // Nothing listens on port 9 (discard) on loopback here: every request is refused.
  const deadClient = localDynamoClient('http://127.0.0.1:9');
  const deadPutClient = localDynamoClient('http://127.0.0.1:9', { cacheMiddleware: true });
  const dead = new DynamoEventStore(createDocumentClient(deadClient), localTableName(EVENTS_TABLE), () => directoryBlobs().store, { putClient: deadPutClient });
  afterAll(() => {
    deadClient.destroy();
    deadPutClient.destroy();
  });

  it('Should fail a single write with an error the API maps to 503', async () => {
    // Act
    const error = await dead.put(randomUUID(), record(example('marquez/event_simple.json').text)).catch((err: unknown) => err);

    // Assess
    expect(isTransientInfrastructureError(error)).toBe(true);
  });

  it('Should report every event of a batch as retriable instead of throwing', async () => {
    // Act
    const outcomes = await dead.putMany(randomUUID(), [record(example('marquez/event_simple.json').text), record(eventText({ time: '2024-01-01T00:00:00Z', runId: randomUUID(), state: 'START', job: 'j', namespace: 'n', producer: 'urn:x', padding: 0, seq: 1 }))]);

    // Assess
    expect(outcomes).toEqual([
      { ok: false, reason: 'Server error: the store is unavailable; retry later', retriable: true },
      { ok: false, reason: 'Server error: the store is unavailable; retry later', retriable: true },
    ]);
  });

  it('Should fail a listing with an error the API maps to 503', async () => {
    // Act
    const error = await dead.list(randomUUID(), parseListQuery(WHOLE_TIME)).catch((err: unknown) => err);

    // Assess
    expect(isTransientInfrastructureError(error)).toBe(true);
  });
});
