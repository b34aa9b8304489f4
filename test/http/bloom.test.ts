/**
 * The bloom engine through HTTP, on the shared local stack's demo org (TPC-H SF 0.01): reads pinned
 * to bloom become runs (SUBMITTED, polled through the runs API, COMPLETE with their rows) on the
 * local Trino server, and their rows equal DuckDB's for the same TPC-H query text; explain,
 * capability errors, 402 without a payment method, hostile SQL refused by the firewall in Trino
 * mode, abort of a running statement, and lineage START/COMPLETE of the run's job.
 *
 * The Trino server starts on the first bloom statement (~30 s on two cores), so the first test
 * allows for it.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { portableTpchQueries } from '../../bench/tpch-queries.ts';
import { routedApi, type RoutedApi } from './routed-api.ts';
import { freshOrg } from './warehouse-api.ts';

const stack = inject('stack');
/** A first statement waits for the JVM to start; later ones are quick. */
const BLOOM_TIMEOUT_MS = 300_000;
/** TPC-H queries compared with DuckDB: scans, joins, subqueries, a CTE, an outer join, LIMIT. */
const COMPARED = [1, 3, 6, 13, 15, 18];

let api: RoutedApi;
let queries: Map<number, string>;

beforeAll(async () => {
  api = routedApi(stack.baseUrl, stack.apiKey);
  queries = new Map((await portableTpchQueries()).map((q) => [q.nr, q.sql]));
});

/** A value as a comparable: numbers (and numeric text, as decimals are) rounded to the cent. */
const comparable = (v: unknown): unknown => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : undefined;
  return n === undefined ? v : Math.round(n * 100) / 100;
};
/** Rows as a sorted list of comparable rows (a results table does not keep the ORDER BY). */
const canonical = (rows: unknown[][]): string[] => rows.map((r) => JSON.stringify(r.map(comparable))).sort();

/** Runs a read pinned to bloom to its end and reads every row of the run. */
const runOnBloom = async (sql: string) => {
  const submitted = await api.query({ query: sql, engine: 'bloom' });
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
  expect(submitted.body).toMatchObject({ success: true, state: 'SUBMITTED', engine_decision: { engine: 'bloom', execution_mode: 'batch' } });
  expect(submitted.body.results).toBeUndefined();
  const runId = submitted.body.run_id as string;
  const ended = await api.waitForEnd(runId, BLOOM_TIMEOUT_MS);
  const rows: unknown[][] = [...(ended.results?.rows ?? [])];
  for (let next = ended.results_page?.next_offset; next !== undefined; ) {
    const page = await api.run(runId, { offset: String(next) });
    rows.push(...(page.body.results?.rows ?? []));
    next = page.body.results_page?.next_offset;
  }
  return { runId, ended, rows, job: submitted.body.job as { namespace: string; name: string } };
};

