// POST /api/v1/lineage through the local gateway (real authorizer, handler, dynalite and blob
// directory): every reference event round-trips through GET /api/v1/events with event_raw equal
// to what was sent and the derived fields right; invalid events, bad bodies, gzip, large events
// and resends.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { deriveStoredEvent, toPublicEvent } from '#domain/lineage/derive';
import { eventId } from '#domain/lineage/event-id';
import { parseEventTime } from '#domain/lineage/event-time';
import type { StoredLineageEvent } from '#domain/lineage/types';
import { validateEvent } from '#domain/lineage/validate';
import { example, loadExamples } from '../unit/domain/lineage/examples.ts';
import { ALL_TIME, freshOrg, lineageApi, type LineageApi } from './lineage-api.ts';

const stack = inject('stack');

/** The stored events of the second of `eventTime`, by id. */
const eventsAround = async (api: LineageApi, eventTime: string): Promise<Map<string, StoredLineageEvent>> => {
  const seconds = parseEventTime(eventTime).epochMicros / 1_000_000n;
  const { status, body } = await api.events({ start: String(seconds), end: String(seconds + 1n), limit: '1000' });
  expect(status).toBe(200);
  return new Map(body.map((e) => [e.id, e]));
};

/** The expected stored event, but for received_at (set by the service). */
const expectedOf = (json: object, bytes: number) => {
  const { received_at: _r, ...rest } = toPublicEvent(deriveStoredEvent(json, bytes, new Date()));
  return rest;
};

describe('POST /api/v1/lineage: every reference event', () => {
  let api: LineageApi;
  beforeAll(async () => {
    ({ api } = await freshOrg('Examples'));
  });

  it('Should accept every valid example and give it back from the events endpoint unchanged, with the derived fields right', async () => {
    const firstSize = new Map<string, number>();
    for (const { name, text, bytes } of loadExamples()) {
      const json = JSON.parse(text) as Record<string, unknown>;
      if (!validateEvent(json).ok) continue;
      const before = Date.now();

      // Act
      const posted = await api.post(text);

      // Assess
      expect(posted, name).toMatchObject({ status: 200, body: { status: 200 } });
      const id = eventId(json);
      if (!firstSize.has(id)) firstSize.set(id, bytes);
      const stored = (await eventsAround(api, String(json.eventTime))).get(id);
      expect(stored, name).toBeDefined();
      expect(stored?.event_raw, name).toEqual(json);
      expect(stored, name).toMatchObject(expectedOf(json, firstSize.get(id) as number));
      const receivedAt = Date.parse(stored?.received_at ?? '');
      if (firstSize.get(id) === bytes) expect(receivedAt, name).toBeGreaterThanOrEqual(before - 1);
    }
    expect(firstSize.size).toBeGreaterThan(30);
  });

  it('Should list the stored event with exactly the contract fields, in order', async () => {
    // Prepare
    const { text, json } = example('marquez/event_full.json');
    await api.post(text);

    // Act
    const stored = (await eventsAround(api, String(json.eventTime))).get(eventId(json));

    // Assess
    expect(Object.keys(stored ?? {})).toEqual([
      'id', 'run_id', 'run_state', 'received_at', 'job_name', 'job_namespace', 'event_time', 'event_schema', 'event_schema_version',
      'event_size_in_bytes', 'event_raw', 'produced_by', 'integration', 'integration_version', 'parent_run_id', 'parent_job_namespace',
      'parent_job_name', 'inputs', 'outputs',
    ]);
    expect(stored?.received_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);
  });

  it.each(loadExamples().filter((e) => !validateEvent(JSON.parse(e.text)).ok).map((e) => [e.name, e.text] as const))(
    'Should refuse the invalid example %s with a 400 naming the field, and store nothing',
    async (_name, text) => {
      // Act
      const posted = await api.post(text);

      // Assess
      const verdict = validateEvent(JSON.parse(text));
      expect(verdict.ok).toBe(false);
      expect(posted).toMatchObject({ status: 400, body: { error: verdict.ok ? '' : verdict.error } });
    },
  );

  it('Should refuse the fluentd event without a run id as run.runId being required', async () => {
    // Act
    const posted = await api.post(example('fluentd/event_no_run_id.json').text);

    // Assess
    expect(posted.status).toBe(400);
    expect((posted.body as { error: string }).error).toMatch(/^run\.runId: is required/);
  });
});

