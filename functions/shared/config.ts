/**
 * @module config
 * Runtime configuration, read from the environment once per cold start. Getters throw when a
 * required value is missing, so a misconfigured function fails at init rather than mid-request.
 */
import path from 'node:path';
import { ALL_TABLES, type TableDefinition } from './table-definitions.ts';
import { fileURLToPath } from 'node:url';
import {
  AUTH_CACHE_TTL_ENV,
  AWS_ENDPOINT_URL_ENV,
  AWS_ENDPOINT_URL_S3_ENV,
  BLOB_BUCKET_ENV,
  DUCKDB_EXTENSION_DIR_ENV,
  DYNAMODB_ENDPOINT_ENV,
  HOME_ENV,
  LAKE_WRITER_FUNCTION_ENV,
  EMR_APPLICATION_ID_ENV,
  EMR_EXECUTION_ROLE_ARN_ENV,
  EMR_RELEASE_LABEL_ENV,
  LOG_LEVEL_ENV,
  PROFILE_ENV,
  ROUTING_INTERACTIVE_LIMIT_ENV,
  PYTHON_ENV,
  SESSION_SECRET_ARN_ENV,
  SESSION_SECRET_ENV,
  SPARK_JOB_PACKAGE_URI_ENV,
  SPARK_JOB_SCRIPT_URI_ENV,
  SPARK_MAX_CONCURRENT_ENV,
  SPARK_MAX_CORES_ENV,
  SPARK_MAX_MEMORY_MB_ENV,
  SPARK_RUNS_URI_ENV,
  WAREHOUSE_URI_ENV,
} from './env-names.ts';

/** Which set of adapters to build. */
export type Profile = 'aws' | 'local';

/** Everything the composition root needs. */
export interface Config {
  readonly profile: Profile;
  /** Table name by table id (`Events` → deployed or local name). */
  readonly tableNames: Readonly<Record<string, string>>;
  /** Local: DynamoDB API endpoint (dynalite). */
  readonly dynamodbEndpoint?: string;
  /** Local: state directory. */
  readonly home: string;
  /** AWS: bucket for large event bodies. */
  readonly blobBucket?: string;
  /** AWS: secret holding the session signing key. */
  readonly sessionSecretArn?: string;
  /** Local: the session signing key itself. */
  readonly sessionSecret?: string;
  /** How long the authorizer trusts a fetched key record; unset means the authorizer's default. */
  readonly authCacheTtlMs?: number;
  readonly logLevel: 'debug' | 'info' | 'warn' | 'error';
  /** The lake: where table data lives and how to reach the catalog and the lake writer. */
  readonly lake: LakeConfig;
  /** Managed Spark: local spark-submit limits, or the EMR Serverless application. */
  readonly spark: SparkConfig;
  /** The routed endpoint's interactive limit in bytes, when the deployment moves it. */
  readonly routingInteractiveLimitBytes?: number;
  /**
   * Largest response body a handler may return, in bytes as sent (after compression and base64):
   * Lambda's 6 MB response limit, less room for the headers. Unset locally: no cap.
   */
  readonly maxResponseBytes?: number;
  /** AWS: endpoints other than the region's (an emulator); empty in a deployment. */
  readonly awsEndpoints: AwsEndpoints;
}

/**
 * AWS endpoints set by the SDKs' standard variables, for the libraries that do not read those
 * themselves. The SDK clients are built without an endpoint and resolve the same variables on
 * their own, so a deployment (where none is set) and a test take one code path.
 */
export interface AwsEndpoints {
  /** S3: `AWS_ENDPOINT_URL_S3`, else `AWS_ENDPOINT_URL` (DuckDB's S3 secret needs it spelled out). */
  readonly s3?: string;
}

/** Lambda's synchronous response payload limit (6 MB) less room for the status line and headers. */
export const LAMBDA_MAX_RESPONSE_BYTES = 6 * 1024 * 1024 - 64 * 1024;

/**
 * The response cap of the profile, without reading the rest of the configuration (the shared
 * middleware needs only this): Lambda's in AWS, none locally.
 */
