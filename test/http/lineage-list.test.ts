// GET /api/v1/events through the local gateway: every parameter, every invalid value (400 naming
// it), stable order with ties broken by id, pagination that never skips or repeats, and only the
// caller's organization's events.
import { beforeAll, describe, expect, it } from 'vitest';
import { parseListQuery } from '#domain/lineage/list-query';
import { dataset, referencePage, type ReferenceEvent } from '../adapters/lineage-fixtures.ts';
import { freshOrg, type LineageApi } from './lineage-api.ts';

const BASE = 1_650_000_000;
const WINDOW = { start: String(BASE), end: String(BASE + 100) };

let api: LineageApi;
let events: ReferenceEvent[];

beforeAll(async () => {
  ({ api } = await freshOrg('Listing'));
  events = dataset(320, 42, BASE);
  for (let i = 0; i < events.length; i += 160) {
    const answer = await api.batch(`[${events.slice(i, i + 160).map((e) => e.text).join(',')}]`);
    expect(answer.body).toMatchObject({ status: 'success' });
  }
  // The same data in another org: none of it may ever show up here (same ids, other org).
  const other = await freshOrg('Listing twin');
  await other.api.batch(`[${dataset(50, 43, BASE).map((e) => e.text).join(',')}]`);
});

const ids = async (params: Record<string, string>): Promise<string[]> => {
  const answer = await api.events(params);
  expect(answer.status, JSON.stringify(answer.body).slice(0, 200)).toBe(200);
  return answer.body.map((e) => e.id);
};

const expected = (params: Record<string, string>): string[] => referencePage(events, parseListQuery(params));

