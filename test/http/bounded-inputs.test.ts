/**
 * Bounded inputs through the local gateway (issue 23): every text the contract takes has a length
 * the OpenAPI document states, and a longer one is a 400 naming the field and the limit; SQL is
 * bounded by size and by complexity before it is parsed, on the routed and the legacy endpoints;
 * and what the tables list returns is what the describe route takes.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { freshOrg } from './warehouse-api.ts';

const stack = inject('stack');
let token: string;
let orgApi: Awaited<ReturnType<typeof freshOrg>>['api'];

const get = async (path: string): Promise<{ status: number; body: Record<string, unknown> & { error?: string } }> => {
  const response = await fetch(`${stack.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

const post = async (path: string, body: unknown): Promise<{ status: number; body: { error?: string }; ms: number }> => {
  const started = performance.now();
  const response = await fetch(`${stack.baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const parsed = (await response.json()) as { error?: string };
  return { status: response.status, body: parsed, ms: performance.now() - started };
};

beforeAll(async () => {
  ({ token, api: orgApi } = await freshOrg('Bounded inputs'));
});

describe('text parameters: a value over its documented length is a 400 naming the field and the limit', () => {
  it.each([
    // 9,000 characters, not the finding's 10,000: the request line and headers must stay within
    // the gateway's 10,240 bytes, or the answer is its 431.
    ['/api/v1/events?start=0&end=10&namespace=', 'n'.repeat(9_000), 'namespace: must be at most 2,048 characters'],
    ['/api/v1/search?q=', 'q'.repeat(1_001), 'q: must be at most 1,000 characters'],
    ['/api/v1/search?q=x&namespace=', 'n'.repeat(2_049), 'namespace: must be at most 2,048 characters'],
    ['/api/v1/lineage?nodeId=job:ns:', 'j'.repeat(8_190), 'nodeId: must be at most 8,192 characters'],
    ['/api/v1/column-lineage?nodeId=dataset:ns:', 'd'.repeat(8_190), 'nodeId: must be at most 8,192 characters'],
    ['/api/v1/namespaces/', `${'n'.repeat(2_049)}/jobs`, 'namespace: must be at most 2,048 characters'],
    ['/api/v1/namespaces/ns/datasets/', 'd'.repeat(2_049), 'dataset: must be at most 2,048 characters'],
    ['/api/v1/tables?namespace=', 'n'.repeat(9_000), 'namespace: must be at most 128 characters'],
    ['/api/v1/tables/', `${'n'.repeat(129)}/t`, 'namespace: must be at most 128 characters'],
  ])('Should answer GET %s<long value> with a 400', async (prefix, value, message) => {
    // Act
    const answer = await get(`${prefix}${value}`);
    // Assess
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe(message);
  });

  it('Should refuse an empty tables namespace filter, as the document\'s pattern does', async () => {
    // Act
    const answer = await get('/api/v1/tables?namespace=');
    // Assess
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/^namespace: '' must be letters, digits and underscores/);
  });

  it.each([
    ['/api/v1/warehouse/query', { query: `SELECT '${'x'.repeat(262_144)}'` }, 'query: must be at most 262,144 characters'],
    ['/api/v2/spark/query', { namespace: 'n'.repeat(257), name: 'j', query: 'SELECT 1', output_table: 'lakeline.a.b' }, 'namespace: must be at most 256 characters'],
  ])('Should answer POST %s with a body field over its length with a 400 naming it', async (path, body, message) => {
    // Act
    const answer = await post(path, body);
    // Assess
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe(message);
  });
});

describe('SQL: bounded by size and complexity before it is parsed', () => {
  /** `SELECT … WHERE o_orderkey = 0 OR o_orderkey = 1 …`, as long as fits in `bytes`. */
  const orChain = (bytes: number): string => {
    let sql = 'SELECT count(*) FROM tpch.orders WHERE o_orderkey = 0';
    for (let i = 1; sql.length + ` OR o_orderkey = ${i}`.length <= bytes; i++) sql += ` OR o_orderkey = ${i}`;
    return sql;
  };

  it.each([
    ['routed', '/api/v1/query'],
    ['legacy', '/api/v1/warehouse/query'],
  ])('Should refuse a 256 KiB OR chain on the %s endpoint with a 400 naming the complexity limit, at once', async (name, path) => {
    // Prepare
    const sql = orChain(256 * 1024);
    // Act
    const answer = await post(path, { query: sql });
    // Assess
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/^SQL is too complex: 2[\d,]+ operators \(AND, OR, comparisons, arithmetic\), more than the 2,000 a statement may hold/);
    console.log(`${name}: a ${sql.length}-character OR chain answered 400 in ${Math.round(answer.ms)} ms`);
    expect(answer.ms).toBeLessThan(3_000);
  });
});

describe('tables: the list gives what the describe route takes', () => {
  it('Should describe an autosave table by the namespace and table the list returns for it', async () => {
    // Prepare: an autosaved result is a table lakeline names (autosave.q_…)
    const saved = await orgApi.query({ query: 'SELECT 42 AS answer', autoSaveByHash: true });
    expect(saved.status).toBe(200);
    // Act
    const listed = await get('/api/v1/tables?namespace=autosave');
    const [entry] = listed.body as unknown as { namespace: string; name: string; table: string; qualified_name: string }[];
    const described = await get(`/api/v1/tables/${encodeURIComponent(entry?.namespace ?? '')}/${encodeURIComponent(entry?.table ?? '')}`);
    // Assess
    expect(listed.status).toBe(200);
    expect(entry?.qualified_name).toBe(`lakeline.autosave.${entry?.table}`);
    expect(described.status).toBe(200);
    expect(described.body).toMatchObject({ namespace: 'autosave', name: entry?.table });
  });
});
