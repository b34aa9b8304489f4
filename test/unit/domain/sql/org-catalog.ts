/**
 * An in-memory org catalog for the firewall tests, matching {@link HOSTILE_CATALOG}: the caller reads
 * `tpch.*` and `scratch.t`, writes `scratch.*`; `other_org.t` exists but is another org's.
 */
import type { AnalyzeSqlOptions, QualifiedName, SqlDialect, TableRef } from '#domain/sql/types';
import { HOSTILE_CATALOG } from './hostile-corpus.ts';

const READABLE: Readonly<Record<string, readonly string[]>> = HOSTILE_CATALOG.readable;
const WRITABLE: readonly string[] = HOSTILE_CATALOG.writableNamespaces;

/** Looks a table up like the org's catalog would: canonical name, or undefined when not the caller's. */
export function resolveOrgTable(ref: TableRef): QualifiedName | undefined {
  if (ref.catalog !== HOSTILE_CATALOG.catalog || ref.namespace === undefined) return undefined;
  return READABLE[ref.namespace]?.includes(ref.table) ? { catalog: ref.catalog, namespace: ref.namespace, table: ref.table } : undefined;
}

/** Resolves a write target: any table name in a writable namespace of the caller. */
export function resolveOrgTarget(ref: TableRef): QualifiedName | undefined {
  if (ref.catalog !== HOSTILE_CATALOG.catalog || ref.namespace === undefined) return undefined;
  return WRITABLE.includes(ref.namespace) ? { catalog: ref.catalog, namespace: ref.namespace, table: ref.table } : undefined;
}

/** Firewall options for `dialect` over the test catalog; `overrides` replace single fields. */
export function orgOptions(dialect: SqlDialect, overrides: Partial<AnalyzeSqlOptions> = {}): AnalyzeSqlOptions {
  return {
    dialect,
    defaultCatalog: HOSTILE_CATALOG.catalog,
    defaultNamespace: HOSTILE_CATALOG.defaultNamespace,
    resolveTable: resolveOrgTable,
    resolveTarget: resolveOrgTarget,
    ...overrides,
  };
}

/** `lakeline.<namespace>.<table>` as a QualifiedName. */
export function qn(namespace: string, table: string): QualifiedName {
  return { catalog: HOSTILE_CATALOG.catalog, namespace, table };
}
