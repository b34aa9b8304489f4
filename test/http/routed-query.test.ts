/**
 * POST /api/v1/query through the local gateway, on the demo org's TPC-H SF 0.01: the contract's
 * rules 1–6, the interactive reason path of the routing table (the batch-read path, which needs
 * inputs above the interactive limit, is in routed-query-batch.test.ts), the planned-files
 * estimate of a filter on partition columns, polars (a script, pinned SQL, 402), pinned-engine
 * capability errors, explain (nothing runs, nothing is billed), 402/403, hostile SQL, lineage, 500
 * with the engine's message, and Spark writes: destination overwrite then append, INSERT INTO and
 * CREATE TABLE AS with their own semantics (few Spark runs, shared between assertions).
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { queryJob } from '#domain/core/query-job';
import { analyzeSql } from '#domain/sql/analyze';
import { storesAt } from '../helpers/stores.ts';
import { routedApi, RUN_TIMEOUT_MS, type RoutedApi, type RoutedBody } from './routed-api.ts';
import { buildTables, freshOrg } from './warehouse-api.ts';

const stack = inject('stack');
/** The demo org: Pro with a payment method, TPC-H SF 0.01 in namespace `tpch`. */
const demo = routedApi(stack.baseUrl, stack.apiKey);
const NATIONS = 'SELECT n_nationkey, n_name FROM tpch.nation WHERE n_nationkey < 3 ORDER BY n_nationkey';

/** The job name the service derives for a query (the firewall's normalized text, hashed). */
const jobOf = (sql: string): string =>
  queryJob(analyzeSql(sql, { dialect: 'duckdb', defaultCatalog: 'lakeline', resolveTable: (r) => ({ catalog: 'lakeline', namespace: r.namespace ?? '', table: r.table }) }).normalizedSql).name;

const sizeOf = async (api: RoutedApi, table: string): Promise<number> => Number((await api.table('tpch', table)).body.size_bytes);

describe('POST /api/v1/query: an interactive read (rule 5)', () => {
  it('Should answer COMPLETE with the rows, the count, the time, the compute, the job and the decision', async () => {
    // Prepare
    const size = await sizeOf(demo, 'nation');
    // Act
    const answer = await demo.query({ query: NATIONS });
    // Assess
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      success: true,
      engine_decision: {
        engine: 'duckdb',
        execution_mode: 'interactive',
        reasons: expect.arrayContaining([expect.stringContaining(`(${size} bytes)`), expect.stringContaining('within the interactive limit of 2 GiB')]),
        size_band: 'xs',
        estimated_input_bytes: String(size),
        vcpus: 2,
        sandbox: { vcpus: 2, memory_gb: 4 },
        input_tables: ['lakeline.tpch.nation'],
      },
      state: 'COMPLETE',
      results: { columns: ['n_nationkey', 'n_name'], column_types: ['INTEGER', 'VARCHAR'], rows: [[0, 'ALGERIA'], [1, 'ARGENTINA'], [2, 'BRAZIL']] },
      row_count: 3,
      execution_time: expect.stringMatching(/^\d+ms$/),
      compute: { engine: 'duckdb', mode: 'interactive', platform: 'router', vcpus: 2, memory_gb: 4, billed_vcpu_seconds: 0 },
      job: { namespace: 'lakeline', name: expect.stringMatching(/^q_[0-9a-f]{32}$/) },
    });
    expect(answer.body).not.toHaveProperty('run_id');
  });

  it('Should estimate the input as the sum of every table\'s current snapshot size, and name each table in the reasons', async () => {
    // Prepare
    const [orders, customer] = await Promise.all([sizeOf(demo, 'orders'), sizeOf(demo, 'customer')]);
    // Act
    const answer = await demo.query({ query: 'SELECT count(*) AS n FROM tpch.orders o JOIN lakeline.tpch.customer c ON o.o_custkey = c.c_custkey' });
    // Assess
    expect(answer.body.results?.rows).toEqual([[15000]]);
    expect(answer.body.engine_decision?.estimated_input_bytes).toBe(String(orders + customer));
    expect(answer.body.engine_decision?.input_tables).toEqual(['lakeline.tpch.customer', 'lakeline.tpch.orders']);
    expect(answer.body.engine_decision?.reasons[0]).toContain('lakeline.tpch.customer');
  });

  it('Should give the same job to the same query however it is spaced or cased, and record START then COMPLETE for it', async () => {
    // Act
    const a = await demo.query({ query: NATIONS });
    const b = await demo.query({ query: NATIONS.toLowerCase().replaceAll(' ', '\n  ') });
    // Assess
    expect(b.body.job).toEqual(a.body.job);
    const events = await demo.jobEvents(a.body.job?.name ?? '');
    const byRun = new Map<string, string[]>();
    for (const e of events) byRun.set(String(e.run_id), [...(byRun.get(String(e.run_id)) ?? []), String(e.run_state)]);
    expect(byRun.size).toBeGreaterThanOrEqual(2);
    for (const states of byRun.values()) expect(states.sort()).toEqual(['COMPLETE', 'START']);
    const complete = events.find((e) => e.run_state === 'COMPLETE');
    expect(complete?.inputs).toEqual([expect.objectContaining({ name: expect.stringContaining('nation') })]);
    expect(JSON.stringify(complete?.event_raw)).toContain('"processing_engine"');
  });
});

