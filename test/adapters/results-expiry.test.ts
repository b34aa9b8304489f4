/**
 * Results expiry on both lakes, with the same assertions: the local one (the SQLite Iceberg
 * catalog, the warehouse directory, the lake writer subprocess) and the AWS profile's in the
 * emulated account (Glue, S3, the lake writer Lambda's handler). Expired `lakeline_results` tables
 * leave the catalog with their files; younger ones and other namespaces stay.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeTable } from '#domain/lake/describe';
import type { Org } from '#domain/orgs/org';
import { expireResultTables, retentionMs, type ResultsExpiryDeps } from '#domain/runs/results-expiry';
import { openTestLake, TEST_LAKES, type TestLake } from './test-lakes.ts';

const ORG = 'aaaaaaaa-0000-4000-8000-000000000001';
const DAY = 86_400_000;

describe.each(TEST_LAKES)('results expiry on the %s lake', (lakeName) => {
  let lake: TestLake;
  let deps: ResultsExpiryDeps;

  beforeAll(async () => {
    lake = await openTestLake(lakeName);
    const source = await lake.stage({ id: [1, 2, 3] });
    for (const [namespace, table] of [
      ['lakeline_results', 'r_one'],
      ['lakeline_results', 'r_two'],
      ['tpch', 'kept'],
    ] as const) {
      await lake.writer.write({ orgId: ORG, namespace, table, parquet: [source], mode: 'overwrite' });
    }
    deps = { orgs: { list: async () => [{ orgId: ORG } as Org] }, catalog: lake.catalog, storage: lake.storage, writer: lake.writer };
  }, 120_000);

  afterAll(() => lake.close());

  it('Should keep results tables younger than the retention', async () => {
    const report = await expireResultTables(deps, new Date(), retentionMs(7));
    expect(report).toEqual({ dropped: [], kept: 2, failed: [] });
  });

  it('Should purge expired results tables, catalog entry and files, and leave other namespaces alone', async () => {
    // Prepare
    const results = await deps.catalog.listTables(ORG, 'lakeline_results');
    const locations = await Promise.all(results.map(async (t) => describeTable(t, await lake.storage.readText(t.metadataLocation)).location));
    const filesBefore = (await Promise.all(locations.map((l) => lake.tableFiles(l)))).flat();
    expect(filesBefore.some((f) => f.endsWith('.parquet'))).toBe(true);
    // Act
    const report = await expireResultTables(deps, new Date(Date.now() + 8 * DAY), retentionMs(7));
    // Assess
    expect(report.dropped.sort()).toEqual([`${ORG}/lakeline_results.r_one`, `${ORG}/lakeline_results.r_two`]);
    expect(report.failed).toEqual([]);
    expect(await deps.catalog.listTables(ORG, 'lakeline_results')).toEqual([]);
    expect((await Promise.all(locations.map((l) => lake.tableFiles(l)))).flat()).toEqual([]);
    expect((await deps.catalog.listTables(ORG, 'tpch')).map((t) => t.table)).toEqual(['kept']);
  }, 60_000);
});