describe('POST /api/v1/lineage: bodies', () => {
  let api: LineageApi;
  let orgId: string;
  beforeAll(async () => {
    ({ api, orgId } = await freshOrg('Bodies'));
  });

  it('Should accept a gzip body and size the event by its decompressed bytes', async () => {
    // Prepare
    const { text, json, bytes } = example('marquez/event_unicode.json');

    // Act
    const posted = await api.post(gzipSync(text), { 'content-encoding': 'gzip' });

    // Assess
    expect(posted).toMatchObject({ status: 200, body: { status: 200 } });
    const stored = (await eventsAround(api, String(json.eventTime))).get(eventId(json));
    expect(stored?.event_raw).toEqual(json);
    expect(stored?.event_size_in_bytes).toBe(bytes);
  });

  it('Should store the 220 KB reference event whole', async () => {
    // Prepare
    const { text, json, bytes } = example('marquez/event_large.json');
    expect(bytes).toBeGreaterThan(200_000);

    // Act
    const posted = await api.post(text);

    // Assess
    expect(posted.status).toBe(200);
    const stored = (await eventsAround(api, String(json.eventTime))).get(eventId(json));
    expect(stored?.event_raw).toEqual(json);
    expect(stored?.event_size_in_bytes).toBe(bytes);
  });

  it('Should keep an event above the 400 KB item limit in the blob store and give it back whole', async () => {
    // Prepare: 1.5 MB of noise in a facet, which compression cannot bring under the item limit.
    const json = JSON.parse(example('marquez/event_simple.json').text) as Record<string, unknown> & { run: { facets?: unknown } };
    let x = 17;
    let noise = '';
    while (noise.length < 1_500_000) noise += ((x = (x * 48_271) % 2_147_483_647) >>> 0).toString(36);
    json.run.facets = { noise: { _producer: 'https://example.com/p', _schemaURL: 'https://example.com/s', noise } };
    const text = JSON.stringify(json, null, 1);

    // Act
    const posted = await api.post(text);

    // Assess
    expect(posted.status).toBe(200);
    const id = eventId(json);
    const blobDir = path.join(stack.home, 'blobs', 'events', orgId, id);
    expect(existsSync(blobDir) ? readdirSync(blobDir) : []).toHaveLength(1);
    const stored = (await eventsAround(api, String(json.eventTime))).get(id);
    expect(stored?.event_raw).toEqual(json);
    expect(stored?.event_size_in_bytes).toBe(Buffer.byteLength(text));
  });

  it('Should keep a large but compressible event (3 MB) and give it back whole', async () => {
    // Prepare
    const json = JSON.parse(example('marquez/event_full.json').text) as Record<string, unknown> & { run: { facets: Record<string, unknown> } };
    json.run.facets.padding = { _producer: 'https://example.com/p', _schemaURL: 'https://example.com/s', rows: Array.from({ length: 30_000 }, (_, i) => ({ i, name: `column_${i % 50}` })) };
    const text = JSON.stringify(json);
    expect(text.length).toBeGreaterThan(800_000);

    // Act
    const posted = await api.post(gzipSync(text), { 'content-encoding': 'gzip' });

    // Assess
    expect(posted.status).toBe(200);
    const stored = (await eventsAround(api, String(json.eventTime))).get(eventId(json));
    expect(stored?.event_raw).toEqual(json);
  });

  it('Should store an event sent twice once, keeping the first received_at, whatever its key order and spacing', async () => {
    // Prepare
    const { text, json } = example('marquez/event_required_nanoseconds.json');
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(json).reverse()), null, 4);

    // Act
    const first = await api.post(text);
    const stored = await eventsAround(api, String(json.eventTime));
    const second = await api.post(text);
    const third = await api.post(reordered);

    // Assess
    expect([first.status, second.status, third.status]).toEqual([200, 200, 200]);
    const after = await eventsAround(api, String(json.eventTime));
    expect(after.size).toBe(stored.size);
    expect(after.get(eventId(json))).toEqual(stored.get(eventId(json)));
  });

  it.each([
    ['an empty body', '', 'body: is required'],
    ['text that is not JSON', '{"eventTime": ', /^body: must be valid JSON/],
    ['a JSON array', '[]', 'event: must be a JSON object, not an array'],
    ['a JSON string', '"event"', 'event: must be a JSON object'],
    ['an object missing every field', '{}', /^eventTime: is required; producer: is required/],
  ])('Should refuse %s with a 400', async (_what, body, error) => {
    // Act
    const posted = await api.post(body);

    // Assess
    expect(posted.status).toBe(400);
    expect((posted.body as { error: string }).error).toMatch(error);
  });

  it('Should refuse data that is not gzip when the body says it is', async () => {
    // Act
    const posted = await api.post('{"not":"gzip"}', { 'content-encoding': 'gzip' });

    // Assess
    expect(posted).toMatchObject({ status: 400, body: { error: 'body: is not valid gzip data' } });
  });

  it('Should refuse a gzip body that inflates beyond 10 MB with a 413', async () => {
    // Prepare: 11 MB of spaces compresses to about 11 KB.
    const bomb = gzipSync(Buffer.alloc(11 * 1024 * 1024, ' '));

    // Act
    const posted = await api.post(bomb, { 'content-encoding': 'gzip' });

    // Assess
    expect(posted).toMatchObject({ status: 413, body: { error: expect.stringMatching(/^body: larger than 10485760 bytes once decompressed/) as unknown } });
  });

  it('Should refuse a caller without a valid key with the contract 401, storing nothing', async () => {
    // Act
    const posted = await lineageApi(stack.baseUrl, 'll_nope_nope').post(example('marquez/event_simple.json').text);

    // Assess
    expect(posted).toMatchObject({ status: 401, body: { error: 'Unauthorized' } });
  });

  it('Should not make the event visible to another organization', async () => {
    // Prepare
    const other = await freshOrg('Other');
    const { text, json } = example('marquez/event_additional_facet.json');
    await api.post(text);

    // Act
    const theirs = await other.api.events({ ...ALL_TIME, limit: '1000' });
    const mine = await eventsAround(api, String(json.eventTime));

    // Assess
    expect(theirs).toMatchObject({ status: 200, body: [] });
    expect(mine.has(eventId(json))).toBe(true);
  });
});

