/**
 * POST /api/v1/warehouse/query through the local gateway: the contract's QueryResponse, job
 * identity, explainResult on request, every 4xx with its body (400 naming the field, the firewall,
 * DuckDB's own message, 401, 403 below Pro), 500 `{status: 500}` on the unexpected, and the
 * START/COMPLETE/FAIL lineage each run leaves in GET /api/v1/events.
 */
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { specProblems } from '../unit/domain/query/openlineage-spec.ts';
import { buildTables, freshOrg, warehouseApi, type WarehouseApi } from './warehouse-api.ts';

const stack = inject('stack');
/** The demo org: Pro, with TPC-H SF 0.01 in namespace `tpch`. */
const demo = warehouseApi(stack.baseUrl, stack.apiKey);
const NATIONS = 'SELECT n_nationkey, n_name FROM tpch.nation WHERE n_nationkey < 3 ORDER BY n_nationkey';

describe('POST /api/v1/warehouse/query: the QueryResponse', () => {
  it("Should answer the rows with DuckDB's type names, the row count, the time, the query and its job", async () => {
    // Act
    const answer = await demo.query({ query: NATIONS });
    // Assess
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.body).toEqual({
      success: true,
      results: { columns: ['n_nationkey', 'n_name'], column_types: ['INTEGER', 'VARCHAR'], rows: [[0, 'ALGERIA'], [1, 'ARGENTINA'], [2, 'BRAZIL']] },
      row_count: 3,
      execution_time: expect.stringMatching(/^\d+ms$/),
      query: NATIONS,
      job: { namespace: 'lakeline', name: expect.stringMatching(/^q_[0-9a-f]{32}$/) },
    });
    expect(answer.headers.get('x-lakeline-cache')).toBe('off');
  });

  it('Should resolve lakeline.<namespace>.<table> and <namespace>.<table> alike, and refuse a bare table name', async () => {
    // Act
    const qualified = await demo.query({ query: 'SELECT count(*) AS n FROM lakeline.tpch.region' });
    const short = await demo.query({ query: 'SELECT count(*) AS n FROM tpch.region' });
    const bare = await demo.query({ query: 'SELECT count(*) AS n FROM region' });
    // Assess
    expect(qualified.body.results?.rows).toEqual([[5]]);
    expect(short.body.results?.rows).toEqual([[5]]);
    expect(bare.status).toBe(400);
    expect(bare.body).toEqual({ error: expect.stringMatching(/region/) });
  });

  it('Should give the same job to the same query however it is spaced or cased', async () => {
    // Act
    const a = await demo.query({ query: NATIONS });
    const b = await demo.query({ query: NATIONS.toLowerCase().replaceAll(' ', '\n  ') });
    // Assess
    expect(b.body.job).toEqual(a.body.job);
  });

  it("Should add DuckDB's plan as key/value rows in explainResult when asked, and not otherwise", async () => {
    // Act
    const answer = await demo.query({ query: NATIONS, explain: true });
    // Assess
    expect(answer.status).toBe(200);
    expect(answer.body.results?.rows).toHaveLength(3);
    expect(answer.body.explainResult).toEqual({
      success: true,
      results: { columns: ['explain_key', 'explain_value'], column_types: ['VARCHAR', 'VARCHAR'], rows: [['physical_plan', expect.stringContaining('ORDER_BY')]] },
      row_count: 1,
      execution_time: expect.stringMatching(/^\d+ms$/),
    });
    expect((await demo.query({ query: NATIONS })).body).not.toHaveProperty('explainResult');
  });
});

