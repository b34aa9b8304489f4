/**
 * @module bloom/qualify
 * Org isolation of bloom, the second half after the SQL firewall: user SQL names tables as
 * `lakeline.<namespace>.<table>` or `<namespace>.<table>`, while the engine holds every org's
 * catalog (local Trino: one catalog `org_<id>` per org; Athena: Glue databases
 * `org_<id>__<namespace>`). After the firewall (Trino mode) has accepted the statement and
 * resolved its tables against the caller's catalog, every reference to one of those tables is
 * rewritten to the engine's fully qualified name of the caller's table. The engine runs without a
 * session catalog, so a reference that was not rewritten cannot resolve anywhere.
 */
import { ValidationError } from '../errors.ts';
import { DEFAULT_CATALOG, type TableName } from '../core/names.ts';
import { asciiLower, lexSql, type Token } from '../sql/lexer.ts';

/** The engine's name of one of the org's tables (already quoted as the engine needs it). */
export type EngineTableName = (table: TableName) => string;

/** A Trino identifier in double quotes (a `"` inside is doubled). */
export const quoteTrino = (name: string): string => `"${name.replaceAll('"', '""')}"`;

const isName = (t: Token | undefined): t is Token => t !== undefined && (t.kind === 'word' || t.kind === 'quoted');
const isDot = (t: Token | undefined): boolean => t?.kind === 'punct' && t.text === '.';
const fold = (t: Token): string => (t.kind === 'word' ? t.value : asciiLower(t.value));

/**
 * Rewrites the table references of one firewalled statement to the engine's names.
 *
 * A reference is a dotted chain of names not preceded by a dot: `lakeline.ns.t…` (3 leading parts)
 * or `ns.t…` (2 leading parts) where `ns.t` is one of `tables`. Longer chains are column references
 * qualified with the table (`ns.t.col`), rewritten the same way so they keep matching the FROM
 * clause. The statement's trailing `;` and comments are dropped, so it can be embedded in
 * `CREATE TABLE … AS`.
 *
 * @throws {ValidationError} when the text holds more than one statement
 */
export function qualifyTables(sql: string, tables: readonly TableName[], engineName: EngineTableName): string {
  const { statements } = lexSql(sql, 'trino');
  if (statements.length !== 1) throw new ValidationError('query: bloom runs exactly one statement');
  const tokens = statements[0] as Token[];
  const wanted = new Map(tables.map((t) => [`${asciiLower(t.namespace)}.${asciiLower(t.table)}`, t]));
  let out = '';
  let copied = tokens[0]?.start ?? 0;
  for (let i = 0; i < tokens.length; i++) {
    const first = tokens[i];
    if (!isName(first) || isDot(tokens[i - 1])) continue;
    // The chain's leading parts: name (. name)*
    const parts: Token[] = [first];
    for (let j = i + 1; isDot(tokens[j]) && isName(tokens[j + 1]); j += 2) parts.push(tokens[j + 1] as Token);
    // A qualified function (`cat.schema.fn(…)`) could reach a catalog's routines — another org's
    // catalog is one of the engine's catalogs — so only the engine's built-ins, unqualified, run.
    const after = tokens[tokens.indexOf(parts[parts.length - 1] as Token) + 1];
    if (parts.length > 1 && after?.kind === 'punct' && after.text === '(') {
      throw new ValidationError(`query: qualified function ${parts.map(fold).join('.')} is not allowed on bloom; call functions by their plain name`);
    }
    const catalogLed = parts.length >= 3 && fold(parts[0] as Token) === DEFAULT_CATALOG;
    const [ns, table] = catalogLed ? [parts[1], parts[2]] : [parts[0], parts[1]];
    if (!ns || !table) continue;
    const match = wanted.get(`${fold(ns)}.${fold(table)}`);
    if (!match) continue;
    out += sql.slice(copied, first.start) + engineName(match);
    copied = table.start + table.text.length;
    i = tokens.indexOf(table);
  }
  const last = tokens[tokens.length - 1];
  return out + sql.slice(copied, last ? last.start + last.text.length : copied);
}

/**
 * Column names for a results table, from the names the engine gave the query's columns: Trino and
 * Athena name an unnamed expression `_colN`, and a table cannot have two columns of one name (they
 * compare case-insensitively), so a repeated name gets `_2`, `_3`, ….
 */
export function resultColumnNames(names: readonly string[]): string[] {
  const seen = new Set<string>();
  return names.map((raw, i) => {
    const base = raw.trim() === '' ? `_col${i}` : raw;
    let name = base;
    for (let n = 2; seen.has(asciiLower(name)); n++) name = `${base}_${n}`;
    seen.add(asciiLower(name));
    return name;
  });
}

/**
 * The `CREATE TABLE … AS` of a run's results: the query as a subquery whose columns are renamed to
 * `columns` (every column named, none twice — both engines refuse a table otherwise). The query
 * stands on its own lines, so a trailing line comment cannot swallow the closing parenthesis.
 */
export const resultsTableAs = (table: string, select: string, columns: readonly string[], withClause = ''): string =>
  `CREATE TABLE ${table}${withClause ? `\n${withClause}` : ''} AS\nSELECT * FROM (\n${select}\n) AS lakeline_rows (${resultColumnNames(columns).map(quoteTrino).join(', ')})\n`;
