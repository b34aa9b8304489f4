/**
 * @module duckdb/setup-sql
 * The statements that turn a fresh DuckDB instance into the sandbox of one query: the caller's
 * tables as views in a `lakeline` catalog, the sandbox's size, and then the lock — only the tables'
 * own directories readable, no other external access, and no setting changeable afterwards.
 */
import type { EngineTable } from '#domain/lake/engine';
import type { EngineSizing } from '#domain/lake/sandbox';
import { DEFAULT_CATALOG } from '#domain/core/names';
import { sqlIdent, sqlString } from './instance.ts';

/**
 * Directories a table's files may be read from: its location, as a directory (a trailing slash, so
 * `…/orders` does not also open `…/orders_archive`). A local location is listed in both spellings
 * DuckDB may meet it in (`file:///x/` and `/x/`), since Iceberg metadata uses URIs.
 */
export const allowedDirectoriesOf = (tables: readonly EngineTable[]): string[] => {
  const dirs = new Set<string>();
  for (const t of tables) {
    const dir = t.location.endsWith('/') ? t.location : `${t.location}/`;
    dirs.add(dir);
    const local = /^file:(?:\/\/)?(\/.*)$/.exec(dir);
    if (local) {
      dirs.add(local[1] as string);
      dirs.add(`file://${local[1]}`);
    }
  }
  return [...dirs].sort();
};

/** `['a', 'b']` as a DuckDB list literal. */
const listLiteral = (items: readonly string[]): string => `[${items.map((i) => `'${sqlString(i)}'`).join(', ')}]`;

/**
 * The views: one schema per namespace in an in-memory catalog named `lakeline`, one view per
 * table over `iceberg_scan` of its current metadata file. `lakeline.ns.t` and `ns.t` (with
 * `lakeline` the default catalog) both name the view.
 */
export const viewStatements = (tables: readonly EngineTable[]): string[] => {
  const catalog = sqlIdent(DEFAULT_CATALOG);
  const namespaces = [...new Set(tables.map((t) => t.name.namespace))].sort();
  return [
    `ATTACH ':memory:' AS ${catalog}`,
    ...namespaces.map((ns) => `CREATE SCHEMA ${catalog}.${sqlIdent(ns)}`),
    ...tables.map(
      (t) => `CREATE VIEW ${catalog}.${sqlIdent(t.name.namespace)}.${sqlIdent(t.name.table)} AS SELECT * FROM iceberg_scan('${sqlString(t.metadataLocation)}')`,
    ),
    `USE ${catalog}`,
  ];
};

/**
 * Sizing and lockdown; the order matters. Settings come first, `enable_external_access=false`
 * after the views exist (creating them reads metadata), and `lock_configuration` last, after which
 * no statement can change any setting back.
 *
 * @param tables - the tables of the query: their directories are the only readable ones
 * @param sizing - threads and memory limit of the sandbox
 * @param tempDirectory - a private directory for spilling (DuckDB's own buffer files)
 * @param extraAllowed - further directories to allow (S3 credentials need none; kept for adapters)
 */
export const lockdownStatements = (tables: readonly EngineTable[], sizing: EngineSizing, tempDirectory: string, extraAllowed: readonly string[] = []): string[] => [
  `SET threads = ${sizing.threads}`,
  `SET memory_limit = '${sizing.memoryLimitMb}MiB'`,
  `SET temp_directory = '${sqlString(tempDirectory)}'`,
  `SET allowed_directories = ${listLiteral([...allowedDirectoriesOf(tables), ...extraAllowed])}`,
  `SET allow_community_extensions = false`,
  `SET autoinstall_known_extensions = false`,
  `SET autoload_known_extensions = false`,
  `SET enable_external_access = false`,
  `SET lock_configuration = true`,
];
