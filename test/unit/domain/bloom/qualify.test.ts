/**
 * Org isolation of bloom: the SQL firewall in Trino mode refuses what reaches beyond the caller's
 * lake (other catalogs, system tables and procedures, table functions), and the qualifier rewrites
 * every accepted table reference to the engine's name of the caller's own table.
 */
import { describe, expect, it } from 'vitest';
import { qualifyTables, quoteTrino, resultColumnNames, resultsTableAs } from '#domain/bloom/qualify';
import { athenaTableName } from '#adapters/aws/athena-bloom';
import { analyzeSql } from '#domain/sql/analyze';
import type { TableName } from '#domain/core/names';

const ORG = 'c8b7d732-bc82-4eed-a256-f1f33b8861d5';
const CATALOG = 'org_c8b7d732bc824eeda256f1f33b8861d5';
const trino = (t: TableName) => `${quoteTrino(CATALOG)}.${quoteTrino(t.namespace)}.${quoteTrino(t.table)}`;
const KNOWN = new Set(['tpch.lineitem', 'tpch.orders', 'tpch.nation']);

/** The firewall as bloom runs it: Trino mode, the caller's tables only. */
const firewall = (sql: string) =>
  analyzeSql(sql, {
    dialect: 'trino',
    defaultCatalog: 'lakeline',
    resolveTable: (ref) => (ref.namespace && (ref.catalog ?? 'lakeline') === 'lakeline' && KNOWN.has(`${ref.namespace}.${ref.table}`) ? { catalog: 'lakeline', namespace: ref.namespace, table: ref.table } : undefined),
  });

/** Firewall, then qualify, as the bloom run does. */
const bloomSql = (sql: string): string => {
  const analysis = firewall(sql);
  return qualifyTables(sql, analysis.inputTables, trino);
};

describe('bloom qualifier', () => {
  it('Should qualify two- and three-part table names to the org catalog', () => {
    // Act
    const out = bloomSql('SELECT count(*) FROM lakeline.tpch.lineitem l JOIN tpch.orders o ON l.l_orderkey = o.o_orderkey;');

    // Assess
    expect(out).toBe(`SELECT count(*) FROM ${trino({ namespace: 'tpch', table: 'lineitem' })} l JOIN ${trino({ namespace: 'tpch', table: 'orders' })} o ON l.l_orderkey = o.o_orderkey`);
  });

  it('Should qualify quoted and upper-case names and table-qualified columns alike', () => {
    // Act
    const out = bloomSql('SELECT TPCH.NATION.n_name FROM "lakeline"."tpch"."nation" JOIN tpch.nation n2 ON true');

    // Assess
    const nation = trino({ namespace: 'tpch', table: 'nation' });
    expect(out).toBe(`SELECT ${nation}.n_name FROM ${nation} JOIN ${nation} n2 ON true`);
  });

  it('Should leave column references, aliases and string literals alone', () => {
    // Act
    const out = bloomSql("SELECT o.o_orderkey, 'tpch.orders' AS s FROM tpch.orders o WHERE o.o_comment <> 'lakeline.tpch.orders'");

    // Assess
    expect(out).toBe(`SELECT o.o_orderkey, 'tpch.orders' AS s FROM ${trino({ namespace: 'tpch', table: 'orders' })} o WHERE o.o_comment <> 'lakeline.tpch.orders'`);
  });

  it('Should qualify names inside CTEs and subqueries and drop a trailing comment', () => {
    // Act
    const out = bloomSql('WITH x AS (SELECT * FROM tpch.orders) SELECT * FROM x WHERE o_orderkey IN (SELECT l_orderkey FROM tpch.lineitem) -- done');

    // Assess
    expect(out).toBe(`WITH x AS (SELECT * FROM ${trino({ namespace: 'tpch', table: 'orders' })}) SELECT * FROM x WHERE o_orderkey IN (SELECT l_orderkey FROM ${trino({ namespace: 'tpch', table: 'lineitem' })})`);
  });

  it('Should name Glue databases of the org for Athena', () => {
    // Act
    const out = qualifyTables('SELECT * FROM tpch.orders', [{ namespace: 'tpch', table: 'orders' }], athenaTableName(ORG));

    // Assess
    expect(out).toBe(`SELECT * FROM "awsdatacatalog"."${CATALOG}__tpch"."orders"`);
  });
});

describe('results tables', () => {
  it('Should name every column once, keeping the engine\'s names', () => {
    // Act + Assess
    expect(resultColumnNames(['c_name', '_col1', 'C_NAME', '', 'c_name'])).toEqual(['c_name', '_col1', 'C_NAME_2', '_col3', 'c_name_3']);
  });

  it('Should wrap the query with its column names and quote them', () => {
    // Act
    const sql = resultsTableAs('"c"."s"."t"', 'SELECT 1 -- one', ['a"b', 'x']);

    // Assess
    expect(sql).toBe('CREATE TABLE "c"."s"."t" AS\nSELECT * FROM (\nSELECT 1 -- one\n) AS lakeline_rows ("a""b", "x")\n');
  });
});

describe('bloom firewall (Trino mode), hostile statements', () => {
  const hostile: [string, string][] = [
    ['another org\'s catalog', 'SELECT * FROM org_0000000000000000000000000000000a.tpch.orders'],
    ['the org catalog by its internal name', `SELECT * FROM ${CATALOG}.tpch.orders`],
    ['Trino system tables', 'SELECT * FROM system.runtime.queries'],
    ['the connector\'s system schema', 'SELECT * FROM lakeline.system.iceberg_tables'],
    ['Iceberg metadata tables', 'SELECT * FROM tpch."orders$files"'],
    ['a table function', "SELECT * FROM TABLE(system.query(query => 'SELECT 1'))"],
    ['a table function of the lake catalog', "SELECT * FROM TABLE(lakeline.system.table_changes(schema_name => 'tpch', table_name => 'orders'))"],
    ['a procedure call', "CALL system.register_table(schema_name => 'tpch', table_name => 'x', table_location => 's3://other/')"],
    ['information_schema', 'SELECT * FROM information_schema.tables'],
    ['a write', 'INSERT INTO tpch.orders SELECT * FROM tpch.orders'],
    ['DDL', 'DROP TABLE tpch.orders'],
    ['a second statement', 'SELECT 1; DROP TABLE tpch.orders'],
    ['CREATE CATALOG', "CREATE CATALOG x USING iceberg WITH (\"iceberg.catalog.type\" = 'jdbc')"],
    ['SET SESSION', "SET SESSION query_max_run_time = '1d'"],
    ['an unknown table', 'SELECT * FROM tpch.customer_secret'],
  ];
  it.each(hostile)('Should refuse %s', (_what, sql) => {
    // Act + Assess
    expect(() => bloomSql(sql)).toThrow();
  });

  it.each([
    ['another org\'s catalog routine', 'SELECT org_0000000000000000000000000000000a.system.bucket(o_orderkey, 4) FROM tpch.orders'],
    ['a routine of the lake catalog', 'SELECT lakeline.system.bucket(o_orderkey, 4) FROM tpch.orders'],
    ['a schema-qualified function', "SELECT main.substring('ab', 1, 1) FROM tpch.orders"],
  ])('Should refuse %s in the qualifier (the parser accepts qualified function names)', (_what, sql) => {
    // Act + Assess
    expect(() => bloomSql(sql)).toThrow(/qualified function/);
  });

  it('Should refuse several statements in the qualifier itself', () => {
    // Act + Assess
    expect(() => qualifyTables('SELECT 1; SELECT 2', [], trino)).toThrow(/exactly one statement/);
  });
});
