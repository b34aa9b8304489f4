/**
 * @module sql/policy
 * What the firewall refuses and allows, in one place: leading keywords of statements, function names
 * that reach outside the caller's tables, the few table functions that only generate rows, file-path
 * and system-table names, and the properties a CTAS may set. Everything here is data; `analyze.ts`
 * applies it.
 */
import type { SqlDialect } from './types.ts';

/**
 * Statement keywords that are accepted to start a statement; all others are refused by name before
 * the parser runs. `(` is skipped before the check (`(SELECT 1)`).
 */
export const ALLOWED_LEADING_KEYWORDS: ReadonlySet<string> = new Set(['select', 'with', 'from', 'values', 'insert', 'create']);

/** Leading keywords named with the word after them (`DROP TABLE`, `ADD JAR`, `EXPORT DATABASE`). */
export const TWO_WORD_KEYWORDS: ReadonlySet<string> = new Set([
  'add', 'alter', 'clear', 'create', 'drop', 'export', 'force', 'import', 'list', 'show', 'truncate', 'refresh', 'msck', 'cache', 'uncache',
]);

/** `CREATE` modifiers skipped to find the object kind (`CREATE OR REPLACE TEMP MACRO` → MACRO). */
export const CREATE_MODIFIERS: ReadonlySet<string> = new Set([
  'or', 'replace', 'temp', 'temporary', 'persistent', 'global', 'local', 'external', 'unlogged', 'transient', 'volatile', 'secure', 'recursive', 'unique', 'materialized',
]);

/** `CREATE` modifiers that make a created table session-local (refused: it is no table of the catalog). */
export const TEMPORARY_MODIFIERS: ReadonlySet<string> = new Set(['temp', 'temporary', 'global', 'local', 'volatile']);

/**
 * Functions refused wherever they appear (scalar or table position), by exact name (lower case).
 * Table functions that read files or run SQL text, functions that read the engine's environment or
 * settings, and Spark's JVM reflection. The category is only for the message.
 */
export const DENIED_FUNCTIONS: ReadonlyMap<string, 'table function' | 'function'> = new Map([
  // DuckDB: files, globbing, SQL text, settings, environment.
  ['glob', 'table function'],
  ['sniff_csv', 'table function'],
  ['query', 'table function'],
  ['query_table', 'table function'],
  ['getenv', 'function'],
  ['current_setting', 'function'],
  ['set_config', 'function'],
  ['which_secret', 'function'],
  ['from_substrait', 'table function'],
  ['from_substrait_json', 'table function'],
  ['get_substrait', 'function'],
  ['get_substrait_json', 'function'],
  ['json_execute_serialized_sql', 'table function'],
  ['st_read', 'table function'],
  ['st_read_meta', 'table function'],
  ['load_aws_credentials', 'function'],
  ['checkpoint', 'table function'],
  ['force_checkpoint', 'table function'],
  ['dbgen', 'table function'],
  ['dsdgen', 'table function'],
  ['summary', 'table function'],
  ['truncate_duckdb_logs', 'table function'],
  ['set_iceberg_table_properties', 'table function'],
  ['set_iceberg_schema_properties', 'table function'],
  ['remove_iceberg_table_properties', 'table function'],
  ['remove_iceberg_schema_properties', 'table function'],
  ['python_map_function', 'table function'],
  ['write_log', 'function'],
  // Spark: JVM reflection and the dynamic-name clause.
  ['reflect', 'function'],
  ['java_method', 'function'],
  ['try_reflect', 'function'],
  ['identifier', 'function'],
  // Polars / DuckDB / Trino: table functions by name that the prefixes below do not cover.
  ['scan_parquet', 'table function'],
  ['scan_csv', 'table function'],
  ['scan_ipc', 'table function'],
  ['scan_ndjson', 'table function'],
  ['exclude_columns', 'table function'],
]);

/**
 * Function-name prefixes refused wherever they appear, with the category the message names: DuckDB
 * readers, metadata and scanners, connectors, and functions that change or read the engine's state.
 */
