/**
 * The MCP server through the local gateway (`POST /mcp`, the SDK's own Streamable HTTP client) and
 * over stdio (`lakeline mcp`, the SDK's stdio client): initialize, list the tools, call them on
 * lineage this suite ingests and on the lake; `confirm` missing is refused, another org sees
 * nothing, a bad argument is a tool error naming it, an API error is a tool error in its words.
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runEventJson } from '../unit/domain/lineage-graph/events.ts';
import { eventually } from './lineage-graph-api.ts';
import { orgWithKey, storesAt } from '../helpers/stores.ts';
import { freshOrg } from './lineage-api.ts';
import { httpMcpClient, stdioMcpClient } from './mcp-clients.ts';

const NS = 'mcp_suite';
const T0 = Date.parse('2026-03-01T10:00:00Z');
const at = (minutes: number): string => new Date(T0 + minutes * 60_000).toISOString();
const failure = { errorMessage: { _producer: 'https://example.com/p', _schemaURL: 'https://openlineage.io/spec/facets/1-0-0/ErrorMessageRunFacet.json', message: 'division by zero in revenue', programmingLanguage: 'python' } };

/** mart.revenue's `total` column comes from staging.orders' `amount` (ColumnLineageDatasetFacet 1-2-0). */
const columnLineage = {
  columnLineage: {
    _producer: 'https://example.com/p',
    _schemaURL: 'https://openlineage.io/spec/facets/1-2-0/ColumnLineageDatasetFacet.json',
    fields: { total: { inputFields: [{ namespace: NS, name: 'staging.orders', field: 'amount', transformations: [{ type: 'INDIRECT', subtype: 'AGGREGATION' }] }] } },
  },
};

const httpClient = (baseUrl: string, token: string): Promise<Client> => httpMcpClient(baseUrl, token);

