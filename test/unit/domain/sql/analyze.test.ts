// analyzeSql: statement kinds, input tables, own targets, name resolution, CTEs and aliases, and the
// lexical and dialect rules that decide what a statement means.
import { describe, expect, it, vi } from 'vitest';
import { ValidationError } from '#domain/errors';
import { analyzeSql, MAX_SQL_LENGTH, MAX_SQL_OPERATORS } from '#domain/sql/analyze';
import { ForbiddenSqlError } from '#domain/sql/errors';
import { SQL_DIALECTS, type SqlDialect, type TableRef } from '#domain/sql/types';
import { orgOptions, qn, resolveOrgTable } from './org-catalog.ts';

const ALL: SqlDialect[] = ['duckdb', 'polars', 'spark', 'trino'];
const WRITERS: SqlDialect[] = ['duckdb', 'spark', 'trino'];

function tablesOf(sql: string, dialect: SqlDialect = 'duckdb'): string[] {
  return analyzeSql(sql, orgOptions(dialect)).inputTables.map((t) => `${t.catalog}.${t.namespace}.${t.table}`);
}

function refusedWith(sql: string, dialect: SqlDialect = 'duckdb'): string {
  try {
    analyzeSql(sql, orgOptions(dialect));
  } catch (error) {
    if (error instanceof ForbiddenSqlError) return error.message;
    throw error;
  }
  throw new Error(`allowed: ${sql}`);
}

describe('analyzeSql: reads', () => {
  it.each(ALL)('%s: reports a read with its tables distinct and sorted', (dialect) => {
    // Act
    const analysis = analyzeSql('SELECT * FROM tpch.orders o JOIN tpch.customer c ON o_custkey = c_custkey JOIN tpch.orders o2 ON true', orgOptions(dialect));

    // Assess
    expect(analysis).toEqual({
      kind: 'read',
      statementType: 'SELECT',
      inputTables: [qn('tpch', 'customer'), qn('tpch', 'orders')],
      normalizedSql: 'select * from tpch . orders o join tpch . customer c on o_custkey = c_custkey join tpch . orders o2 on true',
    });
  });

  it('asks the resolver with catalog and namespace filled in, lower-cased, and returns its canonical names', () => {
    // Prepare
    const resolveTable = vi.fn((ref: TableRef) => ({ catalog: 'lakeline', namespace: `${ref.namespace}`, table: `${ref.table}_canonical` }));

    // Act
    const analysis = analyzeSql('SELECT * FROM Nation, TPCH.Region, LakeLine.Scratch.T', orgOptions('duckdb', { resolveTable }));

    // Assess
    expect(resolveTable.mock.calls.map(([ref]) => ref)).toEqual([
      { catalog: 'lakeline', namespace: 'tpch', table: 'nation' },
      { catalog: 'lakeline', namespace: 'tpch', table: 'region' },
      { catalog: 'lakeline', namespace: 'scratch', table: 't' },
    ]);
    expect(analysis.inputTables).toEqual([qn('scratch', 't_canonical'), qn('tpch', 'nation_canonical'), qn('tpch', 'region_canonical')]);
  });

  it('resolves a bare name in the configured default namespace', () => {
    expect(tablesOf('SELECT * FROM nation')).toEqual(['lakeline.tpch.nation']);
    expect(analyzeSql('SELECT * FROM t', orgOptions('duckdb', { defaultNamespace: 'scratch' })).inputTables).toEqual([qn('scratch', 't')]);
  });

  it('accepts a statement that reads no table', () => {
    expect(analyzeSql('SELECT 1 + 1 AS two', orgOptions('duckdb')).inputTables).toEqual([]);
  });

  it.each(['FROM tpch.nation SELECT n_name', '(SELECT * FROM tpch.nation)', 'VALUES (1), (2)', 'SELECT 1 UNION ALL SELECT n_nationkey FROM tpch.nation'])(
    'duckdb: reads %s',
    (sql) => {
      expect(analyzeSql(sql, orgOptions('duckdb')).kind).toBe('read');
    },
  );

  it('finds tables in every clause: subqueries in SELECT, WHERE, HAVING, ORDER BY, JOIN ON, set operations', () => {
    // Prepare
    const sql = `SELECT (SELECT max(r_regionkey) FROM tpch.region) AS m
      FROM tpch.nation n JOIN tpch.supplier s ON s_nationkey = (SELECT min(n_nationkey) FROM tpch.customer)
      WHERE EXISTS (SELECT 1 FROM tpch.orders) GROUP BY 1 HAVING count(*) > (SELECT count(*) FROM tpch.part)
      ORDER BY (SELECT count(*) FROM tpch.partsupp)
      UNION SELECT l_orderkey FROM tpch.lineitem`;

    // Act / Assess
    expect(tablesOf(sql)).toEqual(['customer', 'lineitem', 'nation', 'orders', 'part', 'partsupp', 'region', 'supplier'].map((t) => `lakeline.tpch.${t}`));
  });
});

