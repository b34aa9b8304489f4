/**
 * Results expiry against the real local lake: the SQLite Iceberg catalog, the warehouse directory
 * and the pyiceberg lake writer subprocess. Expired `lakeline_results` tables leave the catalog
 * with their files; younger ones and other namespaces stay.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FsLakeStorage } from '#adapters/local/fs-lake-storage';
import { SqliteCatalog } from '#adapters/local/sqlite-catalog';
import { SubprocessLakeWriter } from '#adapters/local/subprocess-lake-writer';
import type { Org } from '#domain/orgs/org';
import { expireResultTables, retentionMs, type ResultsExpiryDeps } from '#domain/runs/results-expiry';

const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');
const PYTHON = path.join(REPO_ROOT, '.lakeline', 'venv', 'bin', 'python');
const EXTENSIONS = path.join(REPO_ROOT, '.lakeline', 'duckdb-extensions');
const ORG = 'aaaaaaaa-0000-4000-8000-000000000001';
const DAY = 86_400_000;

let home: string;
let deps: ResultsExpiryDeps;

/** Every file below a directory. */
const filesBelow = (dir: string): string[] =>
  existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name)) : [];

beforeAll(async () => {
  home = mkdtempSync(path.join(tmpdir(), 'lakeline-expiry-'));
  const parquet = path.join(home, 'rows.parquet');
  const made = spawnSync(PYTHON, ['-c', `import pyarrow as pa, pyarrow.parquet as pq; pq.write_table(pa.table({"id": [1, 2, 3]}), ${JSON.stringify(parquet)})`]);
  expect(made.status, made.stderr.toString()).toBe(0);
  const writer = new SubprocessLakeWriter(PYTHON, REPO_ROOT, home);
  for (const [namespace, table] of [
    ['lakeline_results', 'r_one'],
    ['lakeline_results', 'r_two'],
    ['tpch', 'kept'],
  ] as const) {
    await writer.write({ orgId: ORG, namespace, table, parquet: [parquet], mode: 'overwrite' });
  }
  deps = {
    orgs: { list: async () => [{ orgId: ORG } as Org] },
    catalog: new SqliteCatalog(path.join(home, 'catalog.db'), EXTENSIONS),
    storage: new FsLakeStorage(),
    writer,
  };
}, 120_000);

afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('results expiry on the local lake', () => {
  it('Should keep results tables younger than the retention', async () => {
    const report = await expireResultTables(deps, new Date(), retentionMs(7));
    expect(report).toEqual({ dropped: [], kept: 2, failed: [] });
  });

  it('Should purge expired results tables, catalog entry and files, and leave other namespaces alone', async () => {
    // Prepare
    const resultFiles = (await deps.catalog.listTables(ORG, 'lakeline_results')).map((t) => t.metadataLocation.replace(/^file:\/\//, ''));
    const tableDirs = resultFiles.map((metadata) => path.dirname(path.dirname(metadata)));
    expect(tableDirs.flatMap(filesBelow).length).toBeGreaterThan(0);
    // Act
    const report = await expireResultTables(deps, new Date(Date.now() + 8 * DAY), retentionMs(7));
    // Assess
    expect(report.dropped.sort()).toEqual([`${ORG}/lakeline_results.r_one`, `${ORG}/lakeline_results.r_two`]);
    expect(report.failed).toEqual([]);
    expect(await deps.catalog.listTables(ORG, 'lakeline_results')).toEqual([]);
    expect(tableDirs.flatMap(filesBelow).filter((f) => f.endsWith('.parquet') || f.endsWith('.avro') || f.endsWith('.metadata.json'))).toEqual([]);
    expect((await deps.catalog.listTables(ORG, 'tpch')).map((t) => t.table)).toEqual(['kept']);
  }, 60_000);
});
