/**
 * @module routing/own-target
 * A statement that names its own target (CTAS, INSERT INTO, INSERT OVERWRITE, CREATE OR REPLACE
 * TABLE AS) runs on Spark, whose job runs a query into an output table with a mode. This module
 * splits such a statement into that query and maps the statement's own semantics onto the mode:
 * INSERT INTO appends, INSERT OVERWRITE and CREATE OR REPLACE replace, CREATE TABLE AS creates
 * (the table must not exist). It works on the firewall's tokens of a statement the firewall has
 * already accepted; the query it returns goes through the firewall again (Spark dialect) before it
 * runs. Clauses whose meaning the job could not keep (column lists, PARTITION, table options) are
 * refused with a 400 rather than silently dropped.
 */
import { ValidationError } from '../errors.ts';
import { lexSql, type Token } from '../sql/lexer.ts';
import type { SqlDialect, StatementType } from '../sql/types.ts';

/** The query of an own-target statement and how it writes. */
export interface OwnTargetQuery {
  /** The statement's query (`SELECT …`, `WITH …`, `VALUES …`), as written. */
  readonly sql: string;
  readonly mode: 'overwrite' | 'append' | 'create';
}

const MODES: Readonly<Record<Exclude<StatementType, 'SELECT'>, OwnTargetQuery['mode']>> = {
  CREATE_TABLE_AS: 'create',
  CREATE_OR_REPLACE_TABLE_AS: 'overwrite',
  INSERT: 'append',
  INSERT_OVERWRITE: 'overwrite',
};

const QUERY_STARTS: ReadonlySet<string> = new Set(['select', 'with', 'values', 'from', 'table']);

const isWord = (t: Token | undefined, ...values: string[]): boolean => t?.kind === 'word' && values.includes(t.value);

/** Index after a dotted name (`a`, `a.b`, `"a"."b".c`) starting at `i`. */
const skipName = (tokens: readonly Token[], i: number): number => {
  let k = i;
  if (tokens[k]?.kind !== 'word' && tokens[k]?.kind !== 'quoted') throw new ValidationError('query: the target table name could not be read');
  k++;
  while (tokens[k]?.text === '.' && (tokens[k + 1]?.kind === 'word' || tokens[k + 1]?.kind === 'quoted')) k += 2;
  return k;
};

/** The statement text from token `i` to the end, without trailing semicolons. */
const rest = (sql: string, tokens: readonly Token[], i: number): string => {
  const start = tokens[i]?.start;
  if (start === undefined) throw new ValidationError('query: the statement has no query after its target');
  return sql.slice(start).trim().replace(/;+\s*$/, '').trim();
};

/**
 * Splits an own-target statement into its query and write mode.
 * @throws {ValidationError} (400) for clauses the Spark job cannot keep (column lists, PARTITION,
 *   table options, BY NAME)
 */
export function ownTargetQuery(sql: string, dialect: SqlDialect, statementType: Exclude<StatementType, 'SELECT'>): OwnTargetQuery {
  const tokens = lexSql(sql, dialect).statements[0] ?? [];
  let i = 0;
  if (statementType === 'CREATE_TABLE_AS' || statementType === 'CREATE_OR_REPLACE_TABLE_AS') {
    while (i < tokens.length && !isWord(tokens[i], 'table')) i++;
    i++;
    if (isWord(tokens[i], 'if')) i += 3; // IF NOT EXISTS
    i = skipName(tokens, i);
    // Spark's `USING iceberg` is what the table is anyway; any other option would be dropped.
    if (isWord(tokens[i], 'using') && tokens[i + 1]?.value.toLowerCase() === 'iceberg') i += 2;
    if (!isWord(tokens[i], 'as')) {
      throw new ValidationError(
        `query: CREATE TABLE … AS takes no column definitions or table options on this endpoint (found ${tokens[i]?.text ?? 'nothing'} before AS); the table's columns come from the query`,
      );
    }
    return { sql: rest(sql, tokens, i + 1), mode: MODES[statementType] };
  }
  // INSERT INTO [TABLE] name <query> | INSERT OVERWRITE [TABLE] name <query>
  i = 1;
  if (isWord(tokens[i], 'into', 'overwrite')) i++;
  if (isWord(tokens[i], 'table')) i++;
  i = skipName(tokens, i);
  if (tokens[i]?.text === '(' && !isWord(tokens[i + 1], 'select', 'with', 'values')) {
    throw new ValidationError('query: INSERT with a column list is not supported on this endpoint; select the columns in the table\'s order without a list');
  }
  if (!(QUERY_STARTS.has(tokens[i]?.value ?? '') || tokens[i]?.text === '(')) {
    throw new ValidationError(`query: INSERT … ${(tokens[i]?.text ?? '').toUpperCase()} is not supported on this endpoint; use INSERT INTO <table> SELECT …`);
  }
  return { sql: rest(sql, tokens, i), mode: MODES[statementType] };
}