describe('POST /api/v1/warehouse/query: errors', () => {
  it.each([
    ['{}', 'query: is required'],
    ['{"query": 7}', 'query: must be a string'],
    ['{"query": ""}', 'query: must not be empty'],
    ['{"query": "SELECT 1", "autoSaveByHash": "yes"}', 'autoSaveByHash: must be a boolean'],
    ['{"query": "SELECT 1", "limit": 5}', 'limit: is not a field of this request'],
    ['[1]', 'body: must be a JSON object'],
  ])('Should answer 400 naming the field for %s', async (body, error) => {
    // Act
    const answer = await demo.query(body);
    // Assess
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error });
  });

  it('Should answer 400 for a body that is not JSON', async () => {
    // Act
    const answer = await demo.query('{"query": ');
    // Assess
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/^body: must be valid JSON/);
  });

  it("Should answer 400 with DuckDB's own message for an SQL error", async () => {
    // Act
    const unknownColumn = await demo.query({ query: 'SELECT nope FROM tpch.nation' });
    const syntax = await demo.query({ query: 'SELECT FROM WHERE' });
    // Assess
    expect(unknownColumn.status).toBe(400);
    expect(unknownColumn.body).toEqual({ error: expect.stringMatching(/^Binder Error: Referenced column "nope" not found/) });
    expect(syntax.status).toBe(400);
    expect(Object.keys(syntax.body)).toEqual(['error']);
  });

  it.each([
    ["SELECT * FROM read_csv('/etc/passwd')", /read_csv/],
    ["COPY tpch.nation TO '/tmp/out.csv'", /COPY/],
    ["SET enable_external_access = true", /SET/],
    ["ATTACH '/tmp/x.db' AS x", /ATTACH/],
    ["SELECT * FROM '/etc/passwd'", /path|file/i],
    ['CREATE TABLE tpch.copy AS SELECT * FROM tpch.nation', /./],
  ])('Should refuse %s with 400 before DuckDB sees it', async (query, construct) => {
    // Act
    const answer = await demo.query({ query });
    // Assess
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: expect.stringMatching(construct) });
  });

  it("Should answer 400 for a result too large to return inline, saying what to do", async () => {
    // Act
    const answer = await demo.query({ query: "SELECT repeat('x', 1000) AS filler FROM range(8000)" });
    // Assess
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/larger than 5 MB/);
  });

  it('Should answer 401 {error: Unauthorized} without a valid key', async () => {
    // Act
    const none = await fetch(`${stack.baseUrl}/api/v1/warehouse/query`, { method: 'POST', body: JSON.stringify({ query: 'SELECT 1' }) });
    const wrong = await warehouseApi(stack.baseUrl, 'll_0000000000000000_00').query({ query: 'SELECT 1' });
    // Assess
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ error: 'Unauthorized' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: 'Unauthorized' });
  });

  it('Should answer 403 {error} naming the Pro plan for a Free organization', async () => {
    // Prepare
    const { api } = await freshOrg('Free warehouse caller', { plan: 'free' });
    // Act
    const answer = await api.query({ query: 'SELECT 1' });
    // Assess
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ error: expect.stringMatching(/Pro plan/) });
  });

  it("Should not see another organization's tables", async () => {
    // Prepare
    const { api } = await freshOrg('Warehouse stranger');
    // Act
    const answer = await api.query({ query: 'SELECT count(*) FROM tpch.nation' });
    // Assess
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/tpch\.nation/);
  });

  it('Should answer 500 {status: 500} when the lake itself is broken', async () => {
    // Prepare: a table whose data file is gone
    const { orgId, api } = await freshOrg('Broken lake');
    await buildTables(orgId, 'broken', ['counter']);
    const described = await api.table('broken', 'counter');
    const location = String((described.body as { location: string }).location);
    rmSync(`${fileURLToPath(location)}/data`, { recursive: true, force: true });
    // Act
    const answer = await api.query({ query: 'SELECT * FROM broken.counter' });
    // Assess
    expect(answer.status).toBe(500);
    expect(answer.body).toEqual({ status: 500 });
  });
});

describe('POST /api/v1/warehouse/query: lineage', () => {
  let api: WarehouseApi;
  let tableLocation: string;

  beforeAll(async () => {
    const org = await freshOrg('Warehouse lineage');
    api = org.api;
    await buildTables(org.orgId, 'shop', ['counter']);
    tableLocation = String(((await api.table('shop', 'counter')).body as { location: string }).location);
  });

  it('Should record START and COMPLETE for the run, with its inputs, job and facets, valid against the spec', async () => {
    // Act
    const answer = await api.query({ query: 'SELECT n FROM shop.counter' });
    const events = await api.runEvents(answer.headers.get('x-lakeline-run-id') as string);
    // Assess
    expect(events.map((e) => e.run_state)).toEqual(['START', 'COMPLETE']);
    for (const event of events) {
      expect(event).toMatchObject({
        job_namespace: 'lakeline',
        job_name: answer.body.job?.name,
        integration: 'lakeline',
        inputs: [{ namespace: 'file', name: fileURLToPath(tableLocation) }],
        outputs: [],
      });
      expect(specProblems(event.event_raw)).toEqual([]);
      expect(event.event_raw).toMatchObject({
        run: { facets: { processing_engine: { name: 'duckdb', version: expect.stringMatching(/^1\.5\./) } } },
        job: { facets: { sql: { query: 'SELECT n FROM shop.counter', dialect: 'duckdb' }, jobType: { processingType: 'BATCH', integration: 'LAKELINE', jobType: 'QUERY' } } },
      });
    }
  });

  it("Should record FAIL with DuckDB's message when the query fails", async () => {
    // Act
    const answer = await api.query({ query: 'SELECT nope FROM shop.counter' });
    const [start, fail] = await eventsOfLatestRun(api, answer.body.error as string);
    // Assess
    expect(start?.run_state).toBe('START');
    expect(fail?.run_state).toBe('FAIL');
    expect(specProblems(fail?.event_raw as object)).toEqual([]);
    expect(fail?.event_raw).toMatchObject({ run: { facets: { errorMessage: { message: answer.body.error, programmingLanguage: 'SQL' } } } });
  });
});

/** A failed request carries no run id header; its run is the one whose FAIL carries its error. */
const eventsOfLatestRun = async (api: WarehouseApi, error: string) => {
  const fails = await api.events({ states: 'FAIL' });
  const fail = fails.find((e) => (e.event_raw as { run: { facets: { errorMessage?: { message: string } } } }).run.facets.errorMessage?.message === error);
  if (!fail?.run_id) throw new Error('no FAIL event carries the error');
  return api.runEvents(fail.run_id);
};