const call = async (client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult & { structuredContent?: Record<string, unknown> }> =>
  (await client.callTool({ name, arguments: args })) as CallToolResult & { structuredContent?: Record<string, unknown> };
const textOf = (result: CallToolResult): string => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

describe('MCP server', () => {
  const stack = inject('stack');
  let client: Client;
  let token: string;
  const runs = { extractOk: randomUUID(), extractFail: randomUUID(), reportFail: randomUUID() };

  beforeAll(async () => {
    const org = await freshOrg('MCP test');
    token = org.token;
    // extract: raw.orders → staging.orders; report: staging.orders → mart.revenue. Both failed in
    // one window: the report's failure has an upstream cause.
    const events = [
      runEventJson({ eventType: 'START', time: at(0), runId: runs.extractOk, job: { namespace: NS, name: 'extract' }, inputs: [`${NS}:raw.orders`], outputs: [`${NS}:staging.orders`] }),
      runEventJson({
        eventType: 'COMPLETE',
        time: at(5),
        runId: runs.extractOk,
        job: { namespace: NS, name: 'extract' },
        inputs: [`${NS}:raw.orders`],
        outputs: [`${NS}:staging.orders`],
        // A large facet (a Spark plan's size): left out of a run's answer, with its size said.
        runFacets: { spark_plan: { _producer: 'https://example.com/p', _schemaURL: 'https://example.com/plan.json', plan: 'x'.repeat(10_000) } },
      }),
      runEventJson({ eventType: 'START', time: at(60), runId: runs.extractFail, job: { namespace: NS, name: 'extract' }, inputs: [`${NS}:raw.orders`], outputs: [`${NS}:staging.orders`] }),
      runEventJson({ eventType: 'FAIL', time: at(62), runId: runs.extractFail, job: { namespace: NS, name: 'extract' }, runFacets: { errorMessage: { ...failure.errorMessage, message: 'source unreachable' } } }),
      runEventJson({ eventType: 'START', time: at(70), runId: runs.reportFail, job: { namespace: NS, name: 'report' }, inputs: [`${NS}:staging.orders`], outputs: [{ namespace: NS, name: 'mart.revenue', facets: columnLineage }] }),
      runEventJson({ eventType: 'FAIL', time: at(71), runId: runs.reportFail, job: { namespace: NS, name: 'report' }, runFacets: failure }),
    ];
    for (const event of events) expect((await org.api.post(JSON.stringify(event))).status).toBe(200);
    client = await httpClient(stack.baseUrl, token);
    // The lineage model is maintained asynchronously: wait until the report's failure shows.
    await eventually(
      () => call(client, 'get_job', { namespace: NS, name: 'report' }),
      (r) => !r.isError && (r.structuredContent?.runs as { state: string }[] | undefined)?.[0]?.state === 'FAILED',
      Date.now(),
      10_000,
    );
  });

  afterAll(async () => {
    await client?.close();
  });

  it('Should initialize as lakeline and list the lineage and lake tools, the write tools marked destructive', async () => {
    expect(client.getServerVersion()?.name).toBe('lakeline');
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).sort();
    expect(names).toEqual(
      ['abort_run', 'column_lineage', 'describe_table', 'get_job', 'get_lineage_run', 'get_run', 'lineage_graph', 'lineage_paths', 'list_events', 'list_tables', 'run_query', 'search', 'submit_write', 'why_failed'].sort(),
    );
    expect(tools.every((t) => t.outputSchema?.type === 'object')).toBe(true);
    expect(tools.find((t) => t.name === 'submit_write')?.annotations?.destructiveHint).toBe(true);
    expect(tools.find((t) => t.name === 'run_query')?.annotations?.readOnlyHint).toBe(true);
  });

  it('Should find the jobs and datasets by name', async () => {
    const result = await call(client, 'search', { q: 'orders' });
    expect(result.isError).toBeFalsy();
    const hits = (result.structuredContent?.results as { nodeId: string }[]).map((r) => r.nodeId).sort();
    expect(hits).toEqual([`dataset:${NS}:raw.orders`, `dataset:${NS}:staging.orders`]);
  });

  it('Should answer a node\'s lineage graph compactly: nodes and edges', async () => {
    const result = await call(client, 'lineage_graph', { nodeId: `dataset:${NS}:staging.orders`, depth: 2 });
    expect(result.isError).toBeFalsy();
    const graph = result.structuredContent as { nodes: { id: string; type: string }[]; edges: { from: string; to: string }[] };
    expect(graph.nodes.map((n) => n.id).sort()).toEqual([`dataset:${NS}:mart.revenue`, `dataset:${NS}:raw.orders`, `dataset:${NS}:staging.orders`, `job:${NS}:extract`, `job:${NS}:report`].sort());
    expect(graph.edges).toContainEqual({ from: `job:${NS}:report`, to: `dataset:${NS}:mart.revenue` });
    expect(graph.nodes[0]).not.toHaveProperty('data');
    expect(textOf(result)).toContain('5 nodes');
    expect(result.structuredContent).toMatchObject({ truncated: false, totalNodes: 5 });
    const limited = await call(client, 'lineage_graph', { nodeId: `dataset:${NS}:staging.orders`, depth: 2, maxNodes: 2 });
    expect(limited.structuredContent).toMatchObject({ truncated: true, totalNodes: 5 });
    expect((limited.structuredContent?.nodes as { id: string }[]).map((n) => n.id)).toContain(`dataset:${NS}:staging.orders`);
    expect(textOf(limited)).toContain('truncated: 2 of 5 nodes');
  });

  it('Should find the path between two nodes either way round', async () => {
    const down = await call(client, 'lineage_paths', { from: `dataset:${NS}:raw.orders`, to: `dataset:${NS}:mart.revenue` });
    expect(down.structuredContent).toMatchObject({ direction: 'downstream', paths: [[`dataset:${NS}:raw.orders`, `job:${NS}:extract`, `dataset:${NS}:staging.orders`, `job:${NS}:report`, `dataset:${NS}:mart.revenue`]] });
    const up = await call(client, 'lineage_paths', { from: `dataset:${NS}:mart.revenue`, to: `dataset:${NS}:raw.orders` });
    expect(up.structuredContent).toMatchObject({ direction: 'upstream' });
    const none = await call(client, 'lineage_paths', { from: `dataset:${NS}:mart.revenue`, to: `dataset:${NS}:mart.revenue` });
    expect(none.structuredContent).toMatchObject({ direction: 'none', paths: [] });
  });

  it('Should tell why a run failed: its error and the failed upstream run in the window', async () => {
    const result = await call(client, 'why_failed', { runId: runs.reportFail });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ failed: true, run: { error: { message: 'division by zero in revenue' } }, upstreamJobsChecked: 1 });
    const upstream = result.structuredContent?.failedUpstream as { runId: string; error?: { message: string } }[];
    expect(upstream.map((r) => [r.runId, r.error?.message])).toEqual([[runs.extractFail, 'source unreachable']]);
    expect(textOf(result)).toContain('division by zero in revenue');
  });

  it('Should answer a job with its recent runs, and one run with its events and versions', async () => {
    const job = await call(client, 'get_job', { namespace: NS, name: 'extract' });
    expect((job.structuredContent?.runs as { runId: string; state: string }[]).map((r) => [r.runId, r.state])).toEqual([
      [runs.extractFail, 'FAILED'],
      [runs.extractOk, 'COMPLETED'],
    ]);
    const run = await call(client, 'get_lineage_run', { runId: runs.extractOk });
    expect(run.isError).toBeFalsy();
    expect((run.structuredContent?.events as { eventType: string }[]).map((e) => e.eventType)).toEqual(['START', 'COMPLETE']);
    expect((run.structuredContent?.outputs as { name: string }[]).map((v) => v.name)).toEqual(['staging.orders']);
    const facets = (run.structuredContent?.run as { facets: Record<string, { _lakeline?: string }> }).facets;
    expect(facets.spark_plan?._lakeline).toMatch(/^facet left out: \d+ bytes of JSON/);
  });

  it('Should answer a column\'s lineage as columns and edges with their transformations', async () => {
    const result = await call(client, 'column_lineage', { nodeId: `datasetField:${NS}:mart.revenue:total` });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent?.edges).toEqual([{ from: `datasetField:${NS}:staging.orders:amount`, to: `datasetField:${NS}:mart.revenue:total`, transformations: ['INDIRECT/AGGREGATION'] }]);
  });

  it('Should list the events with the events API\'s filters, saying where the next page starts', async () => {
    const result = await call(client, 'list_events', { start: 0, end: 253402300800, states: 'FAIL', limit: 1 });
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent?.events as unknown[]).length).toBe(1);
    expect(result.structuredContent?.nextOffset).toBe(1);
  });

  it('Should run a read query, giving the engine decision and saying when rows were capped', async () => {
    const result = await call(client, 'run_query', { query: 'SELECT * FROM range(5) t(x)', maxRows: 2 });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ success: true, rows_capped: true, engine_decision: { engine: 'duckdb' } });
    expect((result.structuredContent?.results as { rows: unknown[] }).rows).toHaveLength(2);
    expect(textOf(result)).toContain('rows capped');
    const explained = await call(client, 'run_query', { query: 'SELECT 1', explain: true });
    expect(explained.structuredContent).toMatchObject({ explain: true });
  });

  it('Should list the lake\'s tables, and describe none that does not exist', async () => {
    const result = await call(client, 'list_tables', {});
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(Array.isArray(result.structuredContent?.tables)).toBe(true);
    const missing = await call(client, 'describe_table', { namespace: 'mcp_suite', table: 'nothing_here' });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/lakeline API answered 404: /);
  });

  it('Should refuse a write without confirm: true, naming confirm, and write nothing', async () => {
    const result = await call(client, 'submit_write', { query: 'SELECT 1 AS x', destination: 'mcp_suite.never_written' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('confirm');
    const tables = await call(client, 'list_tables', { namespace: 'mcp_suite' });
    expect(tables.structuredContent?.tables).toEqual([]);
  });

  it('Should write a table once confirmed, follow the run with get_run to COMPLETE, and abort another run', async () => {
    // Prepare: Spark is metered: an org with a payment method.
    const stores = storesAt(stack.dynamodbEndpoint);
    const { token: payingKey } = await orgWithKey(stores, { name: 'MCP writer', plan: 'pro', paymentMethod: true }).finally(() => stores.close());
    const writer = await httpClient(stack.baseUrl, payingKey);
    // Act: a confirmed write is a Spark run; get_run follows it.
    const written = await call(writer, 'submit_write', { query: 'SELECT 1 AS x', destination: 'mcp_suite.confirmed', confirm: true });
    expect(written.isError, textOf(written)).toBeFalsy();
    const runId = written.structuredContent?.run_id as string;
    expect(written.structuredContent).toMatchObject({ state: 'SUBMITTED' });
    let run = await call(writer, 'get_run', { runId });
    for (let tries = 0; tries < 240 && !['COMPLETE', 'FAIL', 'ABORT'].includes(String(run.structuredContent?.state)); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      run = await call(writer, 'get_run', { runId });
    }
    // A second write, aborted while it queues or starts.
    const second = await call(writer, 'submit_write', { query: 'SELECT 2 AS x', destination: 'mcp_suite.aborted', confirm: true });
    const aborted = await call(writer, 'abort_run', { runId: second.structuredContent?.run_id as string });

    // Assess
    expect(run.structuredContent).toMatchObject({ state: 'COMPLETE' });
    expect(textOf(run)).toContain('COMPLETE');
    expect(aborted.isError).toBeFalsy();
    expect(aborted.structuredContent).toMatchObject({ state: 'ABORT' });
    const tables = await call(writer, 'list_tables', { namespace: 'mcp_suite' });
    expect((tables.structuredContent?.tables as { table: string }[]).map((t) => t.table)).toEqual(['confirmed']);
    await writer.close();
  }, 150_000);

  it('Should answer a bad argument with a tool error naming it', async () => {
    const result = await call(client, 'lineage_graph', { nodeId: `job:${NS}:extract`, depth: -1 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('depth');
  });

  it('Should pass the API\'s own message on as the tool error', async () => {
    const result = await call(client, 'get_run', { runId: randomUUID() });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/lakeline API answered 404: /);
  });

  it('Should show another org nothing of this one', async () => {
    const other = await freshOrg('MCP other');
    const stranger = await httpClient(stack.baseUrl, other.token);
    try {
      expect((await call(stranger, 'search', { q: 'orders' })).structuredContent).toMatchObject({ totalCount: 0, results: [] });
      const run = await call(stranger, 'get_lineage_run', { runId: runs.reportFail });
      expect(run.isError).toBe(true);
      expect(textOf(run)).toContain('404');
    } finally {
      await stranger.close();
    }
  });

  it('Should answer a client accepting only JSON, and refuse a batch or a body that is no JSON-RPC message with a 400 naming it', async () => {
    const post = (body: unknown, accept = 'application/json') =>
      fetch(`${stack.baseUrl}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept }, body: JSON.stringify(body) });
    const listed = await post({ jsonrpc: '2.0', id: 7, method: 'tools/list' });
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { id: number; result: { tools: unknown[] } }).result.tools).toHaveLength(14);
    const notified = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect([notified.status, await notified.text()]).toEqual([202, '']);
    const batch = await post([{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
    expect([batch.status, ((await batch.json()) as { error: string }).error]).toEqual([400, 'body: one JSON-RPC message per request (MCP 2025-06-18 has no batches)']);
    const junk = await post({ jsonrpc: '2.0', id: 1 });
    expect(junk.status).toBe(400);
    expect(((await junk.json()) as { error: string }).error).toMatch(/^body: not a JSON-RPC 2.0 message/);
  });

  it('Should refuse a caller without a key', async () => {
    const response = await fetch(`${stack.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
  });

  it("Should call the API at the gateway's own address whatever Host header the request carries", async () => {
    // A Host naming a port nothing listens on: were the tools to follow it, the key would go there and the call would fail.
    const url = new URL(`${stack.baseUrl}/mcp`);
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search', arguments: { q: 'orders' } } });
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(
        { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { host: '127.0.0.1:1', authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' } },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(answer.status).toBe(200);
    const result = (JSON.parse(answer.text) as { result: { isError?: boolean; structuredContent: { totalCount: number } } }).result;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.totalCount).toBe(2);
  });

  it('Should serve the same tools over stdio (`lakeline mcp`)', async () => {
    const stdio = await stdioMcpClient(stack.baseUrl, token);
    try {
      expect((await stdio.listTools()).tools.length).toBe(14);
      const result = await call(stdio, 'why_failed', { runId: runs.reportFail });
      expect(result.structuredContent).toMatchObject({ failed: true, run: { error: { message: 'division by zero in revenue' } } });
    } finally {
      await stdio.close();
    }
  });
});
