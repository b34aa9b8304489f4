/**
 * @module lake/query-tables
 * From catalog to engine: resolves the table names of a statement against the caller's catalog
 * (for the SQL firewall) and loads what an engine and lineage need about each table it reads (the
 * current metadata file, the table's location, its schema).
 */
import type { CatalogTable, LakeStorage } from './ports.ts';
import { describeTable, type TableDescription } from './describe.ts';
import { DEFAULT_CATALOG, type TableName } from '../core/names.ts';
import type { LakeDataset } from '../core/lake-dataset.ts';
import type { QualifiedName, ResolveTable, TableRef } from '../sql/types.ts';
import type { EngineTable } from './engine.ts';

/** A table a statement reads, ready for the engine and for lineage. */
export interface LoadedTable {
  readonly engine: EngineTable;
  readonly dataset: LakeDataset;
  /** The table as the tables API describes it (sizes and counts of the current snapshot). */
  readonly description: TableDescription;
}

/**
 * A resolver over a snapshot of the org's tables. The firewall folds names to lower case, while
 * catalog names may carry upper case: an exact match wins, else a case-insensitive one.
 */
export const catalogResolver = (tables: readonly CatalogTable[]): ResolveTable => {
  return (ref: TableRef): QualifiedName | undefined => {
    if ((ref.catalog ?? DEFAULT_CATALOG).toLowerCase() !== DEFAULT_CATALOG || ref.namespace === undefined) return undefined;
    const found = findTable(tables, { namespace: ref.namespace, table: ref.table });
    return found ? { catalog: DEFAULT_CATALOG, namespace: found.namespace, table: found.table } : undefined;
  };
};

/** A table of the snapshot by name (exact, else case-insensitive). */
export const findTable = (tables: readonly CatalogTable[], name: TableName): CatalogTable | undefined =>
  tables.find((t) => t.namespace === name.namespace && t.table === name.table) ??
  tables.find((t) => t.namespace.toLowerCase() === name.namespace.toLowerCase() && t.table.toLowerCase() === name.table.toLowerCase());

/** Loads one catalog table's current metadata: its location and schema. */
export const loadTable = async (storage: LakeStorage, table: CatalogTable): Promise<LoadedTable> => {
  const name = { namespace: table.namespace, table: table.table };
  const description = describeTable(name, await storage.readText(table.metadataLocation));
  return {
    engine: { name, metadataLocation: table.metadataLocation, location: description.location },
    dataset: { table: name, location: description.location, fields: description.schema.map((c) => ({ name: c.name, type: c.type })) },
    description,
  };
};

/**
 * Loads the tables a statement reads, in parallel. The names come from the firewall, which resolved
 * them against the same snapshot of the catalog, so each is in it.
 */
export const loadInputTables = async (storage: LakeStorage, known: readonly CatalogTable[], names: readonly TableName[]): Promise<LoadedTable[]> =>
  Promise.all(
    names.map((name) => {
      const table = findTable(known, name);
      if (!table) throw new Error(`table ${name.namespace}.${name.table} was resolved but is not in the catalog snapshot`);
      return loadTable(storage, table);
    }),
  );

/**
 * The tables of `loaded` a statement reads, in the order of `names`: for a statement whose tables
 * were resolved against the same catalog snapshot as those loaded (the routed query's plan), so
 * nothing is loaded twice.
 */
export const loadedTables = (loaded: readonly LoadedTable[], names: readonly TableName[]): LoadedTable[] =>
  names.map((name) => {
    const table = loaded.find((t) => t.engine.name.namespace === name.namespace && t.engine.name.table === name.table);
    if (!table) throw new Error(`table ${name.namespace}.${name.table} was resolved but not loaded`);
    return table;
  });