describe('POST /api/v1/query: the planned files of a filter on partition columns', () => {
  /** A fresh org holding one test table in namespace `pt`, its client, and the table's snapshot size. */
  const orgWithTable = async (tableCase: 'partitioned' | 'by_day') => {
    const { orgId, token } = await freshOrg(`Routed ${tableCase}`);
    const api = routedApi(stack.baseUrl, token);
    await buildTables(orgId, 'pt', [tableCase]);
    return { api, whole: Number((await api.table('pt', tableCase)).body.size_bytes) };
  };

  it('Should estimate only the files whose partition values can match, and say so', async () => {
    // Prepare: identity partitions on region, then (spec evolution) on region and day
    const { api, whole } = await orgWithTable('partitioned');
    // Act
    const filtered = await api.query({ query: "SELECT count(*) AS n FROM pt.partitioned WHERE region = 'eu'" });
    const unfiltered = await api.query({ query: 'SELECT count(*) AS n FROM pt.partitioned WHERE amount > 0', explain: true });
    // Assess
    expect(filtered.body.results?.rows).toEqual([[13]]);
    const planned = Number(filtered.body.engine_decision?.estimated_input_bytes);
    expect(planned).toBeGreaterThan(0);
    expect(planned).toBeLessThan(whole / 2);
    expect(filtered.body.engine_decision?.reasons[0]).toMatch(/from the planned files .*lakeline\.pt\.partitioned .* \(the \d+ of \d+ files the filter on the partition column region can match/);
    expect(unfiltered.body.engine_decision?.estimated_input_bytes).toBe(String(whole));
  });

  it('Should estimate only the days a time filter can match on a table partitioned by day(ts)', async () => {
    // Prepare: 48 rows every 3 hours from 2024-03-01T00:00Z, six day partitions of one file each
    const { api, whole } = await orgWithTable('by_day');
    // Act: the last two days; a zone-less bound on timestamptz widens by a day's zones (14 h), so three days
    const zoned = await api.query({ query: "SELECT count(*) AS n FROM pt.by_day WHERE ts >= TIMESTAMPTZ '2024-03-05 00:00:00+00:00'" });
    const zoneless = await api.query({ query: "SELECT count(*) AS n FROM pt.by_day WHERE ts >= '2024-03-05'", explain: true });
    // Assess
    expect(zoned.body.results?.rows).toEqual([[16]]);
    expect(zoned.body.engine_decision?.reasons[0]).toMatch(/\(the 2 of 6 files the filter on the partition column ts can match/);
    expect(Number(zoned.body.engine_decision?.estimated_input_bytes)).toBeLessThan(whole / 2);
    expect(zoneless.body.engine_decision?.reasons[0]).toMatch(/\(the 3 of 6 files the filter on the partition column ts can match/);
  });
});

describe('POST /api/v1/query: request rules (rule 1) and errors', () => {
  it.each([
    [{ query: 'SELECT 1', script: 'result = 1' }, 'query and script are mutually exclusive: send exactly one of them'],
    [{}, 'one of query or script is required'],
    [{ engine: 'auto' }, 'one of query or script is required'],
    [{ query: 'SELECT 1', tables: ['n=tpch.nation'] }, 'tables: applies only to a script (script mode); a query names its tables in its SQL'],
    [{ query: 'SELECT 1', engine: 'trino' }, expect.stringMatching(/^engine: /)],
    [{ query: 'SELECT 1', write_mode: 'merge' }, expect.stringMatching(/^write_mode: /)],
    [{ query: 'SELECT 1', destination: 'no_namespace' }, expect.stringMatching(/^destination: /)],
    [{ query: 'SELECT 1', explain: 'yes' }, 'explain: must be a boolean'],
    [{ query: 'SELECT 1', limit: 3 }, 'limit: is not a field of this request'],
  ])('Should answer 400 {success: false, error} for %j', async (body, error) => {
    // Act
    const answer = await demo.query(body);
    // Assess
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ success: false, error });
  });

  it('Should answer 400 {success:false} for a body that is not JSON', async () => {
    const answer = await demo.query('{not json');
    expect(answer.status).toBe(400);
    expect(answer.body.success).toBe(false);
  });

  it('Should answer 401 {success: false, error: "Unauthorized"} without a valid key', async () => {
    const answer = await routedApi(stack.baseUrl, 'll_nope_nope').query({ query: 'SELECT 1' });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ success: false, error: 'Unauthorized' });
  });

  it.each([
    ["SELECT * FROM read_csv('/etc/passwd')", /read_csv/i],
    ["SELECT * FROM '/etc/passwd'", /path|passwd/i],
    ["ATTACH '/tmp/x.db' AS x", /ATTACH/],
    ['SET threads = 64', /SET/],
    ["COPY tpch.nation TO '/tmp/leak.csv'", /COPY/],
    ['SELECT 1; SELECT 2', /multiple statements/],
    ['SELECT * FROM other_org_ns.secret', /other_org_ns\.secret/],
    ['CREATE TABLE lakeline_results.mine AS SELECT 1 AS x', /reserved/],
    ['INSERT INTO autosave.q_0 SELECT 1', /reserved/],
    ["CREATE TABLE other.t AS SELECT * FROM read_parquet('/etc/x.parquet')", /read_parquet/i],
  ])('Should refuse %s with a 400 before any engine sees it', async (query, error) => {
    // Act
    const answer = await demo.query({ query });
    // Assess
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ success: false, error: expect.stringMatching(error) });
  });

  it("Should answer DuckDB's own message for a statement it rejects", async () => {
    const answer = await demo.query({ query: 'SELECT no_such_column FROM tpch.nation' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ success: false, error: expect.stringContaining('no_such_column') });
  });

  it("Should answer 500 {success: false, error} with the engine's message when the run fails, and record FAIL", async () => {
    // Prepare: a table whose data files are gone
    const { orgId, token } = await freshOrg('Routed broken lake');
    const api = routedApi(stack.baseUrl, token);
    await buildTables(orgId, 'broken', ['counter']);
    const location = (await api.table('broken', 'counter')).body.location;
    rmSync(`${fileURLToPath(location)}/data`, { recursive: true, force: true });
    // Act
    const answer = await api.query({ query: 'SELECT * FROM broken.counter' });
    // Assess
    expect(answer.status).toBe(500);
    expect(answer.body).toEqual({ success: false, error: expect.stringMatching(/^duckdb failed to run the query: .+/) });
    const events = await api.jobEvents(jobOf('SELECT * FROM broken.counter'));
    expect(events.map((e) => e.run_state)).toEqual(['START', 'FAIL']);
  });
});

