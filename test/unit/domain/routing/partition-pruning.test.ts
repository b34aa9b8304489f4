/**
 * The planned-files estimate on its own: which WHERE clauses yield predicates (single table, no
 * joins, column against literals), the layout read from metadata (identity fields over every
 * spec, the current manifest list), and which files a filter keeps — never fewer than it can match.
 */
import { describe, expect, it } from 'vitest';
import { partitionLayout, partitionPredicates, planFiles, type ManifestFile } from '#domain/routing/partition-pruning';

const metadata = JSON.stringify({
  'current-schema-id': 0,
  schemas: [{ 'schema-id': 0, fields: [{ id: 1, name: 'id' }, { id: 2, name: 'Region' }, { id: 3, name: 'day' }, { id: 4, name: 'ts' }] }],
  'partition-specs': [
    { 'spec-id': 0, fields: [{ 'source-id': 2, name: 'region', transform: 'identity' }] },
    { 'spec-id': 1, fields: [{ 'source-id': 2, name: 'region', transform: 'identity' }, { 'source-id': 3, name: 'day', transform: 'identity' }, { 'source-id': 4, name: 'ts_hour', transform: 'hour' }] },
  ],
  'current-snapshot-id': 7,
  snapshots: [{ 'snapshot-id': 6, 'manifest-list': 'file:///old.avro' }, { 'snapshot-id': 7, 'manifest-list': 'file:///m.avro' }],
});

const files: ManifestFile[] = [
  { sizeBytes: 100, partition: { region: 'eu' } },
  { sizeBytes: 200, partition: { region: 'us' } },
  { sizeBytes: 10, partition: { region: 'eu', day: '2024-03-01' } },
  { sizeBytes: 20, partition: { region: 'eu', day: '2024-03-05' } },
  { sizeBytes: 40, partition: { region: 'us', day: '2024-03-05' } },
];

describe('partitionPredicates', () => {
  it('Should read a conjunction of comparisons, IN and BETWEEN on one table, with its name or alias', () => {
    // Act
    const found = partitionPredicates(
      "SELECT * FROM ns.t AS x WHERE x.region = 'eu' AND t.day BETWEEN DATE '2024-03-01' AND '2024-03-02' AND (id IN (1, 2)) AND 5 < id AND amount > 1.5",
      'duckdb',
    );
    // Assess
    expect(found).toEqual([
      { column: 'region', op: 'eq', values: ['eu'] },
      { column: 'day', op: 'between', values: ['2024-03-01', '2024-03-02'] },
      { column: 'id', op: 'in', values: [1, 2] },
      { column: 'id', op: 'gt', values: [5] },
      { column: 'amount', op: 'gt', values: [1.5] },
    ]);
  });

  it.each([
    ["SELECT * FROM ns.t JOIN ns.u ON t.id = u.id WHERE region = 'eu'", 'a join'],
    ["SELECT * FROM ns.t, ns.u WHERE region = 'eu'", 'two tables'],
    ["SELECT * FROM ns.t WHERE region = 'eu' OR region = 'us'", 'a disjunction'],
    ["SELECT * FROM ns.t WHERE other.region = 'eu'", "another table's column"],
    ["SELECT * FROM ns.t WHERE region NOT IN ('eu')", 'NOT IN'],
    ['SELECT * FROM ns.t', 'no WHERE'],
    ["SELECT * FROM ns.t WHERE region = 'eu' UNION ALL SELECT * FROM ns.t", 'a set operation'],
  ])('Should find nothing to plan with %s (%s)', (sql) => {
    expect(partitionPredicates(sql, 'duckdb')).toEqual([]);
  });
});

describe('partitionLayout and planFiles', () => {
  it('Should take identity fields of every spec and the current manifest list', () => {
    // Act
    const layout = partitionLayout(metadata);
    // Assess
    expect(layout.manifestList).toBe('file:///m.avro');
    expect([...layout.identityFields]).toEqual([['region', 'region'], ['day', 'day']]);
  });

  it.each([
    ["region = 'eu'", 130, 3],
    ["region IN ('eu', 'us')", 370, 5],
    ["day = '2024-03-05'", 360, 4],
    ["day < '2024-03-05'", 310, 3],
    ["day BETWEEN '2024-03-02' AND '2024-03-09' AND region = 'us'", 240, 2],
    ["region = 'apac'", 0, 0],
  ])('Should keep the files WHERE %s can match', (where, bytes, kept) => {
    // Act
    const planned = planFiles(files, partitionLayout(metadata), partitionPredicates(`SELECT * FROM ns.t WHERE ${where}`, 'duckdb'));
    // Assess
    expect(planned).toMatchObject({ bytes, kept, total: 5 });
  });

  it('Should plan nothing when no predicate is on a partition column, and keep files it cannot compare', () => {
    const layout = partitionLayout(metadata);
    expect(planFiles(files, layout, partitionPredicates('SELECT * FROM ns.t WHERE id = 3', 'duckdb'))).toBeUndefined();
    expect(planFiles(files, layout, partitionPredicates('SELECT * FROM ns.t WHERE region = 3', 'duckdb'))).toMatchObject({ kept: 5 });
  });
});
