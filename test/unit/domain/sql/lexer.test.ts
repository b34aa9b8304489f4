// The firewall's own lexer: statements, strings, quoted identifiers and comments by each engine's
// rules, the names written as calls, and the refusals for lexically ambiguous text.
import { describe, expect, it } from 'vitest';
import { ForbiddenSqlError } from '#domain/sql/errors';
import type { SqlDialect } from '#domain/sql/types';
import { calledNames, lexSql, normalizeTokens } from '#domain/sql/lexer';

function kinds(sql: string, dialect: SqlDialect): string[] {
  return (lexSql(sql, dialect).statements[0] ?? []).map((t) => `${t.kind}:${t.text}`);
}

function statementCount(sql: string, dialect: SqlDialect): number {
  return lexSql(sql, dialect).statements.length;
}

describe('lexSql', () => {
  it('splits statements at semicolons outside strings, identifiers and comments', () => {
    expect(statementCount("SELECT ';' AS a, \"b;c\" -- ;\n/* ; */ FROM t", 'duckdb')).toBe(1);
    expect(statementCount('SELECT 1; SELECT 2', 'duckdb')).toBe(2);
    expect(statementCount('SELECT 1;;', 'duckdb')).toBe(1);
    expect(statementCount('-- nothing\n;', 'duckdb')).toBe(0);
  });

  it.each(['duckdb', 'polars', 'trino'] as SqlDialect[])('%s: a backslash does not escape a quote in a plain string', (dialect) => {
    expect(kinds("SELECT 'a\\', b", dialect)).toEqual(['word:SELECT', "string:'a\\'", 'punct:,', 'word:b']);
  });

  it('spark: a backslash escapes a quote, in single- and double-quoted strings', () => {
    expect(kinds("SELECT 'a\\', b'", 'spark')).toEqual(['word:SELECT', "string:'a\\', b'"]);
    expect(kinds('SELECT "a\\", b"', 'spark')).toEqual(['word:SELECT', 'string:"a\\", b"']);
  });

  it('spark: raw strings end at the first quote', () => {
    expect(kinds("SELECT r'a\\', b", 'spark')).toEqual(['word:SELECT', "string:r'a\\'", 'punct:,', 'word:b']);
  });

  it('duckdb and polars: E strings escape with backslashes', () => {
    expect(kinds("SELECT E'a\\', b'", 'duckdb')).toEqual(['word:SELECT', "string:E'a\\', b'"]);
    expect(kinds("SELECT e'a\\', b'", 'polars')).toEqual(['word:SELECT', "string:e'a\\', b'"]);
  });

  it('trino: E is a word before a plain string', () => {
    expect(kinds("SELECT E'a\\', b", 'trino')).toEqual(['word:SELECT', 'word:E', "string:'a\\'", 'punct:,', 'word:b']);
  });

  it('duckdb: dollar-quoted strings, tagged or not, and $n parameters', () => {
    expect(kinds('SELECT $$a;b$$, $t$ $$ ; $t$, $1', 'duckdb')).toEqual(['word:SELECT', 'string:$$a;b$$', 'punct:,', 'string:$t$ $$ ; $t$', 'punct:,', 'param:$1']);
  });

  it('doubled quotes stay inside strings and identifiers', () => {
    expect(kinds(`SELECT 'it''s', "a""b"`, 'duckdb')).toEqual(['word:SELECT', "string:'it''s'", 'punct:,', 'quoted:"a""b"']);
  });

  it('quoted identifiers: double quotes (not in Spark), backticks (Spark, polars)', () => {
    expect(kinds('SELECT "x"', 'trino')).toEqual(['word:SELECT', 'quoted:"x"']);
    expect(kinds('SELECT "x"', 'spark')).toEqual(['word:SELECT', 'string:"x"']);
    expect(kinds('SELECT `x`', 'spark')).toEqual(['word:SELECT', 'quoted:`x`']);
    expect(kinds('SELECT `x`', 'polars')).toEqual(['word:SELECT', 'quoted:`x`']);
    expect(kinds('SELECT `x`', 'duckdb')).toEqual(['word:SELECT', 'punct:`', 'word:x', 'punct:`']);
  });

  it('keeps Unicode letters in words and reads numbers whole', () => {
    expect(kinds('SELECT café, 1.5e-3, .5, 10L', 'spark')).toEqual(['word:SELECT', 'word:café', 'punct:,', 'number:1.5e-3', 'punct:,', 'number:.5', 'punct:,', 'number:10L']);
  });

  it.each([
    ["SELECT 'abc", 'unterminated string literal'],
    ['SELECT "abc', 'unterminated quoted identifier'],
    ['SELECT 1 /* abc', 'unterminated block comment'],
    ['SELECT 1 /* a /* b */ */', 'nested block comment'],
    ['SELECT $$abc', 'unterminated dollar-quoted string'],
    ['SELECT 1\u0000', 'NUL character in the statement'],
    ['SELECT\u3000 1', 'character U+3000 outside quotes'],
    ['SELECT 1 \u{1D41A}', 'character U+1D41A outside quotes'],
  ])('refuses %j: %s', (sql, construct) => {
    expect(() => lexSql(sql, 'duckdb')).toThrow(new ForbiddenSqlError(construct));
  });

  it('spark: refuses ${ anywhere, other dialects read it as text', () => {
    expect(() => lexSql("SELECT '${x}'", 'spark')).toThrow('SQL not allowed: variable substitution ${...}');
    expect(() => lexSql("SELECT '${x}'", 'trino')).not.toThrow();
  });
});

describe('calledNames', () => {
  it('lists words and quoted identifiers followed by a parenthesis, qualified with dots, ASCII-lower-cased', () => {
    const tokens = lexSql('SELECT "GetEnv" (1), x.Read_CSV /* c */ (2), sum(a), count (*) FROM t', 'duckdb').statements[0] ?? [];
    expect(calledNames(tokens)).toEqual(['getenv', 'x.read_csv', 'sum', 'count']);
  });
});

describe('normalizeTokens', () => {
  it('joins tokens with single spaces, lower-cases words only', () => {
    const tokens = lexSql("SELECT  A,'B' ,\"C\"  FROM\tT", 'duckdb').statements[0] ?? [];
    expect(normalizeTokens(tokens)).toBe("select a , 'B' , \"C\" from t");
  });
});