describe('analyzeSql: CTEs, subqueries and aliases', () => {
  it.each(ALL)('%s: a CTE name is not a table; the CTE body is', (dialect) => {
    expect(tablesOf('WITH x AS (SELECT * FROM tpch.lineitem) SELECT * FROM x', dialect)).toEqual(['lakeline.tpch.lineitem']);
  });

  it('a CTE may shadow a table name: the CTE is read, not the table', () => {
    expect(tablesOf('WITH nation AS (SELECT * FROM tpch.region) SELECT * FROM nation')).toEqual(['lakeline.tpch.region']);
  });

  it('a qualified name is never a CTE', () => {
    expect(tablesOf('WITH nation AS (SELECT 1) SELECT * FROM tpch.nation, nation')).toEqual(['lakeline.tpch.nation']);
  });

  it('a CTE sees the CTEs before it', () => {
    expect(tablesOf('WITH a AS (SELECT * FROM tpch.nation), b AS (SELECT * FROM a) SELECT * FROM b')).toEqual(['lakeline.tpch.nation']);
  });

  it('a CTE does not see the CTEs after it (the name is read as a table)', () => {
    expect(refusedWith('WITH a AS (SELECT * FROM b), b AS (SELECT 1) SELECT * FROM a')).toBe('SQL not allowed: table lakeline.tpch.b is not in your catalog');
  });

  it('a recursive CTE sees itself', () => {
    expect(tablesOf('WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT * FROM r')).toEqual([]);
  });

  it('a non-recursive CTE naming itself reads the table of that name', () => {
    expect(tablesOf('WITH nation AS (SELECT * FROM nation) SELECT * FROM nation')).toEqual(['lakeline.tpch.nation']);
  });

  it('a CTE of a subquery is not visible outside it', () => {
    expect(refusedWith('SELECT * FROM (WITH x AS (SELECT 1) SELECT * FROM x) s, x')).toBe('SQL not allowed: table lakeline.tpch.x is not in your catalog');
  });

  it('a CTE covers both sides of a set operation', () => {
    expect(tablesOf('WITH x AS (SELECT n_name FROM tpch.nation) SELECT * FROM x UNION SELECT * FROM x')).toEqual(['lakeline.tpch.nation']);
  });

  it('CTE names match case-insensitively, quoted or not', () => {
    expect(tablesOf('WITH "X" AS (SELECT * FROM tpch.nation) SELECT * FROM x')).toEqual(['lakeline.tpch.nation']);
  });

  it('subquery and table aliases are not tables, even when named like one', () => {
    expect(tablesOf('SELECT lineitem.n_name FROM (SELECT * FROM tpch.nation) AS lineitem JOIN tpch.region AS orders ON true')).toEqual([
      'lakeline.tpch.nation',
      'lakeline.tpch.region',
    ]);
  });

  it('column qualifiers are not tables', () => {
    expect(tablesOf('SELECT nation.n_name, region.* FROM tpch.nation, tpch.region WHERE nation.n_regionkey = region.r_regionkey')).toEqual([
      'lakeline.tpch.nation',
      'lakeline.tpch.region',
    ]);
  });

  it('derived tables with column aliases, VALUES and LATERAL subqueries', () => {
    expect(tablesOf('SELECT * FROM (VALUES (1)) v(x), LATERAL (SELECT * FROM tpch.nation WHERE n_nationkey = x) n')).toEqual(['lakeline.tpch.nation']);
  });
});

