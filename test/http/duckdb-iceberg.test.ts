/**
 * The DuckDB engine reads Iceberg tables correctly, through the legacy endpoint: tables written by
 * pyiceberg (`test/python/build_test_tables.py`) that are partitioned (with partition evolution),
 * whose schema evolved (a renamed column and an added one, read by field id), that have several
 * snapshots (only the current one is read), and that carry v2 delete files (positional and
 * equality deletes are applied).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTables, freshOrg, type BuiltTable, type WarehouseApi } from './warehouse-api.ts';

let api: WarehouseApi;
let built: Record<string, BuiltTable>;

beforeAll(async () => {
  const org = await freshOrg('Iceberg reader');
  api = org.api;
  built = await buildTables(org.orgId, 'ice', ['partitioned', 'evolved', 'snapshots', 'position_deletes', 'equality_deletes']);
});

const rowsOf = async (query: string): Promise<unknown[][]> => {
  const answer = await api.query({ query });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.results?.rows ?? [];
};

const all = (name: string) => {
  const table = built[name] as BuiltTable;
  return `SELECT ${table.columns.join(', ')} FROM ice.${name} ORDER BY 1`;
};

describe('DuckDB over Iceberg: partitioned tables', () => {
  it('Should read every row of every partition, across two partition specs', async () => {
    // Act
    const rows = await rowsOf(all('partitioned'));
    // Assess
    expect(rows).toEqual(built.partitioned?.expected);
    expect(rows).toHaveLength(40);
  });

  it('Should filter on partition columns and return the same rows as filtering the whole table would', async () => {
    // Act
    const rows = await rowsOf("SELECT id, region, day, amount FROM ice.partitioned WHERE region = 'eu' AND day >= DATE '2024-03-03' ORDER BY id");
    // Assess
    const expected = (built.partitioned?.expected ?? []).filter((r) => r[1] === 'eu' && String(r[2]) >= '2024-03-03');
    expect(expected.length).toBeGreaterThan(0);
    expect(rows).toEqual(expected);
  });
});

describe('DuckDB over Iceberg: schema evolution', () => {
  it('Should read a renamed column from old files by field id, and an added column as NULL there', async () => {
    // Act
    const rows = await rowsOf(all('evolved'));
    // Assess
    expect(rows).toEqual([
      [1, 'ann', 10, null],
      [2, 'bob', 20, null],
      [3, 'cy', 30, '2024-01-31'],
    ]);
  });

  it('Should refuse the old column name, which no longer exists', async () => {
    // Act
    const answer = await api.query({ query: 'SELECT name FROM ice.evolved' });
    // Assess
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/name/);
  });
});

describe('DuckDB over Iceberg: snapshots', () => {
  it('Should read only the current snapshot of a table with several', async () => {
    // Act
    const rows = await rowsOf(all('snapshots'));
    // Assess
    expect(rows).toEqual([
      [10, 'new10'],
      [11, 'new11'],
      [12, 'new12'],
    ]);
    const described = await api.table('ice', 'snapshots');
    expect((described.body as { snapshots: unknown[] }).snapshots.length).toBeGreaterThanOrEqual(3);
  });
});

describe('DuckDB over Iceberg: delete files', () => {
  it('Should apply positional delete files', async () => {
    // Act
    const rows = await rowsOf(all('position_deletes'));
    // Assess
    expect(rows).toEqual([
      [1, 'a'],
      [3, 'c'],
      [5, 'e'],
    ]);
    const described = await api.table('ice', 'position_deletes');
    expect((described.body as { delete_file_count: number }).delete_file_count).toBe(1);
  });

  it('Should apply equality delete files', async () => {
    // Act
    const rows = await rowsOf(all('equality_deletes'));
    // Assess
    expect(rows).toEqual([
      [2, 'b'],
      [3, 'c'],
      [4, 'd'],
    ]);
  });

  it('Should count what remains after deletes', async () => {
    // Act
    const rows = await rowsOf('SELECT (SELECT count(*) FROM ice.position_deletes) AS p, (SELECT count(*) FROM ice.equality_deletes) AS e');
    // Assess
    expect(rows).toEqual([[3, 3]]);
  });
});
