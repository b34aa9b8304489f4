/**
 * @module routing/request
 * Checks a routed query request beyond its JSON shape (the handler's zod schema): exactly one of
 * `query` and `script`, `tables` only with a script, and a destination in the caller's own lake
 * outside the namespaces lakeline reserves. Every refusal is a 400 naming the field.
 */
import { ValidationError } from '../errors.ts';
import { checkIdentifier, parseTableName, refuseLineageWrite, RESERVED_NAMESPACES, type TableName } from '../core/names.ts';
import type { RequestedEngine } from './decide.ts';

/** A script table registration: `alias=namespace.table` or `{alias, table}`. */
export type ScriptTableRef = string | { readonly alias: string; readonly table: string };

/** The request as the schema parsed it (contract field names). */
export interface RoutedQueryBody {
  readonly query?: string | undefined;
  readonly script?: string | undefined;
  readonly tables: readonly ScriptTableRef[];
  readonly engine: RequestedEngine;
  readonly destination?: string | undefined;
  readonly write_mode: 'overwrite' | 'append';
  readonly explain: boolean;
}

/** A table a script reads, under the alias the script uses. */
export interface ScriptTable {
  readonly alias: string;
  readonly table: TableName;
}

/** A checked request. */
export interface CheckedRoutedRequest {
  readonly source: { readonly kind: 'query'; readonly sql: string } | { readonly kind: 'script'; readonly script: string; readonly tables: readonly ScriptTable[] };
  readonly engine: RequestedEngine;
  readonly destination?: TableName;
  readonly writeMode: 'overwrite' | 'append';
  readonly explain: boolean;
}

/** Throws 403 for the read-only lineage namespace, 400 for another namespace lakeline reserves. */
export const refuseReserved = (field: string, name: TableName): void => {
  refuseLineageWrite(field, name);
  if (RESERVED_NAMESPACES.includes(name.namespace.toLowerCase())) {
    throw new ValidationError(`${field}: the namespace ${name.namespace} is reserved for lakeline's own tables; write to another namespace`);
  }
};

const scriptTable = (ref: ScriptTableRef, index: number): ScriptTable => {
  const field = `tables.${index}`;
  const [alias, table] = typeof ref === 'string' ? (ref.split('=', 2) as [string, string | undefined]) : [ref.alias, ref.table];
  if (table === undefined) throw new ValidationError(`${field}: must be alias=namespace.table`);
  return { alias: checkIdentifier(`${field}.alias`, alias), table: parseTableName(`${field}.table`, table) };
};

/**
 * Checks a routed request.
 * @throws {ValidationError} (400) naming the field
 */
export const checkRoutedRequest = (body: RoutedQueryBody): CheckedRoutedRequest => {
  const hasQuery = body.query !== undefined;
  const hasScript = body.script !== undefined;
  if (hasQuery && hasScript) throw new ValidationError('query and script are mutually exclusive: send exactly one of them');
  if (!hasQuery && !hasScript) throw new ValidationError('one of query or script is required');
  if (!hasScript && body.tables.length > 0) throw new ValidationError('tables: applies only to a script (script mode); a query names its tables in its SQL');
  let destination: TableName | undefined;
  if (body.destination !== undefined) {
    const parsed = parseTableName('destination', body.destination);
    // Spark and Glue fold names to lower case; the output table is named as they will store it.
    destination = { namespace: parsed.namespace.toLowerCase(), table: parsed.table.toLowerCase() };
    refuseReserved('destination', destination);
  }
  const seen = new Set<string>();
  const tables = body.tables.map((ref, i) => {
    const t = scriptTable(ref, i);
    if (seen.has(t.alias)) throw new ValidationError(`tables.${i}.alias: ${t.alias} is registered twice`);
    seen.add(t.alias);
    return t;
  });
  return {
    source: hasScript ? { kind: 'script', script: body.script as string, tables } : { kind: 'query', sql: body.query as string },
    engine: body.engine,
    ...(destination ? { destination } : {}),
    writeMode: body.write_mode,
    explain: body.explain,
  };
};