describe('analyzeSql: statements that write their own target', () => {
  it.each(WRITERS)('%s: CREATE TABLE AS creates the target', (dialect) => {
    // Act
    const analysis = analyzeSql('CREATE TABLE scratch.summary AS SELECT n_regionkey, count(*) AS c FROM tpch.nation GROUP BY 1', orgOptions(dialect));

    // Assess
    expect(analysis.kind).toBe('write-own-target');
    expect(analysis.statementType).toBe('CREATE_TABLE_AS');
    expect(analysis.target).toEqual({ ...qn('scratch', 'summary'), mode: 'create' });
    expect(analysis.inputTables).toEqual([qn('tpch', 'nation')]);
  });

  it.each(WRITERS)('%s: CREATE OR REPLACE TABLE AS replaces the target', (dialect) => {
    const analysis = analyzeSql('CREATE OR REPLACE TABLE scratch.summary AS SELECT * FROM tpch.region', orgOptions(dialect));
    expect(analysis.statementType).toBe('CREATE_OR_REPLACE_TABLE_AS');
    expect(analysis.target).toEqual({ ...qn('scratch', 'summary'), mode: 'replace' });
  });

  it.each(WRITERS)('%s: INSERT INTO appends to the target, which may also be read', (dialect) => {
    const analysis = analyzeSql('INSERT INTO scratch.t SELECT * FROM scratch.t', orgOptions(dialect));
    expect(analysis.statementType).toBe('INSERT');
    expect(analysis.target).toEqual({ ...qn('scratch', 't'), mode: 'append' });
    expect(analysis.inputTables).toEqual([qn('scratch', 't')]);
  });

  it('spark: INSERT OVERWRITE [TABLE] overwrites the target', () => {
    for (const sql of ['INSERT OVERWRITE TABLE scratch.t SELECT * FROM tpch.nation', 'INSERT OVERWRITE scratch.t SELECT * FROM tpch.nation']) {
      const analysis = analyzeSql(sql, orgOptions('spark'));
      expect(analysis.statementType).toBe('INSERT_OVERWRITE');
      expect(analysis.target).toEqual({ ...qn('scratch', 't'), mode: 'overwrite' });
    }
  });

  it('CREATE TABLE IF NOT EXISTS says so on the target', () => {
    expect(analyzeSql('CREATE TABLE IF NOT EXISTS scratch.x AS SELECT 1 AS a', orgOptions('duckdb')).target).toEqual({
      ...qn('scratch', 'x'),
      mode: 'create',
      ifNotExists: true,
    });
  });

  it('INSERT with a column list, VALUES, BY NAME, and a CTE before it', () => {
    expect(analyzeSql('INSERT INTO scratch.t (a, b) VALUES (1, 2)', orgOptions('duckdb')).target?.mode).toBe('append');
    expect(analyzeSql('INSERT INTO scratch.t BY NAME SELECT 1 AS a', orgOptions('duckdb')).target?.mode).toBe('append');
    expect(analyzeSql('WITH x AS (SELECT * FROM tpch.nation) INSERT INTO scratch.t SELECT * FROM x', orgOptions('duckdb')).inputTables).toEqual([qn('tpch', 'nation')]);
  });

  it('resolves the target through resolveTarget with the default catalog and namespace', () => {
    // Prepare
    const resolveTarget = vi.fn((ref: TableRef) => ({ catalog: 'lakeline', namespace: `${ref.namespace}`, table: ref.table }));

    // Act
    const analysis = analyzeSql('CREATE TABLE Out AS SELECT 1 AS a', orgOptions('duckdb', { defaultNamespace: 'scratch', resolveTarget }));

    // Assess
    expect(resolveTarget).toHaveBeenCalledWith({ catalog: 'lakeline', namespace: 'scratch', table: 'out' });
    expect(analysis.target).toEqual({ ...qn('scratch', 'out'), mode: 'create' });
  });

  it('refuses every write when no resolveTarget is given (a read-only endpoint)', () => {
    expect(() => analyzeSql('CREATE TABLE scratch.x AS SELECT 1 AS a', orgOptions('duckdb', { resolveTarget: undefined }))).toThrow(
      'SQL not allowed: CREATE TABLE AS (only reads are accepted here)',
    );
    expect(() => analyzeSql('INSERT INTO scratch.t SELECT 1', orgOptions('trino', { resolveTarget: undefined }))).toThrow('SQL not allowed: INSERT (only reads are accepted here)');
  });

  it('does not use resolveTable for the target, nor resolveTarget for inputs', () => {
    // scratch.new is writable but does not exist; reading it is refused.
    expect(analyzeSql('CREATE TABLE scratch.new AS SELECT 1 AS a', orgOptions('duckdb')).target?.table).toBe('new');
    expect(refusedWith('SELECT * FROM scratch.new')).toBe('SQL not allowed: table lakeline.scratch.new is not in your catalog');
  });

  it('spark: accepts USING iceberg and PARTITIONED BY on a CTAS', () => {
    const analysis = analyzeSql('CREATE TABLE scratch.x USING iceberg PARTITIONED BY (n_regionkey) AS SELECT * FROM tpch.nation', orgOptions('spark'));
    expect(analysis.target).toEqual({ ...qn('scratch', 'x'), mode: 'create' });
  });

  it("trino: accepts CTAS properties format and partitioning with literal values", () => {
    const sql = "CREATE TABLE scratch.x WITH (format = 'PARQUET', partitioning = ARRAY['n_regionkey']) AS SELECT * FROM tpch.nation";
    expect(analyzeSql(sql, orgOptions('trino')).target?.mode).toBe('create');
  });

  it('refuses DDL other than CTAS', () => {
    expect(refusedWith('CREATE TABLE scratch.x (a) AS SELECT 1')).toBe('SQL not allowed: CREATE TABLE with a column list');
    expect(refusedWith('CREATE VIEW scratch.v AS SELECT 1')).toBe('SQL not allowed: CREATE VIEW');
    expect(refusedWith('CREATE MATERIALIZED VIEW scratch.v AS SELECT 1', 'trino')).toBe('SQL not allowed: CREATE MATERIALIZED VIEW');
  });
});