describe('POST /api/v1/query: explain (rule 4)', () => {
  it('Should answer success, explain and the decision only; nothing runs, nothing is recorded, nothing is billed', async () => {
    // Prepare: an org whose usage can be read back
    const { orgId, token } = await freshOrg('Routed explain');
    const api = routedApi(stack.baseUrl, token);
    await buildTables(orgId, 'ex', ['counter']);
    const stores = storesAt(stack.dynamodbEndpoint);
    const before = await stores.orgs.get(orgId);
    const readSql = 'SELECT * FROM ex.counter';
    const writeSql = 'SELECT count(*) AS n FROM ex.counter';
    // Act: a read, and a write that would be a metered Spark run
    const read = await api.query({ query: readSql, explain: true });
    const write = await api.query({ query: writeSql, destination: 'ex.never_written', explain: true });
    // Assess
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      success: true,
      explain: true,
      engine_decision: expect.objectContaining({ engine: 'duckdb', execution_mode: 'interactive', input_tables: ['lakeline.ex.counter'] }),
    });
    expect(write.body).toEqual({ success: true, explain: true, engine_decision: expect.objectContaining({ engine: 'spark', execution_mode: 'batch' }) });
    const after = await stores.orgs.get(orgId);
    stores.close();
    expect(after?.usageUsd).toBe(before?.usageUsd);
    expect(after?.usageVcpuSeconds).toEqual(before?.usageVcpuSeconds);
    expect((await api.table('ex', 'never_written')).status).toBe(404);
    expect(await api.jobEvents(jobOf(readSql))).toEqual([]);
    expect(await api.jobEvents(jobOf(writeSql))).toEqual([]);
  });
});