export const DENIED_FUNCTION_PREFIXES: ReadonlyMap<string, 'table function' | 'function'> = new Map([
  ['read_', 'table function'], // read_csv, read_csv_auto, read_parquet, read_json*, read_ndjson*, read_text, read_blob, read_ipc, read_xlsx ...
  ['parquet_', 'table function'], // parquet_scan, parquet_metadata, parquet_schema, parquet_file_metadata, parquet_kv_metadata
  ['iceberg_', 'table function'], // iceberg_scan, iceberg_metadata, iceberg_snapshots
  ['delta_', 'table function'],
  ['ducklake_', 'table function'],
  ['duckdb_', 'table function'], // duckdb_settings, duckdb_secrets, duckdb_tables, duckdb_extensions ...
  ['pragma_', 'table function'],
  ['sqlite_', 'table function'],
  ['postgres_', 'table function'],
  ['mysql_', 'table function'],
  ['odbc_', 'table function'],
  ['arrow_', 'table function'],
  ['lance_', 'table function'],
  ['pg_', 'function'], // pg_read_file, pg_ls_dir and the pg_* catalog functions
  ['http_', 'function'],
  ['httpfs_', 'function'],
  ['enable_', 'function'],
  ['disable_', 'function'],
  ['load_', 'function'],
]);

/** Function-name suffixes refused wherever they appear (`*_scan` table functions). */
export const DENIED_FUNCTION_SUFFIXES: readonly string[] = ['_scan', '_attach'];

/**
 * Table functions accepted in FROM, per dialect: they only generate rows from their arguments.
 * Every other function in a table position is refused (fail-closed against unknown readers).
 */
export const SAFE_TABLE_FUNCTIONS: Readonly<Record<SqlDialect, ReadonlySet<string>>> = {
  duckdb: new Set(['range', 'generate_series', 'unnest']),
  polars: new Set(['generate_series', 'unnest']),
  spark: new Set(['range', 'explode', 'explode_outer', 'posexplode', 'posexplode_outer', 'inline', 'inline_outer', 'stack', 'json_tuple']),
  trino: new Set(['unnest']),
};

/** Catalog or namespace names of engine metadata (DuckDB, Trino, Spark, Postgres-compatible). */
export const SYSTEM_SCHEMAS: ReadonlySet<string> = new Set([
  'system', 'information_schema', 'pg_catalog', 'sys', 'temp', 'memory', 'global_temp', 'spark_catalog', 'runtime', 'jdbc',
]);

/** Table-name prefixes of engine metadata views (DuckDB `duckdb_tables`, `sqlite_master`, `pragma_*`, `pg_*`). */
export const SYSTEM_TABLE_PREFIXES: readonly string[] = ['duckdb_', 'sqlite_', 'pragma_', 'pg_'];

/**
 * Spark data-source names: `parquet.\`path\`` reads a file when the first part is one of them, so a
 * namespace with such a name is refused in every dialect.
 */
export const FILE_FORMAT_NAMESPACES: ReadonlySet<string> = new Set([
  'parquet', 'csv', 'json', 'orc', 'avro', 'text', 'delta', 'binaryfile', 'libsvm', 'image', 'jdbc', 'hive', 'iceberg', 'xml', 'file',
]);

/** File extensions that make a name a file path (DuckDB replacement scans read such names as files). */
const FILE_EXTENSION = /\.(csv|tsv|txt|parquet|json|jsonl|ndjson|arrow|ipc|feather|avro|orc|xlsx|xls|db|duckdb|sqlite|sqlite3|gz|gzip|zst|zstd|bz2|xz|lz4|snappy|zip|tar|metadata\.json)$/i;

/** True when a name reads as a file path or URL rather than a table name. */
export function looksLikePath(name: string): boolean {
  return name.includes('/') || name.includes('\\') || name.includes('://') || name.startsWith('~') || FILE_EXTENSION.test(name);
}

/**
 * Table properties a CTAS may set (Trino `WITH (...)` keys); all others (`location`,
 * `extra_properties`, ...) are refused. Values must be plain literals.
 */
export const ALLOWED_TRINO_TABLE_PROPERTIES: ReadonlySet<string> = new Set(['format', 'partitioning', 'sorted_by', 'format_version']);

/** A Trino property value: a string or number literal, or an ARRAY of string literals. */
export const PLAIN_PROPERTY_VALUE = /^(?:'[^']*'|[0-9]+|ARRAY\s*\[\s*(?:'[^']*'\s*(?:,\s*'[^']*'\s*)*)?\])$/i;

/** The one file format a Spark CTAS may name (`USING iceberg`). */
export const ALLOWED_SPARK_TABLE_FORMATS: ReadonlySet<string> = new Set(['iceberg']);

/** Why a function name is refused, or `undefined` when it is not on a deny list. */
export function deniedFunction(name: string): 'table function' | 'function' | undefined {
  const listed = DENIED_FUNCTIONS.get(name);
  if (listed) return listed;
  for (const [prefix, category] of DENIED_FUNCTION_PREFIXES) if (name.startsWith(prefix)) return category;
  if (DENIED_FUNCTION_SUFFIXES.some((s) => name.endsWith(s))) return 'table function';
  return undefined;
}