describe('analyzeSql: statements, comments and quotes', () => {
  it('accepts one statement with trailing semicolons', () => {
    expect(analyzeSql('SELECT * FROM tpch.nation;', orgOptions('duckdb')).inputTables).toEqual([qn('tpch', 'nation')]);
    expect(analyzeSql('SELECT 1;;  ;', orgOptions('duckdb')).kind).toBe('read');
  });

  it('reads semicolons and comment markers inside strings and quoted identifiers as text', () => {
    expect(analyzeSql("SELECT '/* x */ ; DROP TABLE t -- ' AS s, \"a;b\" FROM tpch.nation", orgOptions('duckdb')).inputTables).toEqual([qn('tpch', 'nation')]);
    expect(analyzeSql("SELECT 'read_csv(''/etc/passwd'')' AS s", orgOptions('duckdb')).inputTables).toEqual([]);
  });

  it('ignores comments anywhere, including Spark hints', () => {
    expect(tablesOf('/* a */ SELECT /* b */ * -- c\n FROM /* d */ tpch.nation -- e')).toEqual(['lakeline.tpch.nation']);
    expect(tablesOf('SELECT /*+ BROADCAST(n) */ * FROM tpch.nation n', 'spark')).toEqual(['lakeline.tpch.nation']);
  });

  it('refuses a second statement however it is separated', () => {
    for (const sql of ['SELECT 1; SELECT 2', 'SELECT 1;\n-- x\nSELECT 2', 'SELECT 1 /* ; */; SELECT 2', "SELECT ';'; SELECT 2"]) {
      expect(refusedWith(sql)).toBe('SQL not allowed: multiple statements');
    }
  });

  it.each(ALL)('%s: keywords and unquoted names are case-insensitive', (dialect) => {
    expect(tablesOf('sElEcT * fRoM TPCH.Nation', dialect)).toEqual(['lakeline.tpch.nation']);
  });

  it.each(['duckdb', 'polars', 'trino'] as SqlDialect[])('%s: double-quoted identifiers name tables (folded like the engines do)', (dialect) => {
    expect(tablesOf('SELECT "n_name" FROM "tpch"."nation"', dialect)).toEqual(['lakeline.tpch.nation']);
    expect(tablesOf('SELECT * FROM "TPCH"."NATION"', dialect)).toEqual(['lakeline.tpch.nation']);
  });

  it('spark: backticks quote identifiers and double quotes make strings', () => {
    expect(tablesOf('SELECT `n_name`, "not a column" FROM `tpch`.`nation`', 'spark')).toEqual(['lakeline.tpch.nation']);
  });

  it('a quoted name is resolved as written: spaces or dots inside it do not split it', () => {
    expect(refusedWith('SELECT * FROM "tpch.nation"')).toBe('SQL not allowed: table lakeline.tpch.tpch.nation is not in your catalog');
    expect(refusedWith('SELECT * FROM tpch."nation "')).toBe('SQL not allowed: table lakeline.tpch.nation  is not in your catalog');
  });

  it("duckdb: a single-quoted string in FROM is a file path, whatever it looks like", () => {
    expect(refusedWith("SELECT * FROM 'nation'")).toBe("SQL not allowed: file path 'nation' used as a table");
  });

  it('accepts Unicode letters in identifiers and any character inside strings', () => {
    expect(analyzeSql("SELECT n_name AS café, 'naïve；\u200b' AS s FROM tpch.nation", orgOptions('duckdb')).inputTables).toEqual([qn('tpch', 'nation')]);
  });

  it('refuses lookalike letters in table names: they name another table', () => {
    // Cyrillic "а" in "nаtion".
    expect(refusedWith('SELECT * FROM tpch.n\u0430tion')).toBe('SQL not allowed: table lakeline.tpch.n\u0430tion is not in your catalog');
  });

  it('folds only ASCII letters: the Kelvin sign does not become k', () => {
    // Prepare: a resolver that would accept the name if the firewall folded it with full Unicode rules.
    const resolveTable = vi.fn(resolveOrgTable);

    // Act
    const message = (() => {
      try {
        analyzeSql('SELECT * FROM scratch.\u212A', orgOptions('duckdb', { resolveTable }));
        return 'allowed';
      } catch (error) {
        return (error as Error).message;
      }
    })();

    // Assess
    expect(resolveTable).toHaveBeenCalledWith({ catalog: 'lakeline', namespace: 'scratch', table: '\u212A' });
    expect(message).toBe('SQL not allowed: table lakeline.scratch.\u212A is not in your catalog');
  });
});