describe('POST /api/v1/lineage: what was sent is what is stored, or a 4xx naming the problem', () => {
  let api: LineageApi;
  beforeAll(async () => {
    ({ api } = await freshOrg('Strict bodies'));
  });
  const simple = () => JSON.parse(example('marquez/event_simple.json').text) as Record<string, unknown> & { run: Record<string, unknown>; eventTime: string };
  /** The event's JSON with `replacement` put where `marker` is (as raw bytes when a Buffer). */
  const bytesWith = (marker: string, replacement: Buffer): Buffer => {
    const text = JSON.stringify({ ...simple(), job: { namespace: 'strict', name: marker } });
    const at = text.indexOf(marker);
    return Buffer.concat([Buffer.from(text.slice(0, at)), replacement, Buffer.from(text.slice(at + marker.length))]);
  };

  it.each([
    ['a stray continuation byte', Buffer.from([0x61, 0x80, 0x62])],
    ['an encoded lone surrogate', Buffer.from([0xed, 0xa0, 0x80])],
    ['an overlong slash', Buffer.from([0xc0, 0xaf])],
  ])('Should refuse a body with %s with a 400, storing nothing', async (_name, bad) => {
    // Act
    const posted = await api.post(bytesWith('MARKER', bad));
    const listed = await api.events({ ...ALL_TIME, limit: '1000' });
    // Assess
    expect(posted.status).toBe(400);
    expect((posted.body as { error: string }).error).toMatch(/^body: is not valid UTF-8 \(first bad byte at offset \d+\); send UTF-8 text$/);
    expect(listed.body.filter((e) => e.job_namespace === 'strict')).toEqual([]);
  });

  it.each([
    ['a number too large for a double', (t: string) => t.replace('"run":{', '"run":{"facets":{"x":{"_producer":"https://p","_schemaURL":"https://s","n":1e999}},'), 'run.facets.x.n: is a number too large'],
    ['a lone surrogate escape', (t: string) => t.replace('"job":{"namespace":"', '"job":{"namespace":"\\ud800'), 'body.job.namespace: contains a lone surrogate (\\ud800)'],
  ])('Should refuse %s with a 400 naming the field', async (_name, edit, message) => {
    // Act
    const compact = JSON.stringify(simple());
    const edited = edit(compact);
    expect(edited).not.toBe(compact);
    const posted = await api.post(edited);
    // Assess
    expect(posted.status).toBe(400);
    expect((posted.body as { error: string }).error).toContain(message);
  });

  it.each([['text/plain'], ['application/x-www-form-urlencoded']])('Should refuse Content-Type %s with 415 and store nothing', async (type) => {
    // Act
    const posted = await api.post(example('marquez/event_simple.json').text, { 'content-type': type });
    // Assess
    expect(posted).toMatchObject({ status: 415, body: { error: `Content-Type: ${type} is not supported; send the body as JSON with Content-Type: application/json` } });
  });

  it('Should read a body without Content-Type as JSON (some clients omit it)', async () => {
    // Act
    const posted = await fetch(`${api.baseUrl}/api/v1/lineage`, { method: 'POST', headers: api.headers, body: Buffer.from(example('marquez/event_unicode.json').text) });
    // Assess
    expect(posted.status).toBe(200);
  });
});