describe('POST /api/v1/query: pinned engines (rules 2 and 3)', () => {
  it('Should run a pinned duckdb read as asked, saying it was pinned', async () => {
    const answer = await demo.query({ query: NATIONS, engine: 'duckdb' });
    expect(answer.status).toBe(200);
    expect(answer.body.engine_decision?.reasons).toContainEqual(expect.stringContaining('The engine was pinned to duckdb'));
  });

  it.each([
    [{ query: NATIONS, engine: 'bloom', destination: 'routed_pin.t' }, /^engine bloom cannot run this request: bloom does not write tables here/],
    [{ query: NATIONS, engine: 'duckdb', destination: 'routed_pin.t' }, /^engine duckdb cannot run this request: DuckDB answers reads inside the router and does not write tables/],
    [{ query: 'CREATE TABLE routed_pin.t AS SELECT 1 AS x', engine: 'duckdb' }, /^engine duckdb cannot run this request/],
    [{ query: NATIONS, engine: 'spark' }, /^engine spark cannot run this request: Spark runs batch jobs and cannot return rows inline/],
    [{ script: 'result = scan("n")', tables: ['n=tpch.nation'], engine: 'duckdb' }, /^engine duckdb cannot run this request: a script is a polars dataframe script/],
  ])('Should refuse %j with a 400 capability error, not reroute it', async (body, error) => {
    // Act
    const answer = await demo.query(body);
    // Assess
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ success: false, error: expect.stringMatching(error) });
  });
});