describe.skipIf(process.env.LAKELINE_BLOOM === '0')('bloom (local Trino) through POST /api/v1/query', () => {
  it.each(COMPARED)('Should answer TPC-H Q%i as a bloom run with DuckDB\'s rows', async (nr) => {
    // Arrange
    const sql = queries.get(nr) as string;
    const duck = await api.query({ query: sql, engine: 'duckdb' });
    expect(duck.status, JSON.stringify(duck.body)).toBe(200);

    // Act
    const bloom = await runOnBloom(sql);

    // Assess
    expect(bloom.ended).toMatchObject({ state: 'COMPLETE', engine: 'bloom', row_count: duck.body.row_count });
    expect(canonical(bloom.rows)).toEqual(canonical(duck.body.results?.rows ?? []));
  }, BLOOM_TIMEOUT_MS);

  it('Should record START and COMPLETE lineage for the run\'s job, naming the engine', async () => {
    // Arrange + Act
    const { runId, job } = await runOnBloom('SELECT n_name, count(*) AS c FROM tpch.nation JOIN tpch.region ON n_regionkey = r_regionkey GROUP BY n_name');
    const events = (await api.jobEvents(job.name)).filter((e) => e.run_id === runId);

    // Assess
    expect(events.map((e) => e.run_state)).toEqual(['START', 'COMPLETE']);
    const raw = events[1]?.event_raw as { run: { facets: { processing_engine?: { name: string; version: string } } }; inputs: { name: string }[] };
    expect(raw.run.facets.processing_engine).toMatchObject({ name: 'bloom', version: expect.stringMatching(/^trino \d+/) });
    const inputs = raw.inputs.map((i) => i.name).join(' ');
    expect(inputs).toContain('nation');
    expect(inputs).toContain('region');
  }, BLOOM_TIMEOUT_MS);

  it('Should explain a pinned bloom read without running it', async () => {
    // Act
    const explained = await api.query({ query: 'SELECT count(*) FROM tpch.lineitem', engine: 'bloom', explain: true });

    // Assess
    expect(explained.status).toBe(200);
    expect(explained.body).toMatchObject({ success: true, explain: true, engine_decision: { engine: 'bloom', execution_mode: 'batch', input_tables: ['lakeline.tpch.lineitem'] } });
    expect(explained.body.run_id).toBeUndefined();
  });

  it('Should refuse what bloom cannot run with a 400 capability error naming the problem', async () => {
    // Act
    const write = await api.query({ query: 'SELECT * FROM tpch.nation', engine: 'bloom', destination: 'scratch.nations' });
    const script = await api.query({ script: 'result = nation', tables: ['nation=tpch.nation'], engine: 'bloom' });

    // Assess
    expect(write.status).toBe(400);
    expect(write.body.error).toMatch(/bloom/);
    expect(script.status).toBe(400);
    expect(script.body.error).toMatch(/polars/);
  });

  it('Should end the run FAIL with Trino\'s own message when Trino refuses SQL the firewall let through', async () => {
    // Arrange + Act: `::` casts are DuckDB's, not Trino's.
    const { ended } = await runOnBloom('SELECT n_name::VARCHAR AS n FROM tpch.nation');

    // Assess
    expect(ended).toMatchObject({ state: 'FAIL', engine: 'bloom', error: expect.stringMatching(/Trino/) });
  }, BLOOM_TIMEOUT_MS);

  it.each([
    ['another org\'s catalog', 'SELECT * FROM org_0000000000000000000000000000000a.tpch.nation'],
    ['Trino system tables', 'SELECT * FROM system.runtime.queries'],
    ['a table function', "SELECT * FROM TABLE(system.query(query => 'SELECT 1'))"],
    ['a qualified function', 'SELECT lakeline.system.bucket(n_nationkey, 2) FROM tpch.nation'],
    ['Iceberg metadata tables', 'SELECT * FROM tpch."nation$files"'],
    ['a procedure', "CALL system.register_table(schema_name => 'tpch', table_name => 'x', table_location => '/tmp')"],
  ])('Should refuse %s with a 400 before anything runs', async (_what, sql) => {
    // Act
    const refused = await api.query({ query: sql, engine: 'bloom' });

    // Assess
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(refused.body).toMatchObject({ success: false, error: expect.any(String) });
  });

  it('Should answer 402 for an org without a payment method, saying what to do', async () => {
    // Arrange
    const unpaid = routedApi(stack.baseUrl, (await freshOrg('Bloom unpaid', { paymentMethod: false })).token);

    // Act
    const refused = await unpaid.query({ query: 'SELECT 1 AS one', engine: 'bloom' });

    // Assess
    expect(refused.status).toBe(402);
    expect(refused.body).toEqual({ success: false, error: expect.stringMatching(/bloom engine is metered compute and needs a payment method/) });
  });

  it('Should abort a running bloom statement: the run ends ABORT and stays so', async () => {
    // Arrange: a cross join of lineitem with itself runs for minutes at SF 0.01.
    const submitted = await api.query({ query: 'SELECT count(*) AS n FROM tpch.lineitem a CROSS JOIN tpch.lineitem b WHERE a.l_comment < b.l_comment', engine: 'bloom' });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    const runId = submitted.body.run_id as string;
    await new Promise((r) => setTimeout(r, 2_000));

    // Act
    const aborted = await fetch(`${stack.baseUrl}/api/v1/runs/${runId}/abort`, { method: 'POST', headers: { authorization: `Bearer ${stack.apiKey}` } });
    await new Promise((r) => setTimeout(r, 2_000));
    const after = await api.run(runId);

    // Assess
    expect(aborted.status).toBe(200);
    expect(after.body).toMatchObject({ state: 'ABORT', engine: 'bloom' });
  }, BLOOM_TIMEOUT_MS);
});
