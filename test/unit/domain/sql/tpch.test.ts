// The TPC-H corpus: the 22 queries give exactly their tables, in every dialect and every way of
// naming the tables. How long an analysis takes is measured by bench/firewall.ts.
import { describe, expect, it } from 'vitest';
import { analyzeSql } from '#domain/sql/analyze';
import { SQL_DIALECTS } from '#domain/sql/types';
import { orgOptions, qn } from './org-catalog.ts';
import { TPCH_QUERIES, qualifyTpch } from './tpch-queries.ts';

const NAMINGS = [
  { name: 'bare names with default namespace tpch', qualify: (sql: string) => sql, defaultNamespace: 'tpch' },
  { name: 'namespace.table, no default namespace', qualify: (sql: string) => qualifyTpch(sql, 'tpch.'), defaultNamespace: undefined },
  { name: 'catalog.namespace.table, no default namespace', qualify: (sql: string) => qualifyTpch(sql, 'lakeline.tpch.'), defaultNamespace: undefined },
] as const;

const CASES = SQL_DIALECTS.flatMap((dialect) =>
  NAMINGS.flatMap((naming) => TPCH_QUERIES.map((query) => ({ dialect, naming: naming.name, query, sql: naming.qualify(query.sql), defaultNamespace: naming.defaultNamespace }))),
);

describe('TPC-H queries', () => {
  it('has the 22 queries, each with its tables', () => {
    expect(TPCH_QUERIES.map((q) => q.number)).toEqual(Array.from({ length: 22 }, (_, i) => i + 1));
    expect(TPCH_QUERIES.find((q) => q.number === 1)?.tables).toEqual(['lineitem']);
    expect(TPCH_QUERIES.find((q) => q.number === 2)?.tables).toEqual(['part', 'supplier', 'partsupp', 'nation', 'region']);
  });

  it('qualifies every table reference and nothing else', () => {
    // Prepare: Q9 uses `nation` both as a table and as a column alias.
    const q9 = TPCH_QUERIES.find((q) => q.number === 9)?.sql ?? '';

    // Act
    const qualified = qualifyTpch(q9, 'tpch.');

    // Assess
    expect(qualified).toContain('tpch.nation');
    expect(qualified).toContain('n_name AS nation');
    expect(qualified).not.toMatch(/tpch\.tpch\./);
  });

  it.each(CASES)('$dialect, $naming: Q$query.number reads exactly its tables', ({ dialect, query, sql, defaultNamespace }) => {
    // Act
    const analysis = analyzeSql(sql, orgOptions(dialect, { defaultNamespace }));

    // Assess
    expect(analysis.kind).toBe('read');
    expect(analysis.statementType).toBe('SELECT');
    expect(analysis.target).toBeUndefined();
    expect(analysis.inputTables).toEqual([...query.tables].sort().map((t) => qn('tpch', t)));
  });

  it('refuses bare names when no default namespace is configured', () => {
    expect(() => analyzeSql(TPCH_QUERIES[0]?.sql ?? '', orgOptions('duckdb', { defaultNamespace: undefined }))).toThrow(
      'SQL not allowed: table lineitem without a namespace (write namespace.table)',
    );
  });

  it('gives the same normalized text for the query however it is spaced, cased and commented', () => {
    for (const query of TPCH_QUERIES) {
      // Prepare: collapse the layout, change keyword case, add comments.
      const reformatted = `/* Q${query.number} */ ${query.sql.replace(/\s+/g, ' ').replace(/\bSELECT\b/g, 'select')} -- end`;

      // Act
      const a = analyzeSql(query.sql, orgOptions('duckdb'));
      const b = analyzeSql(reformatted, orgOptions('duckdb'));

      // Assess
      expect(b.normalizedSql).toBe(a.normalizedSql);
    }
  });
});