describe('GET /api/v1/events: filters and order', () => {
  it('Should have exact ties in time and in size in its data set, so tie-breaking is exercised', () => {
    const tied = <T>(values: T[]) => values.filter((v, i) => values.indexOf(v) !== i || values.lastIndexOf(v) !== i).length;
    expect(tied(events.map((e) => e.micros))).toBeGreaterThan(100);
    expect(tied(events.map((e) => e.size))).toBeGreaterThan(250);
  });

  it('Should default to 30 events, newest first', async () => {
    // Act
    const answer = await api.events(WINDOW);

    // Assess
    expect(answer.body.map((e) => e.id)).toEqual(expected({ ...WINDOW, limit: '30' }));
    expect(answer.body).toHaveLength(30);
    // Pages are never cut short, so offset += limit is all a client needs; no paging headers.
    expect(answer.headers.get('x-lakeline-next-offset')).toBeNull();
    const times = answer.body.map((e) => e.event_time);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it.each([
    [{ order: 'ASC' }],
    [{ order: 'asc', limit: '100' }],
    [{ sort_by: 'EVENT_SIZE_IN_BYTES', limit: '100' }],
    [{ sort_by: 'EVENT_SIZE_IN_BYTES', order: 'ASC', limit: '50', offset: '20' }],
    [{ states: 'COMPLETE' }],
    [{ states: 'FAIL,ABORT', order: 'ASC' }],
    [{ states: 'START,RUNNING,OTHER', limit: '1000' }],
    [{ namespace: 'prod' }],
    [{ namespace: 'PROD-AIR' }],
    [{ job: 'DAILY_' }],
    [{ job: 'étl_ü' }],
    [{ integrations: 'spark' }],
    [{ integrations: 'Airflow,unknown', sort_by: 'EVENT_SIZE_IN_BYTES' }],
    [{ namespace: 'prod', job: 'o', states: 'COMPLETE,START', integrations: 'spark,airflow,dbt', limit: '10', offset: '2' }],
    [{ limit: '1000' }],
    [{ offset: '10000' }],
    [{ offset: '1000000' }],
    [{ offset: String(Number.MAX_SAFE_INTEGER) }],
  ])('Should answer %j as the contract says', async (params) => {
    expect(await ids({ ...WINDOW, ...params })).toEqual(expected({ ...WINDOW, ...params }));
  });

  it('Should list one run, in time and size order', async () => {
    const run = events[3]?.runId as string;
    expect(await ids({ ...WINDOW, run, limit: '1000' })).toEqual(expected({ ...WINDOW, run, limit: '1000' }));
    expect(await ids({ ...WINDOW, run, sort_by: 'EVENT_SIZE_IN_BYTES', order: 'ASC', limit: '15', offset: '3' })).toEqual(
      expected({ ...WINDOW, run, sort_by: 'EVENT_SIZE_IN_BYTES', order: 'ASC', limit: '15', offset: '3' }),
    );
  });

  it('Should take start as inclusive and end as exclusive', async () => {
    const second = String(BASE + 10);
    const window = { start: second, end: String(BASE + 11), limit: '1000' };
    const inWindow = await ids(window);
    expect(inWindow).toEqual(expected(window));
    expect(inWindow.length).toBeGreaterThan(0);
    expect(await ids({ start: String(BASE + 11), end: String(BASE + 12), limit: '1000' })).not.toEqual(expect.arrayContaining(inWindow));
  });

  it('Should accept repeated list parameters as one list', async () => {
    const response = await fetch(`${api.baseUrl}/api/v1/events?start=${WINDOW.start}&end=${WINDOW.end}&states=FAIL&states=ABORT`, { headers: api.headers });
    const body = (await response.json()) as { id: string }[];
    expect(body.map((e) => e.id)).toEqual(expected({ ...WINDOW, states: 'FAIL,ABORT' }));
  });
});

describe('GET /api/v1/events: pagination', () => {
  it.each([
    ['time DESC', {}],
    ['time ASC', { order: 'ASC' }],
    ['size DESC', { sort_by: 'EVENT_SIZE_IN_BYTES' }],
    ['size ASC with a filter', { sort_by: 'EVENT_SIZE_IN_BYTES', order: 'ASC', states: 'COMPLETE,FAIL,OTHER' }],
  ])('Should page through %s with limit 7 without skipping or repeating an event', async (_name, params: Record<string, string>) => {
    // Prepare
    const whole = expected({ ...WINDOW, ...params, limit: '1000' });

    // Act
    const paged: string[] = [];
    for (let offset = 0; offset < whole.length + 7; offset += 7) paged.push(...(await ids({ ...WINDOW, ...params, limit: '7', offset: String(offset) })));

    // Assess
    expect(paged).toEqual(whole);
    expect(new Set(paged).size).toBe(paged.length);
    expect(await ids({ ...WINDOW, ...params, limit: '1000' })).toEqual(whole);
  });
});

describe('GET /api/v1/events: pages are never cut short', () => {
  it('Should return every event to a client paging with offset += limit, however large the events (8 MB of them here)', async () => {
    // Prepare: 24 events of about 330 KB each, more than the 5 MiB a page was once cut at.
    const { api: big } = await freshOrg('Large pages');
    const texts = Array.from({ length: 24 }, (_, i) => {
      const event = JSON.parse(dataset(1, 900 + i, BASE + 200)[0]?.text ?? '{}') as { run: { facets: Record<string, unknown> } };
      event.run.facets.bulk = { _producer: 'https://example.com/p', _schemaURL: 'https://example.com/s', text: `${i}:`.padEnd(330_000, 'abcdefghij') };
      return JSON.stringify(event);
    });
    for (const text of texts) expect((await big.post(text)).status).toBe(200);
    // Act
    const seen: string[] = [];
    for (let offset = 0; offset < 30; offset += 10) {
      const page = await big.events({ start: String(BASE + 200), end: String(BASE + 300), limit: '10', offset: String(offset) });
      expect(page.status).toBe(200);
      seen.push(...page.body.map((e) => e.id));
    }
    const whole = await big.events({ start: String(BASE + 200), end: String(BASE + 300), limit: '100' });
    // Assess
    expect(new Set(seen).size).toBe(24);
    expect(whole.body).toHaveLength(24);
    expect(whole.headers.get('x-lakeline-truncated')).toBeNull();
  });

  it('Should gzip a large page for a client that accepts it, and send it plain otherwise', async () => {
    // Act
    const zipped = await fetch(`${api.baseUrl}/api/v1/events?${new URLSearchParams({ ...WINDOW, limit: '300' })}`, { headers: { ...api.headers, 'accept-encoding': 'gzip' } });
    const plainAnswer = await fetch(`${api.baseUrl}/api/v1/events?${new URLSearchParams({ ...WINDOW, limit: '300' })}`, { headers: { ...api.headers, 'accept-encoding': 'identity' } });
    // Assess
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(plainAnswer.headers.get('content-encoding')).toBeNull();
    expect(await zipped.json()).toEqual(await plainAnswer.json());
  });
});

describe('GET /api/v1/events: parameter validation', () => {
  it.each([
    [{ end: '2' }, 'start: is required (UNIX epoch seconds)'],
    [{ start: '1' }, 'end: is required (UNIX epoch seconds)'],
    [{ start: 'yesterday', end: '2' }, 'start: must be an integer (UNIX epoch seconds)'],
    [{ start: '1', end: '1.5' }, 'end: must be an integer (UNIX epoch seconds)'],
    [{ ...WINDOW, namespace: 'n'.repeat(5_000) }, 'namespace: must be at most 2,048 characters'],
    [{ ...WINDOW, job: 'j'.repeat(2_049) }, 'job: must be at most 2,048 characters'],
    [{ ...WINDOW, integrations: 'i'.repeat(4_097) }, 'integrations: must be at most 4,096 characters'],
    [{ start: '99999999999999999999', end: '5' }, 'start: must be a 64-bit integer (UNIX epoch seconds)'],
    [{ ...WINDOW, sort_by: 'SIZE' }, 'sort_by: must be one of EVENT_TIME, EVENT_SIZE_IN_BYTES'],
    [{ ...WINDOW, order: 'NEWEST' }, 'order: must be one of ASC, DESC'],
    [{ ...WINDOW, run: 'not-a-uuid' }, 'run: must be a UUID'],
    [{ ...WINDOW, states: 'COMPLETE,DONE' }, 'states: DONE is not one of START, RUNNING, COMPLETE, ABORT, FAIL, OTHER'],
    [{ ...WINDOW, states: '' }, 'states: must list at least one of START, RUNNING, COMPLETE, ABORT, FAIL, OTHER'],
    [{ ...WINDOW, integrations: ' ' }, 'integrations: must list at least one integration name'],
    [{ ...WINDOW, limit: '0' }, 'limit: must be an integer between 1 and 1000'],
    [{ ...WINDOW, limit: '1001' }, 'limit: must be an integer between 1 and 1000'],
    [{ ...WINDOW, limit: 'all' }, 'limit: must be an integer between 1 and 1000'],
    [{ ...WINDOW, offset: '-7' }, 'offset: must be a non-negative integer'],
    [{ ...WINDOW, offset: '1.5' }, 'offset: must be a non-negative integer'],
    [{ ...WINDOW, offset: '9007199254740992' }, 'offset: must be a non-negative integer, at most 9007199254740991'],
    [{ ...WINDOW, sortBy: 'EVENT_TIME' }, /^sortBy: is not a parameter of this endpoint/],
  ])('Should refuse %j with a 400 naming the parameter', async (params, error) => {
    // Act
    const answer = await api.events(params as Record<string, string>);

    // Assess
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.body)).toEqual(['error']);
    expect(answer.body.error).toMatch(error);
  });
});

describe('GET /api/v1/events: an empty window', () => {
  it.each([
    [{ start: '5', end: '5' }],
    [{ start: '1800000000', end: '1700000000' }],
  ])('Should answer %j, an end at or before start, with an empty page (the window holds no event)', async (params) => {
    // Act
    const answer = await api.events(params);

    // Assess
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([]);
  });
});

describe('GET /api/v1/events: organizations', () => {
  it("Should show each organization only its own events, even when another holds the same events", async () => {
    // Prepare
    const stranger = await freshOrg('Stranger');

    // Act
    const mine = await ids({ ...WINDOW, limit: '1000' });
    const theirs = await stranger.api.events({ ...WINDOW, limit: '1000' });

    // Assess
    expect(mine).toHaveLength(new Set(events.map((e) => e.id)).size);
    expect(theirs).toMatchObject({ status: 200, body: [] });
  });
});
