/**
 * @module routing/table-aliases
 * Routed SQL names tables `namespace.table` or `lakeline.namespace.table`, but polars SQL resolves
 * only the plain names its context registered (`tpch.nation` reads as relation `tpch`). For a
 * routed query on polars, each reference to an input table — found with the firewall's own lexer,
 * after the firewall accepted the statement — is replaced by a plain alias the sandbox registers
 * the table under. Column references qualified with the table (`tpch.nation.n_name`) keep their
 * column part; string literals, comments and everything else are copied as written.
 */
import type { TableName } from '../core/names.ts';
import { DEFAULT_CATALOG } from '../core/names.ts';
import { asciiLower, lexSql, type Token } from '../sql/lexer.ts';
import type { SqlDialect } from '../sql/types.ts';

/** The plain alias of a table in a polars context: `<namespace>__<table>`. */
export const polarsAlias = (t: TableName): string => `${asciiLower(t.namespace)}__${asciiLower(t.table)}`;

const isName = (t: Token | undefined): t is Token => t !== undefined && (t.kind === 'word' || t.kind === 'quoted');
const isDot = (t: Token | undefined): boolean => t?.kind === 'punct' && t.text === '.';
const fold = (t: Token): string => (t.kind === 'word' ? t.value : asciiLower(t.value));

/** Rewrites every reference to one of `tables` in a single accepted statement to its alias. */
export function aliasTables(sql: string, dialect: SqlDialect, tables: readonly TableName[]): string {
  const tokens = lexSql(sql, dialect).statements[0] ?? [];
  const wanted = new Map(tables.map((t) => [`${asciiLower(t.namespace)}.${asciiLower(t.table)}`, t]));
  let out = '';
  let copied = 0;
  for (let i = 0; i < tokens.length; i++) {
    const first = tokens[i];
    if (!isName(first) || isDot(tokens[i - 1])) continue;
    const parts: Token[] = [first];
    for (let j = i + 1; isDot(tokens[j]) && isName(tokens[j + 1]); j += 2) parts.push(tokens[j + 1] as Token);
    const catalogLed = parts.length >= 3 && fold(parts[0] as Token) === DEFAULT_CATALOG;
    const [ns, table] = catalogLed ? [parts[1], parts[2]] : [parts[0], parts[1]];
    if (!ns || !table) continue;
    const match = wanted.get(`${fold(ns)}.${fold(table)}`);
    if (!match) continue;
    out += sql.slice(copied, first.start) + polarsAlias(match);
    copied = table.start + table.text.length;
    i = tokens.indexOf(table);
  }
  return out + sql.slice(copied);
}