describe('POST /api/v1/lineage: facet slips of real producers', () => {
  it("Should keep an event whose Spark debug facet lacks _producer and _schemaURL, as sent, with warnings the events API shows", async () => {
    // Prepare: the shape the Spark integration 1.53 sends with spark.openlineage.facets.debug.disabled=false.
    const { api } = await freshOrg('Facet slips');
    const event = {
      eventType: 'START',
      eventTime: '2026-11-20T10:00:00.000Z',
      producer: 'https://github.com/OpenLineage/OpenLineage/tree/1.53.0/integration/spark',
      schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
      run: {
        runId: '0193a8c2-fe01-7439-87e6-56a1a1b4029f',
        facets: {
          debug: {
            classpath: { sparkVersion: '3.5.1', openLineageVersion: '1.53.0', scalaVersion: '2.12', jars: [] },
            system: { sparkDeployMode: 'client', javaVersion: '17.0.15', osName: 'Linux' },
            config: { extraListeners: 'io.openlineage.spark.agent.OpenLineageSparkListener' },
            logicalPlan: { nodes: [] },
          },
        },
      },
      job: { namespace: 'spark_debug', name: 'app.execute_insert_into' },
      inputs: [],
      outputs: [],
    };
    const text = JSON.stringify(event);
    // Act
    const posted = await api.post(text);
    const listed = await api.events({ ...ALL_TIME, job: 'execute_insert_into' });
    // Assess
    expect(posted).toMatchObject({ status: 200, body: { status: 200 } });
    expect(listed.body).toHaveLength(1);
    expect(listed.body[0]?.event_raw).toEqual(event);
    expect(listed.body[0]?.warnings).toEqual(['run.facets.debug._producer: is required (facet kept as sent)', 'run.facets.debug._schemaURL: is required (facet kept as sent)']);
  });
});