export const maxResponseBytesOf = (env: Env = process.env): number | undefined => ((env[PROFILE_ENV] ?? 'local') === 'aws' ? LAMBDA_MAX_RESPONSE_BYTES : undefined);

/** Managed Spark settings. Every value is optional here; the engine that needs one says so. */
export interface SparkConfig {
  /** Local: most cores one run may use. */
  readonly maxCores?: number;
  /** Local: memory all concurrent runs may take together, in MB. */
  readonly maxMemoryMb?: number;
  /** Local: most runs with a JVM at once. */
  readonly maxConcurrent?: number;
  /** AWS: EMR Serverless application id. */
  readonly applicationId?: string;
  /** AWS: execution role of job runs. */
  readonly executionRoleArn?: string;
  /** AWS: release label of the application. */
  readonly releaseLabel?: string;
  /** AWS: S3 URI of the entry script. */
  readonly jobScriptUri?: string;
  /** AWS: S3 URI of the zipped job package. */
  readonly jobPackageUri?: string;
  /** AWS: S3 prefix of run specs and results. */
  readonly runsUri?: string;
}

/** Lake settings. */
export interface LakeConfig {
  /** Directory of the DuckDB extension files. */
  readonly duckdbExtensionDir: string;
  /** Local: the SQLite catalog file (Iceberg JDBC layout). */
  readonly catalogFile?: string;
  /** Warehouse root: a directory locally, `s3://…` in AWS. */
  readonly warehouse?: string;
  /** Local: Python interpreter running the lake writer. */
  readonly pythonBin?: string;
  /** AWS: name of the lake writer Lambda. */
  readonly lakeWriterFunction?: string;
}

/** The repository root (local profile: the lake writer and the venv live there). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

type Env = Readonly<Record<string, string | undefined>>;

/** Prefix of table names in the local profile. */
export const LOCAL_TABLE_PREFIX = 'lakeline-';

/** The local name of a table. */
export const localTableName = (table: TableDefinition): string => `${LOCAL_TABLE_PREFIX}${table.id}`;

const required = (env: Env, name: string): string => {
  const value = env[name];
  if (value === undefined || value === '') throw new Error(`configuration: environment variable ${name} is required`);
  return value;
};

const optionalMilliseconds = (env: Env, name: string): number | undefined => {
  const value = env[name];
  if (value === undefined || value === '') return undefined;
  const ms = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(ms)) throw new Error(`configuration: ${name} must be a whole number of milliseconds, not ${value}`);
  return ms;
};

const optionalPositive = (env: Env, name: string): number | undefined => {
  const value = env[name];
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1) throw new Error(`configuration: ${name} must be a positive whole number, not ${value}`);
  return n;
};

const sparkConfig = (env: Env): SparkConfig => {
  const maxCores = optionalPositive(env, SPARK_MAX_CORES_ENV);
  const maxMemoryMb = optionalPositive(env, SPARK_MAX_MEMORY_MB_ENV);
  const maxConcurrent = optionalPositive(env, SPARK_MAX_CONCURRENT_ENV);
  const text = (name: string) => (env[name] ? env[name] : undefined);
  const entries = {
    applicationId: text(EMR_APPLICATION_ID_ENV),
    executionRoleArn: text(EMR_EXECUTION_ROLE_ARN_ENV),
    releaseLabel: text(EMR_RELEASE_LABEL_ENV),
    jobScriptUri: text(SPARK_JOB_SCRIPT_URI_ENV),
    jobPackageUri: text(SPARK_JOB_PACKAGE_URI_ENV),
    runsUri: text(SPARK_RUNS_URI_ENV),
  };
  return {
    ...(maxCores === undefined ? {} : { maxCores }),
    ...(maxMemoryMb === undefined ? {} : { maxMemoryMb }),
    ...(maxConcurrent === undefined ? {} : { maxConcurrent }),
    ...Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined)),
  };
};

