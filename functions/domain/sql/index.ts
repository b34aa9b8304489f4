/**
 * @module sql
 * Public surface of the SQL firewall: one module used by every engine (DuckDB, polars SQL, Spark SQL,
 * Trino/Athena) to refuse statements that reach beyond the caller's catalog and to report what a
 * statement reads and writes. Pure: no AWS, no HTTP, no I/O.
 */
export { analyzeSql, MAX_SQL_LENGTH } from './analyze.ts';
export { ForbiddenSqlError, FORBIDDEN_PREFIX } from './errors.ts';
export { SQL_DIALECTS } from './types.ts';
export type {
  AnalyzeSqlOptions,
  QualifiedName,
  ResolveTable,
  SqlAnalysis,
  SqlDialect,
  StatementType,
  TableRef,
  WriteMode,
  WriteTarget,
} from './types.ts';