describe('analyzeSql: dialect specifics', () => {
  it('duckdb: row generators are allowed in FROM, other table functions are not', () => {
    expect(analyzeSql('SELECT * FROM range(10) r(x), generate_series(1, 3), unnest([1, 2])', orgOptions('duckdb')).inputTables).toEqual([]);
    expect(refusedWith('SELECT * FROM histogram(tpch.nation, n_regionkey)')).toBe('SQL not allowed: table function histogram');
  });

  it('duckdb: time travel, samples, PIVOT, ASOF and POSITIONAL joins read their tables', () => {
    expect(tablesOf('SELECT * FROM tpch.nation AT (VERSION => 1)')).toEqual(['lakeline.tpch.nation']);
    expect(tablesOf('SELECT * FROM tpch.nation USING SAMPLE 10 PERCENT (bernoulli)')).toEqual(['lakeline.tpch.nation']);
    expect(tablesOf('SELECT * FROM tpch.nation PIVOT (count(*) FOR n_regionkey IN (0, 1))')).toEqual(['lakeline.tpch.nation']);
    expect(tablesOf('SELECT * FROM tpch.nation ASOF JOIN tpch.region ON n_regionkey >= r_regionkey')).toEqual(['lakeline.tpch.nation', 'lakeline.tpch.region']);
    expect(tablesOf('SELECT * FROM tpch.nation POSITIONAL JOIN tpch.region')).toEqual(['lakeline.tpch.nation', 'lakeline.tpch.region']);
  });

  it('duckdb: E strings and dollar quotes are strings', () => {
    expect(analyzeSql("SELECT E'\\'; DROP TABLE t' AS a, $$ ; DROP TABLE t $$ AS b", orgOptions('duckdb')).kind).toBe('read');
  });

  it('duckdb: refuses what its parser cannot read (fail-closed), naming the parser error', () => {
    // TABLESAMPLE without parentheses is DuckDB syntax the parser does not know.
    const error = (() => {
      try {
        analyzeSql('SELECT * FROM tpch.nation TABLESAMPLE 10%', orgOptions('duckdb'));
      } catch (e) {
        return e as ForbiddenSqlError;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ForbiddenSqlError);
    expect(error?.message).toMatch(/^SQL not allowed: statement the duckdb parser cannot read \(Parse error at line 1/);
    expect(error?.details).toMatch(/^Parse error/);
  });

  it('spark: higher-order transform() is a function, TRANSFORM ... USING is a script', () => {
    expect(analyzeSql('SELECT transform(array(1, 2), x -> x + 1) AS a', orgOptions('spark')).kind).toBe('read');
    expect(refusedWith("SELECT TRANSFORM(n_name) USING 'cat' AS (x) FROM tpch.nation", 'spark')).toBe('SQL not allowed: TRANSFORM ... USING');
  });

  it('spark: LATERAL VIEW accepts generators only', () => {
    expect(tablesOf('SELECT * FROM tpch.nation LATERAL VIEW OUTER posexplode(array(1, 2)) t AS p, x', 'spark')).toEqual(['lakeline.tpch.nation']);
    expect(refusedWith('SELECT * FROM tpch.nation LATERAL VIEW my_udtf(n_name) t AS x', 'spark')).toBe('SQL not allowed: table function my_udtf');
  });

  it('spark: backslash escapes and raw strings are read as Spark reads them', () => {
    expect(analyzeSql("SELECT 'it\\'s; DROP TABLE t' AS a, r'C:\\temp' AS b", orgOptions('spark')).kind).toBe('read');
  });

  it('spark: ${...} is refused even inside a string or comment (Spark substitutes it before parsing)', () => {
    expect(refusedWith("SELECT 'price in ${currency}' AS s", 'spark')).toBe('SQL not allowed: variable substitution ${...}');
    expect(analyzeSql("SELECT 'price in ${currency}' AS s", orgOptions('duckdb')).kind).toBe('read');
  });

  it('spark: time travel reads the table', () => {
    expect(tablesOf('SELECT * FROM tpch.nation VERSION AS OF 123', 'spark')).toEqual(['lakeline.tpch.nation']);
  });

  it('trino: UNNEST, lambdas and time travel are allowed; TABLE(...) functions are not', () => {
    expect(tablesOf('SELECT * FROM tpch.nation CROSS JOIN UNNEST(ARRAY[1, 2]) WITH ORDINALITY AS u(x, i)', 'trino')).toEqual(['lakeline.tpch.nation']);
    expect(analyzeSql('SELECT transform(ARRAY[1, 2], x -> x + 1)', orgOptions('trino')).kind).toBe('read');
    expect(tablesOf('SELECT * FROM tpch.nation FOR VERSION AS OF 1', 'trino')).toEqual(['lakeline.tpch.nation']);
    expect(refusedWith('SELECT * FROM TABLE(sequence(start => 1, stop => 3))', 'trino')).toBe('SQL not allowed: table function sequence');
  });

  it('trino: MATCH_RECOGNIZE reads its source table', () => {
    expect(tablesOf('SELECT * FROM tpch.nation MATCH_RECOGNIZE (ORDER BY n_name PATTERN (A) DEFINE A AS true)', 'trino')).toEqual(['lakeline.tpch.nation']);
  });

  it('polars: reads registered tables; refuses readers and writes', () => {
    expect(tablesOf('SELECT * EXCLUDE (n_comment) FROM nation', 'polars')).toEqual(['lakeline.tpch.nation']);
    expect(refusedWith("SELECT * FROM read_ndjson('/etc/x')", 'polars')).toBe('SQL not allowed: table function read_ndjson');
    expect(refusedWith('INSERT INTO scratch.t SELECT 1', 'polars')).toBe('SQL not allowed: INSERT in polars SQL (use a destination)');
  });
});

describe('analyzeSql: normalized text', () => {
  it('drops comments, collapses whitespace, lower-cases outside quotes and drops the trailing semicolon', () => {
    expect(analyzeSql("SELECT  N_Name,\n\t'MiXed' AS \"Alias\" -- c\nFROM /* x */ TPCH.Nation;", orgOptions('duckdb')).normalizedSql).toBe(
      "select n_name , 'MiXed' as \"Alias\" from tpch . nation",
    );
  });

  it('separates every token so spacing around operators does not matter', () => {
    const a = analyzeSql('SELECT n_nationkey+1 FROM tpch.nation WHERE n_nationkey>=1', orgOptions('duckdb')).normalizedSql;
    const b = analyzeSql('select n_nationkey + 1 from tpch.nation where n_nationkey >= 1', orgOptions('duckdb')).normalizedSql;
    expect(a).toBe(b);
  });

  it('keeps different literals and quoted names apart', () => {
    const a = analyzeSql("SELECT * FROM tpch.nation WHERE n_name = 'FRANCE'", orgOptions('duckdb')).normalizedSql;
    const b = analyzeSql("SELECT * FROM tpch.nation WHERE n_name = 'france'", orgOptions('duckdb')).normalizedSql;
    expect(a).not.toBe(b);
  });
});

describe('analyzeSql: input errors', () => {
  it('answers empty SQL, comment-only SQL and oversized SQL with a plain validation error (400), not a refusal', () => {
    for (const sql of ['', '   ', '-- only a comment', '/* x */ ;']) {
      const act = () => analyzeSql(sql, orgOptions('duckdb'));
      expect(act).toThrow(ValidationError);
      expect(act).not.toThrow(ForbiddenSqlError);
    }
    expect(() => analyzeSql(`SELECT ${'1 + '.repeat(MAX_SQL_LENGTH / 4)}1`, orgOptions('duckdb'))).toThrow(/^SQL is too long: 262,152 characters, more than the 262,144 a statement may hold$/);
  });


  it.each(SQL_DIALECTS)('refuses a 256 KiB OR chain in %s by its operators, before the parser', (dialect) => {
    // Prepare: as many terms as fit under the length limit (about 25,000)
    let sql = 'SELECT * FROM tpch.orders WHERE o_orderkey = 0';
    for (let i = 1; sql.length + ` OR o_orderkey = ${i}`.length <= MAX_SQL_LENGTH; i++) sql += ` OR o_orderkey = ${i}`;
    // Act
    const act = () => analyzeSql(sql, orgOptions(dialect));
    // Assess
    expect(act).toThrow(ValidationError);
    expect(act).toThrow(/^SQL is too complex: [\d,]+ operators \(AND, OR, comparisons, arithmetic\), more than the 2,000 a statement may hold; write long lists of alternatives as x IN \(…\)$/);
  });

  it('refuses a statement of more than 50,000 tokens, naming the limit', () => {
    // Prepare: a 30,000-value IN list (60,000 tokens, 200 KB)
    const sql = `SELECT * FROM tpch.orders WHERE o_orderkey IN (${Array.from({ length: 30_000 }, (_, i) => i).join(',')})`;
    // Act & Assess
    expect(() => analyzeSql(sql, orgOptions('duckdb'))).toThrow(/^SQL is too complex: 60,0\d\d tokens, more than the 50,000 a statement may hold$/);
  });

  it(`accepts ${MAX_SQL_OPERATORS.toLocaleString('en-US')} operators and a 10,000-value IN list`, () => {
    // Prepare: one operator per term (the OR), one per comparison
    const chain = `SELECT * FROM tpch.orders WHERE ${Array.from({ length: MAX_SQL_OPERATORS / 2 }, (_, i) => `o_orderkey = ${i}`).join(' OR ')}`;
    const list = `SELECT * FROM tpch.orders WHERE o_orderkey IN (${Array.from({ length: 10_000 }, (_, i) => i).join(', ')})`;
    // Act & Assess: 1,000 comparisons and 999 ORs
    expect(analyzeSql(chain, orgOptions('duckdb')).statementType).toBe('SELECT');
    expect(analyzeSql(list, orgOptions('duckdb')).statementType).toBe('SELECT');
  });

  it('refuses an operator chain one past the limit, counting <= and || once', () => {
    // Prepare: 1,000 comparisons with <=, joined by ORs, then || and one more comparison
    const sql = `SELECT * FROM tpch.orders WHERE ${Array.from({ length: 1_000 }, (_, i) => `o_orderkey <= ${i}`).join(' OR ')} OR o_comment || 'x' = 'y'`;
    // Act & Assess: SELECT's * + 1,000 <= + 1,000 OR + || + = is 2,003
    expect(() => analyzeSql(sql, orgOptions('duckdb'))).toThrow(/^SQL is too complex: 2,003 operators/);
  });

  it('refuses an unknown dialect', () => {
    expect(() => analyzeSql('SELECT 1', orgOptions('mysql' as SqlDialect))).toThrow('dialect: must be one of duckdb, polars, spark, trino');
  });

  it('refuses a statement nested too deeply instead of crashing', () => {
    const sql = `SELECT ${'('.repeat(20_000)}1${')'.repeat(20_000)}`;
    expect(() => analyzeSql(sql, orgOptions('duckdb'))).toThrow(ForbiddenSqlError);
  });

  it('ForbiddenSqlError is a ValidationError named ForbiddenSqlError with the construct alone', () => {
    const error = new ForbiddenSqlError('SET');
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.name).toBe('ForbiddenSqlError');
    expect(error.message).toBe('SQL not allowed: SET');
    expect(error.construct).toBe('SET');
  });
});
