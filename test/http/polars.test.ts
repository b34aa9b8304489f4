/**
 * POST /api/v1/warehouse/polars through the local gateway, on the shared stack: the contract's
 * PolarsResponse for SQL and scripts (polars dtype names, row count, compute), table registration
 * in both forms, the script rules (`result`, no `.collect()`/`.remote()`, the script's own
 * traceback), the firewall, every 4xx with `{error, details}`, plan checks (402, 403), distributed
 * (not configured), destination with both save modes, metering, and no lineage.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { storesAt } from '../helpers/stores.ts';
import { buildTablesAt, polarsApi, type PolarsBody } from './polars-api.ts';
import { freshOrg } from './warehouse-api.ts';
import type { Answer } from './warehouse-api.ts';

const stack = inject('stack');
let polars: (body: unknown) => Promise<Answer<PolarsBody>>;
let orgId: string;
let token: string;

beforeAll(async () => {
  const org = await freshOrg('polars contract');
  orgId = org.orgId;
  token = org.token;
  polars = polarsApi(stack.baseUrl, token);
  await buildTablesAt(stack.home, orgId, 'pl', ['partitioned', 'counter']);
}, 120_000);

const expectError = (answer: Answer<PolarsBody>, status: number, pattern: RegExp): void => {
  expect(answer.status).toBe(status);
  expect(answer.body).toEqual({ error: expect.stringMatching(pattern), details: expect.any(String) });
};

describe('POST /api/v1/warehouse/polars: mode query', () => {
  it("Should answer rows with polars' dtype names, the row count, the time and the sandbox it ran in", async () => {
    // Act
    const answer = await polars({ mode: 'query', query: 'SELECT id, region, amount FROM p WHERE id <= 3 ORDER BY id', tables: ['p=pl.partitioned'] });
    // Assess
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      success: true,
      results: { columns: ['id', 'region', 'amount'], column_types: ['Int64', 'String', 'Float64'], rows: [[1, 'us', 1.5], [2, 'apac', 3], [3, 'eu', 4.5]] },
      row_count: 3,
      execution_time: expect.stringMatching(/^\d+ms$/),
      compute: { mode: 'sandbox', distributed: false, instanceType: 'local-sandbox-2vcpu', clusterSize: null },
    });
  });

  it('Should register a table in the object form {alias, table} and with the lakeline catalog prefix', async () => {
    // Act
    const answer = await polars({ mode: 'query', query: 'SELECT count(*) AS n FROM a JOIN b ON a.id = b.id', tables: [{ alias: 'a', table: 'lakeline.pl.partitioned' }, 'b=pl.partitioned'] });
    // Assess
    expect(answer.status).toBe(200);
    expect(answer.body.results?.rows).toEqual([[40]]);
  });

  it("Should refuse polars' file-reading table functions and tables that are not registered", async () => {
    // Act
    const csv = await polars({ mode: 'query', query: "SELECT * FROM read_csv('/etc/passwd')", tables: ['p=pl.partitioned'] });
    const parquet = await polars({ mode: 'query', query: "SELECT * FROM p, read_parquet('x.parquet')", tables: ['p=pl.partitioned'] });
    const unregistered = await polars({ mode: 'query', query: 'SELECT * FROM counter', tables: ['p=pl.partitioned'] });
    const qualified = await polars({ mode: 'query', query: 'SELECT * FROM pl.counter', tables: ['p=pl.partitioned'] });
    // Assess
    expectError(csv, 400, /^SQL not allowed: .*read_csv/);
    expectError(parquet, 400, /^SQL not allowed: .*read_parquet/);
    expectError(unregistered, 400, /^SQL not allowed: .*counter/);
    expectError(qualified, 400, /^SQL not allowed: .*counter/);
  });

  it('Should answer 400 with polars’ own message for an SQL error', async () => {
    // Act
    const answer = await polars({ mode: 'query', query: 'SELECT no_such_column FROM p', tables: ['p=pl.partitioned'] });
    // Assess
    expectError(answer, 400, /^polars could not run the query: .*no_such_column/);
  });
});

describe('POST /api/v1/warehouse/polars: mode script', () => {
  it('Should run a script with pl, scan(table), params and catalog in scope and collect its lazy result', async () => {
    // Arrange
    const script = ['lf = scan("pl.partitioned").filter(pl.col("region") == params["region"])', 'result = lf.select(pl.len().alias("n"), pl.lit(catalog).alias("catalog"))'].join('\n');
    // Act
    const answer = await polars({ mode: 'script', script, params: { region: 'eu' } });
    // Assess
    expect(answer.status).toBe(200);
    expect(answer.body.results).toEqual({ columns: ['n', 'catalog'], column_types: ['UInt32', 'String'], rows: [[13, 'lakeline']] });
    expect(answer.body.row_count).toBe(1);
  });

  it('Should let a script scan a registered alias, and return an eager DataFrame', async () => {
    // Act
    const lazy = await polars({ mode: 'script', script: 'result = scan("c").select((pl.col("n") + 10).alias("m"))', tables: ['c=pl.counter'] });
    const eager = await polars({ mode: 'script', script: 'result = pl.DataFrame({"x": [1, 2]})' });
    // Assess
    expect(lazy.status).toBe(200);
    expect(lazy.body.results?.rows).toEqual([[11]]);
    expect(eager.body.results).toEqual({ columns: ['x'], column_types: ['Int64'], rows: [[1], [2]] });
  });

  it('Should refuse .collect() and .remote() in a script, statically and at run time', async () => {
    // Act
    const direct = await polars({ mode: 'script', script: 'result = scan("pl.counter").collect()' });
    const remote = await polars({ mode: 'script', script: 'result = scan("pl.counter").remote()' });
    const hidden = await polars({ mode: 'script', script: 'name = "col" + "lect"\nresult = getattr(scan("pl.counter"), name)()' });
    // Assess
    expectError(direct, 400, /line 1: calling \.collect\(\) is not allowed/);
    expectError(remote, 400, /line 1: calling \.remote\(\) is not allowed/);
    expectError(hidden, 400, /line 2: calling \.collect\(\) is not allowed/);
  });

  it("Should answer a script error with the traceback lines of the user's script only", async () => {
    // Arrange
    const script = ['def f(x):', '    return x / 0', 'y = f(1)', 'result = pl.DataFrame({"y": [y]})'].join('\n');
    // Act
    const answer = await polars({ mode: 'script', script });
    // Assess
    expectError(answer, 400, /^the script failed: ZeroDivisionError/);
    expect(answer.body.details).toBe('line 3, in <module>\nline 2, in f\nZeroDivisionError: division by zero');
  });

  it('Should answer 400 when the script does not assign result, or assigns something else', async () => {
    // Act
    const none = await polars({ mode: 'script', script: 'x = 1' });
    const wrong = await polars({ mode: 'script', script: 'result = 42' });
    // Assess
    expectError(none, 400, /must assign its output to `result`/);
    expectError(wrong, 400, /`result` must be a polars LazyFrame or DataFrame, not int/);
  });

  it('Should answer 400 naming a table a script scans that the organization does not have', async () => {
    // Act
    const answer = await polars({ mode: 'script', script: 'result = scan("pl.nope")' });
    // Assess
    expectError(answer, 400, /table pl\.nope does not exist/);
  });
});

describe('POST /api/v1/warehouse/polars: destination', () => {
  it('Should write the result to namespace.table, overwrite then append, and report saved', async () => {
    // Act
    const first = await polars({ mode: 'query', query: 'SELECT id, amount FROM p WHERE id <= 5', tables: ['p=pl.partitioned'], destination: 'plout.five' });
    const again = await polars({ mode: 'script', script: 'result = scan("pl.partitioned").filter(pl.col("id") <= 2).select("id", "amount")', destination: 'plout.five', saveMode: 'append' });
    const read = await polars({ mode: 'query', query: 'SELECT count(*) AS n FROM f', tables: ['f=plout.five'] });
    // Assess
    expect(first.status).toBe(200);
    expect(first.body.saved).toEqual({ table: 'plout.five', rows_written: 5, mode: 'overwrite' });
    expect(first.body.row_count).toBe(5);
    expect(again.body.saved).toEqual({ table: 'plout.five', rows_written: 2, mode: 'append' });
    expect(read.body.results?.rows).toEqual([[7]]);
  });
});

describe('POST /api/v1/warehouse/polars: request errors', () => {
  it('Should answer 400 {error, details} naming the field for an invalid request', async () => {
    // Act
    const noQuery = await polars({ mode: 'query', tables: ['p=pl.partitioned'] });
    const noTables = await polars({ mode: 'query', query: 'SELECT 1' });
    const noScript = await polars({ mode: 'script' });
    const badMode = await polars({ mode: 'sql', query: 'SELECT 1' });
    const badVcpus = await polars({ mode: 'script', script: 'result = pl.DataFrame()', vcpus: 3 });
    const unknown = await polars({ mode: 'script', script: 'result = pl.DataFrame()', timeout: 5 });
    const badRef = await polars({ mode: 'query', query: 'SELECT 1', tables: ['pl.partitioned'] });
    const badCatalog = await polars({ mode: 'script', script: 'result = pl.DataFrame()', catalog: 'someone_else' });
    const notJson = await polars('{"mode":');
    // Assess
    expectError(noQuery, 400, /^query: is required/);
    expectError(noTables, 400, /^tables: /);
    expectError(noScript, 400, /^script: is required/);
    expectError(badMode, 400, /^mode: /);
    expectError(badVcpus, 400, /^vcpus: must be one of 2, 4, 8, 16, 32/);
    expectError(unknown, 400, /^timeout: is not a field/);
    expectError(badRef, 400, /^tables\.0/);
    expectError(badCatalog, 400, /^catalog: 'someone_else' is not available/);
    expect(notJson.status).toBe(400);
  });

  it('Should answer 400 saying distributed execution is not configured', async () => {
    // Act
    const answer = await polars({ mode: 'script', script: 'result = pl.DataFrame({"a": [1]})', distributed: true, clusterSize: 2 });
    // Assess
    expectError(answer, 400, /^distributed execution is not configured/);
  });

  it('Should answer 401 without a valid key', async () => {
    // Act
    const answer = await polarsApi(stack.baseUrl, 'not-a-key')({ mode: 'script', script: 'result = pl.DataFrame()' });
    // Assess
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ error: 'Unauthorized' });
  });
});

describe('POST /api/v1/warehouse/polars: plan, tiers and metering', () => {
  it('Should answer 402 for an organization without a payment method', async () => {
    // Arrange
    const unpaid = await freshOrg('polars unpaid', { paymentMethod: false });
    // Act
    const answer = await polarsApi(stack.baseUrl, unpaid.token)({ mode: 'script', script: 'result = pl.DataFrame({"a": [1]})' });
    // Assess
    expectError(answer, 402, /needs a payment method/);
  });

  it("Should answer 403 for a tier above the plan's sandbox cap", async () => {
    // Act
    const answer = await polars({ mode: 'script', script: 'result = pl.DataFrame({"a": [1]})', vcpus: 32 });
    // Assess
    expectError(answer, 403, /32-vCPU sandbox exceeds the pro plan's limit of 16/);
  });

  it('Should run a larger tier on a worker of that tier and report it in compute', async () => {
    // Act
    const answer = await polars({ mode: 'script', script: 'import os\nresult = pl.DataFrame({"env": [os.environ["POLARS_MAX_THREADS"]]})', vcpus: 4 });
    // Assess
    expect(answer.status).toBe(200);
    expect(answer.body.compute).toEqual({ mode: 'sandbox', distributed: false, instanceType: 'local-sandbox-4vcpu', clusterSize: null });
  });

  it('Should meter the usage of every run and record no lineage for it', async () => {
    // Arrange
    const stores = storesAt(stack.dynamodbEndpoint);
    try {
      const before = (await stores.orgs.get(orgId))?.usageUsd ?? 0;
      // Act
      const answer = await polars({ mode: 'script', script: 'result = pl.DataFrame({"a": [1]})' });
      const after = (await stores.orgs.get(orgId))?.usageUsd ?? 0;
      const events = await fetch(`${stack.baseUrl}/api/v1/events?start=0&end=4102444800&limit=100`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json());
      // Assess
      expect(answer.status).toBe(200);
      expect(after).toBeGreaterThan(before);
      expect(events).toEqual([]);
    } finally {
      stores.close();
    }
  });
});