describe('POST /api/v1/query: polars (a script, or pinned)', () => {
  it('Should run a script on polars over its registered tables, metered, with the polars decision', async () => {
    // Act
    const answer = await demo.query({ script: 'result = scan("n").filter(pl.col("n_nationkey") < 3).select("n_name").sort("n_name")', tables: ['n=tpch.nation'] });
    // Assess
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      success: true,
      state: 'COMPLETE',
      results: { columns: ['n_name'], rows: [['ALGERIA'], ['ARGENTINA'], ['BRAZIL']] },
      row_count: 3,
      engine_decision: { engine: 'polars', execution_mode: 'interactive', input_tables: ['lakeline.tpch.nation'] },
      compute: { engine: 'polars', vcpus: expect.any(Number), billed_vcpu_seconds: expect.any(Number) },
      job: { namespace: 'lakeline', name: expect.stringMatching(/^q_[0-9a-f]{32}$/) },
    });
    expect(answer.body.engine_decision?.reasons).toContainEqual(expect.stringContaining('A script forces the polars engine'));
  });

  it('Should read a table a script scans by its literal name without registering it, as the polars endpoint does', async () => {
    // Act
    const routed = await demo.query({ script: 'result = scan("tpch.region").select("r_name").sort("r_name")' });
    const polars = await fetch(`${stack.baseUrl}/api/v1/warehouse/polars`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'script', script: 'result = scan("tpch.region").select("r_name").sort("r_name")' }),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as { results?: { rows: unknown[][] } } }));
    // Assess
    expect(routed.body.error).toBeUndefined();
    expect(routed.status).toBe(200);
    expect(routed.body).toMatchObject({ results: { rows: [['AFRICA'], ['AMERICA'], ['ASIA'], ['EUROPE'], ['MIDDLE EAST']] }, engine_decision: { engine: 'polars', input_tables: ['lakeline.tpch.region'] } });
    expect(polars.status).toBe(200);
    expect(polars.body.results?.rows).toEqual(routed.body.results?.rows);
  });

  it('Should answer 400 naming the literal scan of a table that does not exist', async () => {
    // Act
    const answer = await demo.query({ script: 'result = scan("tpch.no_such_table")' });
    // Assess
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ success: false, error: 'scan("tpch.no_such_table"): table lakeline.tpch.no_such_table does not exist' });
  });

  it('Should run SQL on polars when pinned, with the same rows as DuckDB', async () => {
    // Act
    const polars = await demo.query({ query: NATIONS, engine: 'polars' });
    const duck = await demo.query({ query: NATIONS });
    // Assess
    expect(polars.body.error).toBeUndefined();
    expect(polars.status).toBe(200);
    expect(polars.body.engine_decision).toMatchObject({ engine: 'polars', execution_mode: 'interactive' });
    expect(polars.body.results?.rows).toEqual(duck.body.results?.rows);
  });

  it('Should answer 402 for polars without a payment method, before running it', async () => {
    // Prepare
    const unpaid = routedApi(stack.baseUrl, (await freshOrg('Routed unpaid polars', { paymentMethod: false })).token);
    // Act
    const answer = await unpaid.query({ query: 'SELECT 1 AS x', engine: 'polars' });
    // Assess
    expect(answer.status).toBe(402);
    expect(answer.body).toEqual({ success: false, error: expect.stringMatching(/polars engine is metered compute and needs a payment method/) });
  });
});

describe('POST /api/v1/query: plan and billing', () => {
  it('Should answer 402 for a metered engine without a payment method, and 403 at the credit limit, each saying what to do', async () => {
    // Prepare
    const unpaid = routedApi(stack.baseUrl, (await freshOrg('Routed unpaid', { paymentMethod: false })).token);
    const broke = routedApi(stack.baseUrl, (await freshOrg('Routed at limit', { creditLimitUsd: 0 })).token);
    const write = { query: 'SELECT 1 AS x', destination: 'billing.t' };
    // Act
    const noPayment = await unpaid.query(write);
    const overLimit = await broke.query(write);
    const freeRead = await unpaid.query({ query: 'SELECT 1 AS x' });
    // Assess
    expect(noPayment.status).toBe(402);
    expect(noPayment.body).toEqual({ success: false, error: expect.stringMatching(/spark engine is metered compute and needs a payment method.*Add a payment method/) });
    expect(overLimit.status).toBe(403);
    expect(overLimit.body).toEqual({ success: false, error: expect.stringMatching(/credit limit.*Raise the credit limit/) });
    // DuckDB is unmetered: the same org reads without a payment method.
    expect(freeRead.status).toBe(200);
    expect(freeRead.body.results?.rows).toEqual([[1]]);
  });
});

