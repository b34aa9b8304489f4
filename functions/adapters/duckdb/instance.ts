/**
 * @module instance
 * Opening DuckDB the way lakeline always does: no extension ever downloads or auto-loads (they are
 * loaded from files shipped in the layer or the local set-up), so what runs is what was pinned.
 */
import path from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { loadDuckDB } from './driver.ts';

/** Opens an in-memory DuckDB with auto-install/auto-load off and the given extensions loaded. */
export const openDuckDB = async (
  extensionDir: string,
  extensions: readonly string[],
  options: Readonly<Record<string, string>> = {},
): Promise<{ instance: DuckDBInstance; connection: DuckDBConnection }> => {
  const { DuckDBInstance } = await loadDuckDB();
  const instance = await DuckDBInstance.create(':memory:', {
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    ...options,
  });
  const connection = await instance.connect();
  for (const name of extensions) {
    await connection.run(`LOAD '${sqlString(path.join(extensionDir, `${name}.duckdb_extension`))}'`);
  }
  return { instance, connection };
};

/** Escapes a value for a single-quoted SQL string literal. */
export const sqlString = (value: string): string => value.replaceAll("'", "''");

/** Quotes an identifier. */
export const sqlIdent = (value: string): string => `"${value.replaceAll('"', '""')}"`;