/** The endpoint variables' values, checked to be URLs (a typo fails at init, not on the first S3 read). */
const awsEndpoints = (env: Env): AwsEndpoints => {
  const s3 = env[AWS_ENDPOINT_URL_S3_ENV] || env[AWS_ENDPOINT_URL_ENV];
  if (!s3) return {};
  if (!URL.canParse(s3) || !/^https?:$/.test(new URL(s3).protocol)) throw new Error(`configuration: the S3 endpoint must be an http(s) URL, not ${s3}`);
  return { s3 };
};

/** Reads configuration from an environment (process.env by default). */
export const loadConfig = (env: Env = process.env): Config => {
  const profile = (env[PROFILE_ENV] ?? 'local') as Profile;
  if (profile !== 'aws' && profile !== 'local') throw new Error(`configuration: ${PROFILE_ENV} must be aws or local, not ${profile}`);
  const logLevel = (env[LOG_LEVEL_ENV] ?? 'info') as Config['logLevel'];
  const home = path.resolve(env[HOME_ENV] ?? '.lakeline');
  const authCacheTtlMs = optionalMilliseconds(env, AUTH_CACHE_TTL_ENV);
  const routingInteractiveLimitBytes = optionalPositive(env, ROUTING_INTERACTIVE_LIMIT_ENV);
  const shared = {
    home,
    logLevel,
    spark: sparkConfig(env),
    awsEndpoints: awsEndpoints(env),
    ...(authCacheTtlMs === undefined ? {} : { authCacheTtlMs }),
    ...(routingInteractiveLimitBytes === undefined ? {} : { routingInteractiveLimitBytes }),
  };
  if (profile === 'aws') {
    const lake: LakeConfig = {
      duckdbExtensionDir: env[DUCKDB_EXTENSION_DIR_ENV] ?? '/opt/duckdb-extensions',
      ...(env[WAREHOUSE_URI_ENV] ? { warehouse: env[WAREHOUSE_URI_ENV] } : {}),
      ...(env[LAKE_WRITER_FUNCTION_ENV] ? { lakeWriterFunction: env[LAKE_WRITER_FUNCTION_ENV] } : {}),
    };
    // Functions get only the tables they are granted; the others stay absent.
    const tableNames = Object.fromEntries(ALL_TABLES.flatMap((t) => (env[t.envName] ? [[t.id, env[t.envName] as string]] : [])));
    return {
      profile,
      tableNames,
      ...shared,
      maxResponseBytes: maxResponseBytesOf(env),
      lake,
      ...(env[BLOB_BUCKET_ENV] ? { blobBucket: env[BLOB_BUCKET_ENV] } : {}),
      ...(env[SESSION_SECRET_ARN_ENV] ? { sessionSecretArn: env[SESSION_SECRET_ARN_ENV] } : {}),
    };
  }
  const tableNames = Object.fromEntries(ALL_TABLES.map((t) => [t.id, env[t.envName] ?? localTableName(t)]));
  return {
    profile,
    tableNames,
    ...shared,
    dynamodbEndpoint: required(env, DYNAMODB_ENDPOINT_ENV),
    lake: {
      duckdbExtensionDir: env[DUCKDB_EXTENSION_DIR_ENV] ?? path.join(REPO_ROOT, '.lakeline', 'duckdb-extensions'),
      catalogFile: path.join(home, 'catalog.db'),
      warehouse: path.join(home, 'warehouse'),
      pythonBin: env[PYTHON_ENV] ?? path.join(REPO_ROOT, '.lakeline', 'venv', 'bin', 'python'),
    },
    ...(env[SESSION_SECRET_ENV] ? { sessionSecret: env[SESSION_SECRET_ENV] } : {}),
  };
};

/** The deployed name of a table; throws when this function was not granted the table. */
export const tableName = (config: Config, table: TableDefinition): string => {
  const name = config.tableNames[table.id];
  if (!name) throw new Error(`configuration: table ${table.id} is not bound to this function (${table.envName} unset)`);
  return name;
};

let cached: Config | undefined;

/** The process-wide configuration, read on first use. */
export const getConfig = (): Config => (cached ??= loadConfig());

/** Forgets the cached configuration (the local gateway sets env first, tests reset between stacks). */
export const resetConfig = (): void => {
  cached = undefined;
};
