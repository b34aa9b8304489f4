/**
 * @module sql/types
 * The firewall's public types: options of {@link analyzeSql} and the analysis it returns.
 */

/** The SQL dialects the firewall reads, one per engine: DuckDB, polars SQL, Spark SQL, Trino/Athena (bloom). */
export const SQL_DIALECTS = ['duckdb', 'polars', 'spark', 'trino'] as const;
export type SqlDialect = (typeof SQL_DIALECTS)[number];

/** A table name as the statement wrote it, parts folded to lower case (ASCII only). */
export interface TableRef {
  catalog?: string;
  namespace?: string;
  table: string;
}

/** A fully qualified table name: `catalog.namespace.table`. */
export interface QualifiedName {
  catalog: string;
  namespace: string;
  table: string;
}

/**
 * Looks a table up in the caller's catalog. Receives the reference with catalog and namespace filled
 * in (the default catalog, the default namespace for bare names); returns the canonical name, or
 * `undefined` when the table is not the caller's (unknown, or another org's).
 */
export type ResolveTable = (ref: TableRef) => QualifiedName | undefined;

/** How a statement writes its target. */
export type WriteMode = 'create' | 'replace' | 'append' | 'overwrite';

/** The table a statement writes, with how it writes it. */
export interface WriteTarget extends QualifiedName {
  mode: WriteMode;
  /** `CREATE TABLE IF NOT EXISTS`: creating an existing table is a no-op rather than an error. */
  ifNotExists?: boolean;
}

/** Options of {@link analyzeSql}. */
export interface AnalyzeSqlOptions {
  /** Which engine's SQL the statement is written in. */
  dialect: SqlDialect;
  /** The name every table's catalog must have (`lakeline`); a name with another catalog is refused. */
  defaultCatalog: string;
  /**
   * The namespace of a bare table name (`lineitem` → `<defaultCatalog>.<defaultNamespace>.lineitem`).
   * Without it a bare name is refused: the caller must write `namespace.table`.
   */
  defaultNamespace?: string;
  /** Resolves an input table against the caller's catalog. */
  resolveTable: ResolveTable;
  /**
   * Resolves the table a statement writes (CTAS, INSERT): the canonical name when the caller may
   * write it (its namespace belongs to the caller), else `undefined`. Without it every write is refused.
   */
  resolveTarget?: ResolveTable;
}

/** What the firewall found in an accepted statement. */
export interface SqlAnalysis {
  /** `read`: a query; `write-own-target`: writes one table of the caller's own catalog. */
  kind: 'read' | 'write-own-target';
  /** `SELECT`, `CREATE_TABLE_AS`, `CREATE_OR_REPLACE_TABLE_AS`, `INSERT` or `INSERT_OVERWRITE`. */
  statementType: StatementType;
  /** Every table the statement reads: distinct, fully qualified, sorted. */
  inputTables: QualifiedName[];
  /** The table the statement writes (only for `write-own-target`). */
  target?: WriteTarget;
  /**
   * Canonical text for the job-name hash: comments dropped, whitespace collapsed to single spaces
   * between tokens, everything outside string literals and quoted identifiers in lower case, no
   * trailing semicolon.
   */
  normalizedSql: string;
}

export type StatementType =
  | 'SELECT'
  | 'CREATE_TABLE_AS'
  | 'CREATE_OR_REPLACE_TABLE_AS'
  | 'INSERT'
  | 'INSERT_OVERWRITE';