describe('POST /api/v1/query: writes run on Spark (rule 6)', () => {
  const ns = `routed_${randomUUID().replaceAll('-', '').slice(0, 8)}`;
  let overwrite: RoutedBody;
  let ctas: RoutedBody;
  let append: RoutedBody;
  let insert: RoutedBody;
  let counts: Record<string, string>;

  beforeAll(async () => {
    const five = 'SELECT n_nationkey, n_name FROM tpch.nation WHERE n_nationkey < 5';
    // Two runs at once on different tables, then the appends to the first one in order.
    [overwrite, ctas] = await Promise.all([
      demo.query({ query: five, destination: `${ns}.nations` }).then((r) => r.body),
      demo.query({ query: `CREATE TABLE ${ns}.regions AS SELECT r_regionkey, r_name FROM tpch.region` }).then((r) => r.body),
    ]);
    const ended = await Promise.all([overwrite, ctas].map((b) => demo.waitForEnd(b.run_id ?? '')));
    // A run that did not complete fails the assertions below; its own error says why.
    for (const run of ended) if (run.state !== 'COMPLETE') console.error(`run ${String(run.run_id)} ended ${String(run.state)}: ${String(run.error)}`);
    append = (await demo.query({ query: five, destination: `${ns}.nations`, write_mode: 'append' })).body;
    await demo.waitForEnd(append.run_id ?? '');
    counts = { afterAppend: (await demo.table(ns, 'nations')).body.record_count };
    insert = (await demo.query({ query: `INSERT INTO ${ns}.nations SELECT n_nationkey, n_name FROM tpch.nation WHERE n_nationkey < 2` })).body;
    await demo.waitForEnd(insert.run_id ?? '');
    counts = { ...counts, afterInsert: (await demo.table(ns, 'nations')).body.record_count, regions: (await demo.table(ns, 'regions')).body.record_count };
  }, 4 * RUN_TIMEOUT_MS);

  it('Should answer SUBMITTED with the run, the output table, the compute and the job, and no results', () => {
    expect(overwrite).toEqual({
      success: true,
      engine_decision: expect.objectContaining({ engine: 'spark', execution_mode: 'batch', size_band: 'xs', input_tables: ['lakeline.tpch.nation'] }),
      state: 'SUBMITTED',
      run_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      output_table: `lakeline.${ns}.nations`,
      compute: expect.objectContaining({ platform: 'local', billed_vcpus: expect.any(Number) }),
      job: { namespace: 'lakeline', name: expect.stringMatching(/^q_[0-9a-f]{32}$/) },
    });
    expect(overwrite.engine_decision?.reasons).toContainEqual(expect.stringContaining(`destination lakeline.${ns}.nations (write_mode overwrite)`));
  });

  it('Should overwrite, then append, then INSERT INTO (the statement\'s own append): 5, 10, 12 rows', async () => {
    expect(append.output_table).toBe(`lakeline.${ns}.nations`);
    expect(counts.afterAppend).toBe('10');
    expect(insert.engine_decision?.reasons).toContainEqual(expect.stringContaining(`writes its own target lakeline.${ns}.nations (INSERT: append)`));
    expect(counts.afterInsert).toBe('12');
    const run = await demo.run(insert.run_id ?? '');
    expect(run.body).toMatchObject({ state: 'COMPLETE', engine: 'spark', output_table: `lakeline.${ns}.nations`, rows_written: 2, write_mode: 'append' });
  });

  it('Should create a table with CREATE TABLE AS, then refuse to create it again, and do nothing for IF NOT EXISTS', async () => {
    // Act
    const again = await demo.query({ query: `CREATE TABLE ${ns}.regions AS SELECT 1 AS x` });
    const ifNotExists = await demo.query({ query: `CREATE TABLE IF NOT EXISTS ${ns}.regions AS SELECT 1 AS x` });
    // Assess
    expect(ctas.state).toBe('SUBMITTED');
    expect(counts.regions).toBe('5');
    expect(again.status).toBe(400);
    expect(again.body.error).toMatch(/already exists.*CREATE OR REPLACE/);
    expect(ifNotExists.body).toMatchObject({ success: true, state: 'COMPLETE', row_count: 0, output_table: `lakeline.${ns}.regions` });
    expect((await demo.table(ns, 'regions')).body.record_count).toBe('5');
  });

  it('Should record START and COMPLETE for the write under the query\'s job, with the output table', async () => {
    const events = await demo.jobEvents(overwrite.job?.name ?? '');
    const ofRun = events.filter((e) => e.run_id === overwrite.run_id);
    expect(ofRun.map((e) => e.run_state)).toEqual(['START', 'COMPLETE']);
    expect(ofRun[1]?.outputs).toEqual([expect.objectContaining({ name: expect.stringContaining('nations') })]);
  });
});
