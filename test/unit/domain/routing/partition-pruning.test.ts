/**
 * The planned-files estimate on its own: which WHERE clauses yield predicates (single table, no
 * joins, column against literals), the layout read from metadata (identity and temporal fields over
 * every spec, the current manifest list), and which files a filter keeps — never fewer than it can
 * match.
 */
import { describe, expect, it } from 'vitest';
import { partitionLayout, partitionPredicates, planFiles } from '#domain/routing/partition-pruning';
import { type ManifestFile } from '#domain/routing/ports';

const metadata = JSON.stringify({
  'current-schema-id': 0,
  schemas: [
    {
      'schema-id': 0,
      fields: [
        { id: 1, name: 'id', type: 'long' },
        { id: 2, name: 'Region', type: 'string' },
        { id: 3, name: 'day', type: 'date' },
        { id: 4, name: 'ts', type: 'timestamptz' },
        { id: 5, name: 'local_ts', type: 'timestamp' },
        { id: 6, name: 'tags', type: { type: 'list', 'element-id': 7, element: 'string', 'element-required': false } },
      ],
    },
  ],
  'partition-specs': [
    { 'spec-id': 0, fields: [{ 'source-id': 2, name: 'region', transform: 'identity' }] },
    { 'spec-id': 1, fields: [{ 'source-id': 2, name: 'region', transform: 'identity' }, { 'source-id': 3, name: 'day', transform: 'identity' }, { 'source-id': 4, name: 'ts_hour', transform: 'hour' }] },
    { 'spec-id': 2, fields: [{ 'source-id': 1, name: 'id_bucket', transform: 'bucket[16]' }, { 'source-id': 2, name: 'region_trunc', transform: 'truncate[1]' }, { 'source-id': 5, name: 'local_ts', transform: 'identity' }] },
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
    expect([...layout.fields]).toEqual([
      ['region', { column: 'region', columnType: 'string', transform: 'identity' }],
      ['day', { column: 'day', columnType: 'date', transform: 'identity' }],
      ['ts_hour', { column: 'ts', columnType: 'timestamptz', transform: 'hour' }],
      ['local_ts', { column: 'local_ts', columnType: 'timestamp', transform: 'identity' }],
    ]);
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

  it('Should keep every file of an identity partition on a timestamp column: as text its values need not order like time', () => {
    // Prepare: DuckDB compares local_ts = '2024-03-05' as 2024-03-05 00:00:00, which the text differs from
    const stamped: ManifestFile[] = [
      { sizeBytes: 1, partition: { local_ts: '2024-03-05 00:00:00' } },
      { sizeBytes: 2, partition: { local_ts: '2024-03-06 00:00:00' } },
    ];
    // Act
    const planned = planFiles(stamped, partitionLayout(metadata), partitionPredicates("SELECT * FROM ns.t WHERE local_ts = '2024-03-05'", 'duckdb'));
    // Assess
    expect(planned).toMatchObject({ kept: 2, bytes: 3 });
  });
});

describe('planFiles with temporal transforms', () => {
  /** A table partitioned by one transform of one column (field name `part`). */
  const layoutOf = (transform: string, columnType: string) =>
    partitionLayout(
      JSON.stringify({
        'current-schema-id': 0,
        schemas: [{ 'schema-id': 0, fields: [{ id: 1, name: 'ts', type: columnType }] }],
        'partition-specs': [{ 'spec-id': 0, fields: [{ 'source-id': 1, name: 'part', transform }] }],
        'current-snapshot-id': 1,
        snapshots: [{ 'snapshot-id': 1, 'manifest-list': 'file:///m.avro' }],
      }),
    );
  const plan = (transform: string, columnType: string, values: unknown[], where: string) =>
    planFiles(
      values.map((part, i) => ({ sizeBytes: 10 ** i, partition: { part } })),
      layoutOf(transform, columnType),
      partitionPredicates(`SELECT * FROM ns.t WHERE ${where}`, 'duckdb'),
    );

  // day values as the manifest reader gives them (Avro dates as ISO text); 2024-03-01 is day 19783.
  const days = ['2024-02-29', '2024-03-01', '2024-03-02', '2024-03-03'];
  it.each([
    ["ts = '2024-03-01'", 'timestamp', 0b0010],
    ["ts >= '2024-03-02'", 'timestamp', 0b1100],
    ["ts > '2024-03-02 23:59:59'", 'timestamp', 0b1100],
    ["ts < '2024-03-01'", 'timestamp', 0b0011],
    ["ts BETWEEN '2024-03-01 06:00' AND '2024-03-02T01:00:00'", 'timestamp', 0b0110],
    ["ts IN ('2024-02-29 12:00:00', '2024-03-03')", 'timestamp', 0b1001],
    ["ts >= TIMESTAMP '2024-03-03 00:00:00'", 'timestamp', 0b1000],
    ["ts >= CAST('2024-03-03' AS TIMESTAMP)", 'timestamp', 0b1000],
    ["ts = DATE '2024-03-02'", 'date', 0b0100],
    ["ts < '2024-03-01'", 'date', 0b0011],
    // A zone: one instant. 2024-03-03 01:00+02:00 is 2024-03-02 23:00 UTC.
    ["ts >= '2024-03-03 01:00:00+02:00'", 'timestamptz', 0b1100],
    ["ts = TIMESTAMPTZ '2024-03-01 12:00:00Z'", 'timestamptz', 0b0010],
    // No zone on a timestamptz column: read in the session's zone, any of UTC-12..UTC+14.
    ["ts = '2024-03-01 12:00:00'", 'timestamptz', 0b0111],
    ["ts = '2024-03-01 02:00:00'", 'timestamptz', 0b0011],
    ["ts >= '2024-03-03'", 'timestamptz', 0b1100],
  ])('Should keep, of days 2024-02-29..2024-03-03, the files WHERE %s can match on a %s column', (where, columnType, keptMask) => {
    // Act
    const planned = plan('day', columnType, days, where);
    // Assess: file i is 10^i bytes, so the kept set reads off the sum
    const expected = [0, 1, 2, 3].filter((i) => keptMask & (1 << i)).reduce((sum, i) => sum + 10 ** i, 0);
    expect(planned?.bytes).toBe(expected);
  });

  it.each([
    // hours since the epoch: 2024-03-01T00 is hour 474792
    ['hour', [474791, 474792, 474793], "ts >= '2024-03-01 01:30:00'", 100],
    ['hour', [474791, 474792, 474793], "ts < '2024-03-01 00:00:00'", 1 + 10],
    // months since 1970-01: 2024-03 is month 650
    ['month', [649, 650, 651], "ts BETWEEN '2024-03-01' AND '2024-03-31 23:59:59'", 10],
    ['month', [649, 650, 651], "ts > '2024-02-29 23:00:00'", 1 + 10 + 100],
    // years since 1970: 2024 is year 54
    ['year', [53, 54, 55], "ts >= '2024-01-01'", 10 + 100],
    ['year', [53, 54, 55], "ts IN ('2023-06-01 00:00:00', '2025-01-01 00:00:00')", 1 + 100],
  ])('Should read %s ordinals (%j) WHERE %s', (transform, values, where, bytes) => {
    expect(plan(transform as string, 'timestamp', values as number[], where as string)?.bytes).toBe(bytes);
  });

  it.each([
    ["ts = 'yesterday'", 'a literal that is no date'],
    ["ts = '2024-02-30'", 'a date that does not exist'],
    ["ts = '2024-03-01 24:00:00'", 'hour 24'],
    ["ts = '2024-03-01 12:00:00+02:00'", 'a zone against a zone-less timestamp column'],
    ['ts = 20240301', 'a number'],
  ])('Should keep every file WHERE %s (%s)', (where) => {
    expect(plan('day', 'timestamp', days, where)).toMatchObject({ kept: 4, bytes: 1111 });
  });

  it('Should keep every file for bucket and truncate partitions, and files whose value it cannot read', () => {
    expect(plan('bucket[16]', 'timestamp', [1, 2], "ts = '2024-03-01'")).toBeUndefined();
    expect(plan('truncate[4]', 'timestamp', [1, 2], "ts = '2024-03-01'")).toBeUndefined();
    expect(plan('day', 'timestamp', [null, 'not a day', 19783.5], "ts = '2024-01-01'")).toMatchObject({ kept: 3 });
  });
});
