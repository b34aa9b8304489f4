/**
 * @module polars/script-tables
 * The one rule for which lake tables a polars script reads, shared by `POST /api/v1/warehouse/polars`
 * and the routed endpoint's scripts: the tables registered in `tables`, plus every table the script
 * scans by a literal name (`scan("namespace.table")`, `scan('lakeline.namespace.table')`), which
 * needs no registration.
 */
import { parseTableName, type TableName } from '../core/names.ts';

/** `scan("namespace.table")` with a literal name: the tables a script reads without registering them. */
const LITERAL_SCAN = /\bscan\s*\(\s*(?:r|R)?(['"])((?:[A-Za-z_][A-Za-z0-9_]*\.){1,2}[A-Za-z_][A-Za-z0-9_]*)\1\s*\)/g;

/** A table a script scans by its literal name, and that name as the script writes it. */
export interface LiteralScan {
  readonly text: string;
  readonly table: TableName;
}

/**
 * The tables a script scans by literal names, in order of first appearance, each once.
 * @throws {ValidationError} (400) for a literal naming another catalog or an invalid identifier
 */
export const literalScans = (script: string): LiteralScan[] => {
  const seen = new Set<string>();
  const scans: LiteralScan[] = [];
  for (const match of script.matchAll(LITERAL_SCAN)) {
    const text = match[2] as string;
    const table = parseTableName(`scan("${text}")`, text);
    const key = `${table.namespace}.${table.table}`;
    if (seen.has(key)) continue;
    seen.add(key);
    scans.push({ text, table });
  }
  return scans;
};
