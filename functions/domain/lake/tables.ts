/**
 * @module tables
 * Use cases of the tables API: list an org's tables and describe one from its Iceberg metadata.
 */
import { NotFoundError } from '../errors.ts';
import type { Catalog, LakeStorage } from './ports.ts';
import { describeTable, type TableDescription } from './describe.ts';
import { checkIdentifier, DEFAULT_CATALOG, type TableName } from '../core/names.ts';

/**
 * A table in a listing. `namespace` and `table` are the describe route's path parameters
 * (`/api/v1/tables/{namespace}/{table}`), so a listed table is described by its own fields
 * (ADR 0038); `qualified_name` is the name SQL addresses it by.
 */
export interface TableSummary {
  readonly namespace: string;
  /** The table's name in its namespace (the same as `table`; kept for existing clients). */
  readonly name: string;
  /** The table's name in its namespace: the `{table}` of the describe route. */
  readonly table: string;
  /** Fully qualified, as SQL addresses it (`lakeline.autosave.q_…`). */
  readonly qualified_name: string;
}

/** Lists the caller's tables, optionally of one namespace. */
export const listTables = async (catalog: Catalog, orgId: string, namespace?: string): Promise<TableSummary[]> => {
  if (namespace !== undefined) checkIdentifier('namespace', namespace);
  const tables = await catalog.listTables(orgId, namespace);
  return tables.map((t) => ({ namespace: t.namespace, name: t.table, table: t.table, qualified_name: `${DEFAULT_CATALOG}.${t.namespace}.${t.table}` }));
};

/** Describes one of the caller's tables; 404 when the org has no such table. */
export const getTable = async (catalog: Catalog, storage: LakeStorage, orgId: string, name: TableName): Promise<TableDescription> => {
  checkIdentifier('namespace', name.namespace);
  checkIdentifier('table', name.table);
  const found = await catalog.loadTable(orgId, name);
  if (!found) throw new NotFoundError(`table ${name.namespace}.${name.table} does not exist`);
  return describeTable(name, await storage.readText(found.metadataLocation));
};
