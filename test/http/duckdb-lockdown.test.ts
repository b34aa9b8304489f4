/**
 * The locked DuckDB sandbox, the second line behind the SQL firewall: statements the firewall
 * refuses are run here directly against the locked connection of a query over the demo org's
 * `tpch.nation`, and each must fail inside DuckDB. Also: the engine refuses anything but one
 * SELECT, stops a query at its time limit, and sizes itself from the sandbox.
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { hostCapacity, DuckDBQueryEngine, type LockedSandbox } from '#adapters/duckdb/engine';
import { FsLakeStorage } from '#adapters/local/fs-lake-storage';
import { SqliteCatalog } from '#adapters/local/sqlite-catalog';
import type { EngineTable } from '#domain/lake/engine';
import { QueryLimitError, QuerySqlError } from '#domain/lake/engine-errors';
import { loadTable } from '#domain/lake/query-tables';
import { engineSizing, sandboxOf } from '#domain/lake/sandbox';
import { REPO_ROOT } from '../helpers/local-stack-process.ts';

const stack = inject('stack');
const EXTENSIONS = path.join(REPO_ROOT, '.lakeline', 'duckdb-extensions');
const engine = new DuckDBQueryEngine({ extensionDir: EXTENSIONS });

let nation: EngineTable;
let orders: EngineTable;

beforeAll(async () => {
  const catalog = new SqliteCatalog(path.join(stack.home, 'catalog.db'), EXTENSIONS);
  const storage = new FsLakeStorage();
  const load = async (table: string) => {
    const found = await catalog.loadTable(stack.orgId, { namespace: 'tpch', table });
    if (!found) throw new Error(`demo table tpch.${table} is missing`);
    return (await loadTable(storage, found)).engine;
  };
  [nation, orders] = await Promise.all([load('nation'), load('orders')]);
});

afterAll(() => engine.close());

const inSandbox = async <T>(work: (sandbox: LockedSandbox) => Promise<T>): Promise<T> => {
  const sandbox = await engine.openSandbox([nation], sandboxOf(2));
  try {
    return await work(sandbox);
  } finally {
    sandbox.dispose();
  }
};

describe('the locked sandbox', () => {
  it('Should read the tables of the query', async () => {
    // Act
    const rows = await inSandbox(async ({ connection }) => (await connection.runAndReadAll('SELECT count(*) FROM lakeline.tpch.nation')).getRows());
    // Assess
    expect(rows).toEqual([[25n]]);
  });

  it.each([
    ["SELECT * FROM read_csv('/etc/passwd')", /Permission Error/],
    ["SELECT * FROM '/etc/passwd'", /Permission Error|No files found|Catalog Error/],
    ["SELECT * FROM read_text('/proc/self/environ')", /Permission Error/],
    ["SELECT * FROM glob('/**')", /Permission Error/],
    ["COPY (SELECT 1) TO '/tmp/lakeline-lockdown-probe.csv'", /Permission Error/],
    ["ATTACH '/tmp/lakeline-lockdown-probe.db' AS probe", /Permission Error|disabled/],
    ['SET enable_external_access = true', /locked/],
    ["SET allowed_directories = ['/']", /locked/],
    ['SET threads = 64', /locked/],
    ['RESET lock_configuration', /locked/],
    ['INSTALL httpfs', /disabled|Permission/],
    ["LOAD 'httpfs'", /disabled|Permission/],
    ["SELECT * FROM read_parquet('https://example.com/x.parquet')", /Permission Error|disabled/],
  ])('Should refuse %s inside DuckDB', async (statement, reason) => {
    // Act
    const run = inSandbox(({ connection }) => connection.run(statement));
    // Assess
    await expect(run).rejects.toThrow(reason);
  });

  it('Should refuse the files of a table that is not in the query, even of the same organization', async () => {
    // Prepare
    const ordersFiles = `${fileURLToPath(orders.location)}/data/*.parquet`;
    // Act
    const run = inSandbox(({ connection }) => connection.run(`SELECT count(*) FROM read_parquet('${ordersFiles}')`));
    // Assess
    await expect(run).rejects.toThrow(/Permission Error/);
  });

  it('Should refuse a view over a table that is not in the query', async () => {
    // Act
    const run = inSandbox(({ connection }) => connection.run(`SELECT count(*) FROM iceberg_scan('${orders.metadataLocation}')`));
    // Assess
    await expect(run).rejects.toThrow(/Permission Error/);
  });

  it("Should size DuckDB from the sandbox: one thread per vCPU (up to the host's cores) and the sandbox's memory", async () => {
    // Prepare
    const expected = engineSizing(sandboxOf(2), hostCapacity());
    // Act
    const [settings] = await inSandbox(async ({ connection }) =>
      (
        await connection.runAndReadAll(
          "SELECT current_setting('threads'), current_setting('memory_limit'), current_setting('enable_external_access'), current_setting('lock_configuration')",
        )
      ).getRows(),
    );
    // Assess
    expect(settings).toEqual([BigInt(expected.threads), `${(expected.memoryLimitMb / 1024).toFixed(1)} GiB`, false, true]);
  });
});

describe('DuckDBQueryEngine.run', () => {
  const request = { owner: 'org-a', tables: [] as EngineTable[], sandbox: sandboxOf(2), timeoutMs: 10_000, maxResultBytes: 1_000_000 };

  it('Should run exactly one statement', async () => {
    // Act
    const run = engine.run({ ...request, sql: 'SELECT 1; SELECT 2' });
    // Assess
    await expect(run).rejects.toBeInstanceOf(QuerySqlError);
    await expect(run).rejects.toThrow(/Exactly one SQL statement/);
  });

  it('Should run queries only, even if something else got past the firewall', async () => {
    // Act
    const run = engine.run({ ...request, sql: 'CREATE TABLE t AS SELECT 1' });
    // Assess
    await expect(run).rejects.toThrow(/Only queries/);
  });

  it('Should stop a query at its time limit with a 400 that says so', async () => {
    // Act
    const started = performance.now();
    const run = engine.run({ ...request, sql: 'SELECT count(*) FROM range(1000000000000) a', timeoutMs: 300 });
    // Assess
    await expect(run).rejects.toBeInstanceOf(QueryLimitError);
    await expect(run).rejects.toThrow(/ran longer than/);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('Should reuse the locked sandbox of a successful query for the same owner over the same tables', async () => {
    // Prepare: the spill directory is private to one sandbox, so it tells sandboxes apart
    const sandboxOfRun = async (owner: string, tables: EngineTable[], sql = "SELECT current_setting('temp_directory') AS dir") =>
      (await engine.run({ ...request, owner, tables, sql })).results.rows[0]?.[0];
    // Act
    const first = await sandboxOfRun('org-a', [nation]);
    const again = await sandboxOfRun('org-a', [nation]);
    const otherOwner = await sandboxOfRun('org-b', [nation]);
    const otherTables = await sandboxOfRun('org-a', [nation, orders]);
    const movedTable = await sandboxOfRun('org-a', [{ ...nation, metadataLocation: `${nation.metadataLocation}?v=2` }]).catch(() => 'failed');
    // Assess
    expect(again).toBe(first);
    expect(otherOwner).not.toBe(first);
    expect(otherTables).not.toBe(first);
    expect(movedTable).not.toBe(first);
  });

  it('Should not reuse a sandbox whose query failed', async () => {
    // Prepare
    const dir = async () => (await engine.run({ ...request, owner: 'org-c', tables: [nation], sql: "SELECT current_setting('temp_directory')" })).results.rows[0]?.[0];
    const before = await dir();
    // Act
    await expect(engine.run({ ...request, owner: 'org-c', tables: [nation], sql: 'SELECT nope FROM tpch.nation' })).rejects.toBeInstanceOf(QuerySqlError);
    const after = await dir();
    // Assess: the failed query ran in the idle sandbox, which was then closed
    expect(after).not.toBe(before);
  });
});

