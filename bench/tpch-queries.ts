/**
 * @module tpch-queries
 * DuckDB's 22 TPC-H queries (`tpch_queries()`) with every TPC-H table qualified as
 * `tpch.<table>`, rewritten by DuckDB's own parser (the same rule as `bench/tpch-duckdb.ts`), for
 * benchmarks and tests that run the same statements on several engines.
 */
import path from 'node:path';
import { openDuckDB } from '#adapters/duckdb/instance';
import { REPO_ROOT } from '#composition/config';

export const TPCH_TABLES = ['region', 'nation', 'supplier', 'customer', 'part', 'partsupp', 'orders', 'lineitem'] as const;
const EXTENSIONS = path.join(REPO_ROOT, '.lakeline', 'duckdb-extensions');

/** The 22 queries, tables qualified as `tpch.<table>`. */
export const tpchQueries = async (): Promise<{ nr: number; sql: string }[]> => {
  const { instance, connection } = await openDuckDB(EXTENSIONS, ['tpch']);
  try {
    const rows = (await connection.runAndReadAll('SELECT query_nr, query FROM tpch_queries() ORDER BY query_nr')).getRows();
    // The serialized plan names base tables as `"schema_name":"","table_name":"…"`; only TPC-H's
    // own tables get the schema, so CTE names (Q15's `revenue`) stay as they are.
    const unqualified = new RegExp(`"schema_name":"","table_name":"(${TPCH_TABLES.join('|')})"`, 'g');
    const out: { nr: number; sql: string }[] = [];
    for (const [nr, query] of rows) {
      const json = String((await connection.runAndReadAll('SELECT json_serialize_sql(?::VARCHAR)', [String(query)])).getRows()[0]?.[0]);
      const qualified = json.replace(unqualified, '"schema_name":"tpch","table_name":"$1"');
      out.push({ nr: Number(nr), sql: String((await connection.runAndReadAll('SELECT json_deserialize_sql(?::JSON)', [qualified])).getRows()[0]?.[0]) });
    }
    return out;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
};

/**
 * The same 22 queries in SQL that both DuckDB and Trino (bloom) read: DuckDB's serializer writes a
 * few of its own spellings, put back here to the spellings both read (`count(*)`, `LIKE`, `year()`,
 * `substring`, grouping by a column rather than an alias, `IN (subquery)`), so every engine runs the very same text.
 */
export const portableTpchQueries = async (): Promise<{ nr: number; sql: string }[]> =>
  (await tpchQueries()).map(({ nr, sql }) => ({
    nr,
    sql: sql
      .replaceAll('count_star()', 'count(*)')
      .replaceAll(' !~~ ', ' NOT LIKE ')
      .replaceAll(' ~~ ', ' LIKE ')
      // DuckDB names some built-ins by their schema (`main.substring`, `main.date_part`).
      .replace(/\bmain\.("?)([a-z_]+)\1\(/g, '$2(')
      .replace(/date_part\('year', ([a-z_]+)\)/g, 'year($1)')
      .replaceAll('"substring"(', 'substring(')
      // Q15 groups by an output alias, which DuckDB allows and Trino does not.
      .replace('GROUP BY supplier_no', 'GROUP BY l_suppkey')
      // `x = ANY(subquery)` is Trino's and DuckDB's, not Spark's; IN is everyone's.
      .replaceAll(' = ANY(', ' IN ('),
  }));
