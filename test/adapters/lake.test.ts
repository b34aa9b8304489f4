/**
 * The lake's adapters on both lakes, with the same assertions: the local profile's (SQLite Iceberg
 * catalog, warehouse directory, lake writer subprocess) and the AWS profile's in the emulated
 * account (the Glue catalog, S3 lake storage, the lake writer Lambda's handler on pyiceberg's Glue
 * catalog and S3). The demo load of TPC-H, org isolation, listing and describing tables, the
 * metadata location, overwrite and append, and drop with and without purge.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeTable } from '#domain/lake/describe';
import { ValidationError } from '#domain/errors';
import { openTestLake, TEST_LAKES, type TestLake } from './test-lakes.ts';

const TPCH_ROWS = { region: 5, nation: 25, supplier: 100, customer: 1500, part: 2000, partsupp: 8000, orders: 15000, lineitem: 60175 };

describe.each(TEST_LAKES)('the lake adapters on the %s lake', (lakeName) => {
  const orgA = randomUUID();
  const orgB = randomUUID();
  let lake: TestLake;
  let loaded: Record<string, number>;

  const describeOf = async (orgId: string, namespace: string, table: string) => {
    const found = await lake.catalog.loadTable(orgId, { namespace, table });
    if (!found) throw new Error(`${namespace}.${table} is not in the catalog`);
    return describeTable(found, await lake.storage.readText(found.metadataLocation));
  };

  beforeAll(async () => {
    lake = await openTestLake(lakeName);
    loaded = await lake.writer.demoLoad(orgA, 0.01);
    await lake.writer.write({ orgId: orgB, namespace: 'sales', table: 'orders', parquet: [await lake.stage({ id: [1] })], mode: 'overwrite' });
  }, 180_000);

  afterAll(() => lake.close());

  it('Should load TPC-H at scale factor 0.01 and list its tables with their current metadata files', async () => {
    // Assess
    expect(loaded).toEqual(TPCH_ROWS);
    const tables = await lake.catalog.listTables(orgA);
    expect(tables.map((t) => `${t.namespace}.${t.table}`)).toEqual(Object.keys(TPCH_ROWS).sort().map((t) => `tpch.${t}`));
    for (const t of tables) expect(t.metadataLocation).toMatch(lakeName === 'aws' ? /^s3:\/\/lakeline-lake-[^/]+\/warehouse\/org_[0-9a-f]+\/.+\.metadata\.json$/ : /^file:\/\/\/.+\.metadata\.json$/);
  });

  it('Should describe a table from its metadata: schema, location and record count', async () => {
    // Act
    const lineitem = await describeOf(orgA, 'tpch', 'lineitem');
    // Assess
    expect(lineitem.record_count).toBe('60175');
    expect(lineitem.schema.map((c) => c.name).slice(0, 3)).toEqual(['l_orderkey', 'l_partkey', 'l_suppkey']);
    expect(lineitem.location).toBe((await lake.catalog.loadTable(orgA, { namespace: 'tpch', table: 'lineitem' }))?.metadataLocation.replace(/\/metadata\/[^/]+$/, ''));
  });

  it("Should keep each org to its own tables: listing, loading and a namespace it does not have", async () => {
    // Act / Assess
    expect((await lake.catalog.listTables(orgB)).map((t) => `${t.namespace}.${t.table}`)).toEqual(['sales.orders']);
    expect(await lake.catalog.loadTable(orgB, { namespace: 'tpch', table: 'nation' })).toBeUndefined();
    expect(await lake.catalog.loadTable(orgA, { namespace: 'sales', table: 'orders' })).toBeUndefined();
    expect(await lake.catalog.listTables(orgA, 'sales')).toEqual([]);
    expect(await lake.catalog.listTables(randomUUID())).toEqual([]);
    const a = await describeOf(orgA, 'tpch', 'nation');
    const b = await describeOf(orgB, 'sales', 'orders');
    // The orgs' files never share a directory.
    expect(b.location.startsWith(a.location.split('/').slice(0, -2).join('/'))).toBe(false);
  });

  it('Should create a table on first write, then overwrite replaces its rows and append adds to them', async () => {
    // Prepare
    const three = await lake.stage({ id: [1, 2, 3] });
    const two = await lake.stage({ id: [10, 20] });

    // Act
    const created = await lake.writer.write({ orgId: orgA, namespace: 'analytics', table: 't', parquet: [three], mode: 'overwrite' });
    const appended = await lake.writer.write({ orgId: orgA, namespace: 'analytics', table: 't', parquet: [two], mode: 'append' });
    const afterAppend = await describeOf(orgA, 'analytics', 't');
    const overwritten = await lake.writer.write({ orgId: orgA, namespace: 'analytics', table: 't', parquet: [two], mode: 'overwrite' });
    const afterOverwrite = await describeOf(orgA, 'analytics', 't');

    // Assess
    expect([created.rowsWritten, appended.rowsWritten, overwritten.rowsWritten]).toEqual([3, 2, 2]);
    expect(afterAppend.record_count).toBe('5');
    expect(afterOverwrite.record_count).toBe('2');
    // pyiceberg overwrites with a delete snapshot and an append snapshot.
    expect(afterOverwrite.snapshots.length).toBeGreaterThan(afterAppend.snapshots.length);
    expect((await lake.catalog.loadTable(orgA, { namespace: 'analytics', table: 't' }))?.metadataLocation).toBe(overwritten.metadataLocation);
  });

  it('Should refuse a write source it may not read, naming it, and write nothing', async () => {
    // Prepare: in AWS only the polars staging prefix is readable; locally a file that is not there.
    const nation = await describeOf(orgA, 'tpch', 'nation');
    const source = lakeName === 'aws' ? `${nation.location}/data/any.parquet` : '/nonexistent/rows.parquet';

    // Act
    const error = await lake.writer.write({ orgId: orgA, namespace: 'analytics', table: 'refused', parquet: [source], mode: 'overwrite' }).catch((err: unknown) => err);

    // Assess
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toContain(source);
    expect(await lake.catalog.loadTable(orgA, { namespace: 'analytics', table: 'refused' })).toBeUndefined();
  });

  it('Should drop a table: without purge the catalog forgets it, with purge its files go too', async () => {
    // Prepare
    const source = await lake.stage({ id: [7] });
    await lake.writer.write({ orgId: orgB, namespace: 'sales', table: 'kept_files', parquet: [source], mode: 'overwrite' });
    await lake.writer.write({ orgId: orgB, namespace: 'sales', table: 'purged', parquet: [source], mode: 'overwrite' });
    const kept = (await describeOf(orgB, 'sales', 'kept_files')).location;
    const purged = (await describeOf(orgB, 'sales', 'purged')).location;

    // Act
    const dropped = await lake.writer.drop(orgB, { namespace: 'sales', table: 'kept_files' });
    const purgedNow = await lake.writer.drop(orgB, { namespace: 'sales', table: 'purged' }, { purge: true });
    const again = await lake.writer.drop(orgB, { namespace: 'sales', table: 'purged' }, { purge: true });

    // Assess
    expect([dropped, purgedNow, again]).toEqual([true, true, false]);
    expect((await lake.catalog.listTables(orgB, 'sales')).map((t) => t.table)).toEqual(['orders']);
    expect((await lake.tableFiles(kept)).some((f) => f.endsWith('.parquet'))).toBe(true);
    expect(await lake.tableFiles(purged)).toEqual([]);
  });
});
