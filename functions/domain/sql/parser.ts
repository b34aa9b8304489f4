/**
 * @module sql/parser
 * The firewall's SQL parser: `@polyglot-sql/sdk`, a Rust port of sqlglot compiled to WebAssembly,
 * with DuckDB, Spark and Trino grammars in one AST model. The WebAssembly module loads once, when
 * this module is imported (top-level await); parsing is synchronous afterwards. Polars SQL is read with the DuckDB grammar (both are PostgreSQL-like).
 */
import { Dialect, init, isInitialized, parse } from '@polyglot-sql/sdk';
import { ForbiddenSqlError } from './errors.ts';
import type { SqlDialect } from './types.ts';

// The package's Node ESM entry instantiates the WebAssembly module on import; its CommonJS entry needs
// init(). Awaiting here makes either entry ready before the first statement, and makes a CommonJS
// bundle of this module fail at build time (top-level await) instead of refusing every query at run time.
if (!isInitialized()) await init();

const PARSER_DIALECT: Record<SqlDialect, Dialect> = {
  duckdb: Dialect.DuckDB,
  polars: Dialect.DuckDB,
  spark: Dialect.Spark,
  trino: Dialect.Trino,
};

/**
 * Parses `sql` into one AST per statement (JSON from the WebAssembly module).
 *
 * @throws ForbiddenSqlError when the parser cannot read the text: what it cannot read is refused.
 */
export function parseSql(sql: string, dialect: SqlDialect): unknown[] {
  let result: ReturnType<typeof parse>;
  try {
    result = parse(sql, PARSER_DIALECT[dialect]);
  } catch (error) {
    // A trap inside the WebAssembly parser (deep nesting, resource limits): refused, never allowed.
    throw new ForbiddenSqlError(`statement the ${dialect} parser cannot read`, error instanceof Error ? error.message : String(error));
  }
  if (!result.success || !Array.isArray(result.ast)) {
    const reason = result.error ?? 'unknown parse error';
    throw new ForbiddenSqlError(`statement the ${dialect} parser cannot read (${reason})`, reason);
  }
  return result.ast as unknown[];
}
