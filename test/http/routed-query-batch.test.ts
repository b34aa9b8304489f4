/**
 * POST /api/v1/query: the reason path of reads too large for the request, on a stack of its own
 * whose interactive limit is moved down to 200 KB (`LAKELINE_ROUTING_INTERACTIVE_LIMIT_BYTES`, the
 * deployment setting), so TPC-H SF 0.01's lineitem is "too large" while nation is not. A batch read
 * answers SUBMITTED; its rows land in the run's results table and come back, paged, from
 * GET /api/v1/runs/{run_id}, equal to DuckDB's answer to the same query (one Spark run, shared).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStackProcess, tempHome, type StackProcess } from '../helpers/local-stack-process.ts';
import { routedApi, RUN_TIMEOUT_MS, type RoutedApi, type RoutedBody, type RunWithRows } from './routed-api.ts';
import { warehouseApi } from './warehouse-api.ts';

const LIMIT_BYTES = 200_000;
const FLAGS = 'SELECT l_returnflag, l_linestatus, count(*) AS n, sum(l_quantity) AS qty FROM tpch.lineitem GROUP BY l_returnflag, l_linestatus ORDER BY l_returnflag, l_linestatus';

let stack: StackProcess;
let api: RoutedApi;
let submitted: RoutedBody;
let finished: RunWithRows;

beforeAll(async () => {
  // Bloom off: this suite is about Spark's batch reads (band l reads go to bloom where it is on: bloom-routing.test.ts).
  stack = await startStackProcess(tempHome('routed-batch'), 0, { LAKELINE_ROUTING_INTERACTIVE_LIMIT_BYTES: String(LIMIT_BYTES), LAKELINE_BLOOM: '0' });
  api = routedApi(stack.baseUrl, stack.apiKey);
  submitted = (await api.query({ query: FLAGS })).body;
  finished = await api.waitForEnd(submitted.run_id ?? '');
}, RUN_TIMEOUT_MS + 120_000);

afterAll(async () => {
  await stack?.stop();
});

describe('POST /api/v1/query: a read above the interactive limit (rule 6)', () => {
  it('Should answer SUBMITTED with the run and the decision, and no results or output table', async () => {
    // Prepare
    const size = Number((await api.table('tpch', 'lineitem')).body.size_bytes);
    // Assess
    expect(size).toBeGreaterThan(LIMIT_BYTES);
    expect(submitted).toEqual({
      success: true,
      engine_decision: {
        engine: 'spark',
        execution_mode: 'batch',
        reasons: expect.arrayContaining([
          expect.stringContaining(`(${size} bytes)`),
          expect.stringMatching(/is above the interactive limit of 195 KiB \(200000 bytes\), so the read runs as a Spark batch run/),
        ]),
        size_band: 'l',
        estimated_input_bytes: String(size),
        vcpus: expect.any(Number),
        sandbox: { vcpus: 4, memory_gb: 16 },
        input_tables: ['lakeline.tpch.lineitem'],
      },
      state: 'SUBMITTED',
      run_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      compute: expect.objectContaining({ platform: 'local' }),
      job: { namespace: 'lakeline', name: expect.stringMatching(/^q_[0-9a-f]{32}$/) },
    });
  });

  it("Should return the run's rows from the runs API once COMPLETE, equal to DuckDB's answer", async () => {
    // Prepare: the same query on DuckDB through the legacy endpoint, which has no interactive limit
    const duck = await warehouseApi(stack.baseUrl, stack.apiKey).query({ query: FLAGS });
    // Assess
    expect(finished).toMatchObject({ state: 'COMPLETE', engine: 'spark', row_count: 4, results_page: { offset: 0, limit: 1000 } });
    expect(finished).not.toHaveProperty('output_table');
    expect(finished.results?.columns).toEqual(['l_returnflag', 'l_linestatus', 'n', 'qty']);
    expect(finished.results?.rows).toEqual(duck.body.results?.rows);
  });

  it('Should page the rows with offset and limit, and refuse a bad page with a 400 naming it', async () => {
    // Act
    const first = await api.run(finished.run_id, { limit: '3' });
    const last = await api.run(finished.run_id, { offset: String(first.body.results_page?.next_offset), limit: '3' });
    const bad = await api.run(finished.run_id, { limit: '0' });
    const huge = await api.run(finished.run_id, { limit: '10001' });
    // Assess
    expect(first.body.results?.rows).toEqual(finished.results?.rows.slice(0, 3));
    expect(first.body.results_page).toEqual({ offset: 0, limit: 3, next_offset: 3 });
    expect(last.body.results?.rows).toEqual(finished.results?.rows.slice(3));
    expect(last.body.results_page).toEqual({ offset: 3, limit: 3 });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: "limit: must be a whole number from 1 to 10000, got '0'" });
    expect(huge.status).toBe(400);
  });

  it("Should record START and COMPLETE for the run under the query's job", async () => {
    const events = (await api.jobEvents(submitted.job?.name ?? '')).filter((e) => e.run_id === submitted.run_id);
    expect(events.map((e) => e.run_state)).toEqual(['START', 'COMPLETE']);
  });

  it('Should still answer a small read interactively, and refuse pinned duckdb above the limit', async () => {
    // Act
    const small = await api.query({ query: 'SELECT count(*) AS n FROM tpch.nation' });
    const pinned = await api.query({ query: FLAGS, engine: 'duckdb' });
    const explained = await api.query({ query: FLAGS, engine: 'spark', explain: true });
    // Assess
    expect(small.body).toMatchObject({ state: 'COMPLETE', results: { rows: [[25]] }, engine_decision: { engine: 'duckdb', size_band: 'xs' } });
    expect(pinned.status).toBe(400);
    expect(pinned.body).toEqual({ success: false, error: expect.stringMatching(/^engine duckdb cannot run this request: its estimated input of .* is above the interactive limit of 195 KiB \(200000 bytes\)/) });
    expect(explained.body).toMatchObject({ success: true, explain: true, engine_decision: { engine: 'spark', execution_mode: 'batch' } });
  });
});
