/**
 * @module core/names
 * Lake naming: user SQL addresses tables as `lakeline.<namespace>.<table>` (or `<namespace>.<table>`);
 * behind that, each org's tables live in its own catalog (`org_<id>`), a name users never see, so
 * outside engines reach the same tables under stable names and no org id leaks into user SQL.
 */
import { ForbiddenError, ValidationError } from '../errors.ts';

/**
 * Namespaces lakeline writes itself: autosaved legacy results, and the per-run results tables of
 * batch reads. A caller's destination or CTAS target there is refused, so no query overwrites them.
 */
export const RESULTS_NAMESPACE = 'lakeline_results';
export const RESERVED_NAMESPACES: readonly string[] = ['autosave', RESULTS_NAMESPACE];

/** The namespace of the lineage lake tables (`run_events`, `runs`; ADR 0056): read by every engine, written only by their export. */
export const LINEAGE_NAMESPACE = 'lineage';

/**
 * Throws 403 when a write names the lineage namespace: its tables are the org's lineage as
 * lakeline stored it, so no caller may change them (every write path calls this).
 */
export const refuseLineageWrite = (field: string, name: TableName): void => {
  if (name.namespace.toLowerCase() === LINEAGE_NAMESPACE) {
    throw new ForbiddenError(`${field}: the namespace ${LINEAGE_NAMESPACE} holds lakeline's lineage tables, which are read-only; write to another namespace`);
  }
};

/** The catalog name every org uses in SQL for its own lake. */
export const DEFAULT_CATALOG = 'lakeline';

const IDENT = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const ORG_ID = /^[A-Za-z0-9-]{1,64}$/;

/** The internal catalog name of an org (the same rule as the Python lake writer's). */
export const catalogNameForOrg = (orgId: string): string => {
  if (!ORG_ID.test(orgId)) throw new Error(`invalid organization id ${orgId}`);
  return `org_${orgId.replaceAll('-', '').toLowerCase()}`;
};

/** Checks a namespace or table name; they end up in paths, so only plain identifiers pass. */
export const checkIdentifier = (field: string, value: string): string => {
  if (!IDENT.test(value)) throw new ValidationError(`${field}: '${value}' must be letters, digits and underscores, starting with a letter or underscore`);
  return value;
};

/** A table of the caller's lake. */
export interface TableName {
  readonly namespace: string;
  readonly table: string;
}

/** `lakeline.ns.t` for display and lineage. */
export const qualifiedName = (t: TableName): string => `${DEFAULT_CATALOG}.${t.namespace}.${t.table}`;

/** Parses `namespace.table` or `lakeline.namespace.table`; another catalog name is refused. */
export const parseTableName = (field: string, text: string): TableName => {
  const parts = text.split('.');
  if (parts.length === 3 && parts[0]?.toLowerCase() !== DEFAULT_CATALOG) {
    throw new ValidationError(`${field}: catalog '${parts[0]}' is not available; use ${DEFAULT_CATALOG}.<namespace>.<table> or <namespace>.<table>`);
  }
  const [namespace, table] = parts.length === 3 ? parts.slice(1) : parts;
  if (parts.length < 2 || parts.length > 3 || namespace === undefined || table === undefined) {
    throw new ValidationError(`${field}: must be namespace.table`);
  }
  return { namespace: checkIdentifier(field, namespace), table: checkIdentifier(field, table) };
};
