/**
 * Read-only API keys (ADR 0049), through the local gateway: a key made with `--read-only` reads
 * everything its org's full key reads, and is refused with a 403 naming the reason — nothing
 * stored — wherever a request would store or change data: events (single and batch), a routed
 * query that writes a table (its `explain` still answers), the legacy endpoint's `autoSaveByHash`,
 * a managed Spark job, aborting a run. Its MCP server, over HTTP and over stdio, lists no tool
 * that writes; the health answer says the key's scope.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createKey } from '#domain/orgs/manage';
import { runEventJson } from '../unit/domain/lineage-graph/events.ts';
import { orgWithKey, storesAt } from '../helpers/stores.ts';
import { httpMcpClient, stdioMcpClient } from './mcp-clients.ts';

const stack = inject('stack');
let fullKey: string;
let readKey: string;
/** A read-only key of the demo org, whose lake holds TPC-H (the fresh org's lake is empty). */
let demoReadKey: string;

const call = async (token: string, method: string, route: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> => {
  const response = await fetch(`${stack.baseUrl}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
};

const event = (name: string) => runEventJson({ eventType: 'COMPLETE', time: '2026-03-01T10:00:00Z', runId: randomUUID(), job: { namespace: 'read_only_suite', name }, inputs: ['pg:raw.orders'], outputs: [] });
const errorOf = (answer: { body: Record<string, unknown> }): string => String(answer.body.error ?? answer.body.message ?? '');
const storedEvents = async (): Promise<unknown[]> => (await call(fullKey, 'GET', '/api/v1/events?start=0&end=253402300800&namespace=read_only_suite&limit=100')).body as unknown as unknown[];

beforeAll(async () => {
  const stores = storesAt(stack.dynamodbEndpoint);
  try {
    const { org, token } = await orgWithKey(stores, { name: 'Read-only keys test', plan: 'pro', paymentMethod: true });
    fullKey = token;
    readKey = (await createKey(stores.orgs, stores.keys, org.orgId, 'agent', new Date(), 'read')).token;
    demoReadKey = (await createKey(stores.orgs, stores.keys, stack.orgId, 'read-only-suite', new Date(), 'read')).token;
  } finally {
    stores.close();
  }
  expect((await call(fullKey, 'POST', '/api/v1/lineage', event('written_by_the_full_key'))).status).toBe(200);
});

describe('a read-only key', () => {
  it('Should read what the full key reads: events, tables, a routed read, the health answer with its scope', async () => {
    expect((await call(readKey, 'GET', '/api/v1/events?start=0&end=253402300800&limit=10')).status).toBe(200);
    expect((await call(demoReadKey, 'GET', '/api/v1/tables?namespace=tpch')).status).toBe(200);
    const read = await call(demoReadKey, 'POST', '/api/v1/query', { query: 'SELECT n_name FROM tpch.nation ORDER BY 1 LIMIT 2' });
    expect([read.status, read.body.state]).toEqual([200, 'COMPLETE']);
    expect((await call(readKey, 'GET', '/api/v1/health')).body.keyScope).toBe('read');
    expect((await call(fullKey, 'GET', '/api/v1/health')).body.keyScope).toBe('full');
  });

  it.each([
    ['POST', '/api/v1/lineage', () => event('refused_single')],
    ['POST', '/api/v1/lineage/batch', () => [event('refused_batch')]],
    ['POST', '/api/v2/spark/query', () => ({ namespace: 'etl', name: 'copy', query: 'SELECT * FROM tpch.nation', output_table: 'lakeline.analytics.read_only_copy' })],
    ['POST', `/api/v1/runs/${randomUUID()}/abort`, () => undefined],
  ])('Should refuse %s %s with a 403 naming the read-only key, storing nothing', async (method, route, body) => {
    const answer = await call(readKey, method, route, body());
    expect(answer.status).toBe(403);
    expect(errorOf(answer)).toMatch(/read-only/);
    expect(await storedEvents()).toHaveLength(1);
  });

  it('Should refuse a routed query that writes a table, and still explain it', async () => {
    const write = await call(demoReadKey, 'POST', '/api/v1/query', { query: 'SELECT * FROM tpch.nation', destination: 'analytics.read_only_nations', write_mode: 'overwrite' });
    expect([write.status, errorOf(write)]).toEqual([403, expect.stringMatching(/read-only: the query writes lakeline\.analytics\.read_only_nations/)]);
    const ctas = await call(demoReadKey, 'POST', '/api/v1/query', { query: 'CREATE TABLE analytics.read_only_ctas AS SELECT * FROM tpch.region' });
    expect(ctas.status).toBe(403);
    const explain = await call(demoReadKey, 'POST', '/api/v1/query', { query: 'SELECT * FROM tpch.nation', destination: 'analytics.read_only_nations', explain: true });
    expect([explain.status, explain.body.explain]).toEqual([200, true]);
    const tables = (await call(stack.apiKey, 'GET', '/api/v1/tables?namespace=analytics')).body as unknown as { table: string }[];
    expect(JSON.stringify(tables)).not.toMatch(/read_only_(nations|ctas)/);
  });

  it("Should refuse the legacy endpoint's autoSaveByHash, and answer the same query without it", async () => {
    const saved = await call(demoReadKey, 'POST', '/api/v1/warehouse/query', { query: 'SELECT r_name FROM tpch.region', autoSaveByHash: true });
    expect([saved.status, errorOf(saved)]).toEqual([403, expect.stringMatching(/read-only: autoSaveByHash/)]);
    expect((await call(demoReadKey, 'POST', '/api/v1/warehouse/query', { query: 'SELECT r_name FROM tpch.region', autoSaveByHash: false })).status).toBe(200);
  });

  it('Should be shown no MCP tool that writes, over HTTP and over stdio; the full key sees them', async () => {
    const toolsOver = async (token: string): Promise<string[]> => {
      const client = await httpMcpClient(stack.baseUrl, token, 'read-only-test');
      try {
        return (await client.listTools()).tools.map((t) => t.name);
      } finally {
        await client.close();
      }
    };
    const readTools = await toolsOver(readKey);
    expect(readTools).toContain('run_query');
    expect(readTools.filter((t) => t === 'submit_write' || t === 'abort_run')).toEqual([]);
    expect(await toolsOver(fullKey)).toEqual(expect.arrayContaining(['submit_write', 'abort_run']));

    const stdio = await stdioMcpClient(stack.baseUrl, readKey, 'read-only-stdio-test');
    try {
      expect((await stdio.listTools()).tools.map((t) => t.name).sort()).toEqual([...readTools].sort());
    } finally {
      await stdio.close();
    }
  });
});
