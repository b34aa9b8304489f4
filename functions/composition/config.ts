/**
 * @module config
 * The service's configuration, typed per profile and read from the environment once per cold
 * start by {@link loadConfig}: every environment variable of the service is read here and nowhere
 * else (names in `env-names.ts`). A malformed value fails at init, naming the variable. Values a
 * deployment binds only to the functions that need them (a table, the warehouse, the EMR
 * application…) stay optional here; the composition root that builds the port needing one says
 * which variable is missing.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LogLevel } from '#shared/observability';
import { ALL_TABLES, type TableDefinition } from '#shared/table-definitions';
import {
  API_URL_ENV,
  CLOCK_FILE_ENV,
  FRESHNESS_CHECK_MS_ENV,
  AUTH_CACHE_TTL_ENV,
  AWS_ENDPOINT_URL_ENV,
  AWS_ENDPOINT_URL_S3_ENV,
  BLOB_BUCKET_ENV,
  FEED_QUEUE_ENV_PREFIX,
  BLOOM_ENV,
  BLOOM_WORKGROUP_ENV,
  NOTIFICATIONS_QUEUE_URL_ENV,
  DUCKDB_EXTENSION_DIR_ENV,
  DYNAMODB_ENDPOINT_ENV,
  EMR_APPLICATION_ID_ENV,
  EMR_EXECUTION_ROLE_ARN_ENV,
  EMR_RELEASE_LABEL_ENV,
  HOME_ENV,
  LAKE_WRITER_FUNCTION_ENV,
  LAMBDA_MEMORY_ENV,
  LOG_LEVEL_ENV,
  POLARS_DATA_ROLE_ENV,
  POLARS_FARGATE_TIERS,
  POLARS_RESULTS_BUCKET_ENV,
  POLARS_RESULTS_PREFIX_ENV,
  POLARS_STAGING_URI_ENV,
  POLARS_TIMEOUT_ENV,
  POLARS_WORKERS_ENV,
  polarsFunctionEnv,
  polarsQueueEnv,
  PROFILE_ENV,
  PYTHON_ENV,
  RESULTS_TTL_DAYS_ENV,
  LINEAGE_RETENTION_DAYS_ENV,
  ROUTING_BLOOM_LIMIT_ENV,
  ROUTING_INTERACTIVE_LIMIT_ENV,
  SESSION_SECRET_ARN_ENV,
  SESSION_SECRET_ENV,
  SPARK_JOB_PACKAGE_URI_ENV,
  SPARK_JOB_SCRIPT_URI_ENV,
  SPARK_MAX_CONCURRENT_ENV,
  SPARK_WARM_MAX_INPUT_BYTES_ENV,
  SPARK_MAX_CORES_ENV,
  SPARK_MAX_MEMORY_MB_ENV,
  SPARK_RUNS_URI_ENV,
  TRINO_HEAP_ENV,
  TRINO_HOME_ENV,
  TRINO_JAVA_HOME_ENV,
  WAREHOUSE_URI_ENV,
} from './env-names.ts';

/** The environment configuration is read from. */
export type Env = Readonly<Record<string, string | undefined>>;

/** The repository root (local profile: the lake writer, the venv and the Trino install live there). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The Trino release `scripts/setup.mjs` installs for the local bloom engine. */
export const TRINO_VERSION = '476';

/** Lambda's synchronous response payload limit (6 MB) less room for the status line and headers. */
export const LAMBDA_MAX_RESPONSE_BYTES = 6 * 1024 * 1024 - 64 * 1024;

/** Days a routed read's results table is kept when `LAKELINE_RESULTS_TTL_DAYS` is unset. */
export const DEFAULT_RESULTS_TTL_DAYS = 7;

/** Prefix of table names in the local profile. */
export const LOCAL_TABLE_PREFIX = 'lakeline-';

/** The local name of a table. */
export const localTableName = (table: TableDefinition): string => `${LOCAL_TABLE_PREFIX}${table.id}`;


/** What both profiles configure the same way. */
interface CommonConfig {
  /** Table name by table id (`Events` → deployed or local name); in AWS only the tables a function is granted. */
  readonly tableNames: Readonly<Record<string, string>>;
  readonly logLevel: LogLevel;
  /** How long the authorizer trusts a fetched key record; unset means the authorizer's default. */
  readonly authCacheTtlMs?: number;
  /** The routed endpoint's interactive limit in bytes, when the deployment moves it. */
  readonly routingInteractiveLimitBytes?: number;
  /** The routed endpoint's bloom limit in bytes (batch reads above it run on Spark), when moved. */
  readonly routingBloomLimitBytes?: number;
  /** Days a routed read's results table is kept. */
  readonly resultsTtlDays: number;
  /** Days of events the lineage tables keep; unset keeps every day (the event store keeps every event). */
  readonly lineageRetentionDays?: number;
}

/** The local profile: one machine, no cloud. */
export interface LocalConfig extends CommonConfig {
  readonly profile: 'local';
  /** State directory (store data, catalog, warehouse, blobs, run logs). */
  readonly home: string;
  /** The local DynamoDB API (dynalite) the stack started. */
  readonly dynamodbEndpoint: string;
  /** The session signing key itself (the local stack reads it from `<home>/session-secret`). */
  readonly sessionSecret?: string;
  readonly lake: {
    readonly duckdbExtensionDir: string;
    /** The SQLite catalog file (Iceberg JDBC layout). */
    readonly catalogFile: string;
    readonly warehouse: string;
    /** Python interpreter of the lake writer, Spark and polars workers. */
    readonly pythonBin: string;
  };
  readonly spark: {
    readonly maxCores?: number;
    readonly maxMemoryMb?: number;
    readonly maxConcurrent?: number;
    /** Largest job input the warm driver runs (ADR 0059); 0: off. */
    readonly warmMaxInputBytes?: number;
  };
  readonly polars: {
    readonly timeoutSeconds?: number;
    readonly maxWorkers?: number;
  };
  readonly bloom: {
    /** `off`: not configured; `eager`: its Trino server starts with the stack; `on`: on first use. */
    readonly mode: 'off' | 'on' | 'eager';
    readonly trinoHome: string;
    readonly heapMb: number;
    /** Where to look for a JDK 24+ (an explicit home, then JAVA_HOME, then `/usr/lib/jvm`). */
    readonly javaSearch: { readonly LAKELINE_TRINO_JAVA_HOME?: string; readonly JAVA_HOME?: string };
  };
  readonly alerts: {
    /** A file whose instant the alerts' clock reads (tests); unset: the machine's clock. */
    readonly clockFile?: string;
    /** Milliseconds between the local late-table checks. */
    readonly freshnessCheckMs: number;
  };
}

/** The AWS profile: a Lambda function of the deployed stack. */
export interface AwsConfig extends CommonConfig {
  readonly profile: 'aws';
  /** Largest response body in bytes as sent (Lambda's 6 MB less the headers). */
  readonly maxResponseBytes: number;
  /** The function's memory (Lambda sets it), which bounds DuckDB's memory. */
  readonly lambdaMemoryMb?: number;
  /** Endpoints other than the region's (an emulator), for the libraries that do not read the SDK's variables. */
  readonly awsEndpoints: { readonly s3?: string };
  readonly blobBucket?: string;
  readonly sessionSecretArn?: string;
  /** The feed subscribers' queue URLs by environment variable name (`feedQueueEnv`); the stream's fan-out sends to them. */
  readonly feedQueues: Readonly<Record<string, string>>;
  readonly lake: {
    readonly duckdbExtensionDir: string;
    /** `s3://bucket/warehouse`. */
    readonly warehouse?: string;
    readonly lakeWriterFunction?: string;
  };
  readonly spark: {
    readonly applicationId?: string;
    readonly executionRoleArn?: string;
    readonly releaseLabel?: string;
    readonly jobScriptUri?: string;
    readonly jobPackageUri?: string;
    readonly runsUri?: string;
  };
  readonly polars: {
    /** Sandbox Lambda per tier (2 and 4 vCPUs). */
    readonly lambdaFunctions: Readonly<Record<number, string>>;
    /** Queue URL per provisioned Fargate tier (8 and 16 vCPUs). */
    readonly fargateQueues: Readonly<Record<number, string>>;
    readonly resultsBucket?: string;
    readonly resultsPrefix?: string;
    readonly dataRoleArn?: string;
    readonly stagingUri?: string;
  };
  readonly bloom: {
    /** The Athena workgroup; unset: bloom is not configured for this function. */
    readonly workgroup?: string;
  };
  readonly notifications: {
    /** The SQS FIFO delivery queue; unset where the function queues no delivery. */
    readonly queueUrl?: string;
  };
}

/** The configuration of either profile; `profile` tells which. */
export type Config = LocalConfig | AwsConfig;

const text = (env: Env, name: string): string | undefined => (env[name] === undefined || env[name] === '' ? undefined : env[name]);

const required = (env: Env, name: string): string => {
  const value = text(env, name);
  if (value === undefined) throw new Error(`configuration: environment variable ${name} is required`);
  return value;
};

/** An unset or empty variable is undefined; anything but a whole number in range fails. */
const wholeNumber = (env: Env, name: string, min: number, unit: string): number | undefined => {
  const value = text(env, name);
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < min) throw new Error(`configuration: ${name} must be ${min > 0 ? 'a positive' : 'a'} whole number of ${unit}, not ${value}`);
  return n;
};

/** A positive decimal (`1.5` days); unset or empty is undefined. */
const positiveDecimal = (env: Env, name: string): number | undefined => {
  const value = text(env, name);
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(n > 0)) throw new Error(`configuration: ${name} must be a positive number, not ${value}`);
  return n;
};

/** Drops undefined members, so optional fields are absent rather than `undefined` (exactOptionalPropertyTypes). */
const defined = <T extends Record<string, unknown>>(record: T): { [K in keyof T]: Exclude<T[K], undefined> } =>
  Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as { [K in keyof T]: Exclude<T[K], undefined> };

const profileOf = (env: Env): Config['profile'] => {
  const profile = env[PROFILE_ENV] ?? 'local';
  if (profile !== 'aws' && profile !== 'local') throw new Error(`configuration: ${PROFILE_ENV} must be aws or local, not ${profile}`);
  return profile;
};

/** The response cap of the profile alone, for the shared middleware (which needs no other setting). */
export const maxResponseBytesOf = (env: Env = process.env): number | undefined => (profileOf(env) === 'aws' ? LAMBDA_MAX_RESPONSE_BYTES : undefined);

/**
 * The public API's base URL for the MCP server's tools (ADR 0048): `LAKELINE_API_URL` when set
 * (always, by the CDK and the local stack), else the API Gateway domain of the request
 * (`requestHost`, never a client's Host header). The MCP function reads no other setting.
 */
export const apiUrlOf = (requestHost: string, env: Env = process.env): string => {
  const url = env[API_URL_ENV];
  if (url !== undefined && url !== '') {
    if (!/^https?:\/\/[^/]+/.test(url)) throw new Error(`configuration: ${API_URL_ENV} must be an http(s) URL, not ${url}`);
    return url.replace(/\/+$/, '');
  }
  return `${profileOf(env) === 'aws' ? 'https' : 'http'}://${requestHost}`;
};

/** The log level alone, for the logger (which must work before, and without, the rest). */
export const logLevelOf = (env: Env = process.env): LogLevel => {
  const level = env[LOG_LEVEL_ENV] ?? 'info';
  return level === 'debug' || level === 'warn' || level === 'error' ? level : 'info';
};

const common = (env: Env): CommonConfig => ({
  tableNames: {},
  logLevel: logLevelOf(env),
  resultsTtlDays: positiveDecimal(env, RESULTS_TTL_DAYS_ENV) ?? DEFAULT_RESULTS_TTL_DAYS,
  ...defined({
    authCacheTtlMs: wholeNumber(env, AUTH_CACHE_TTL_ENV, 0, 'milliseconds'),
    lineageRetentionDays: positiveDecimal(env, LINEAGE_RETENTION_DAYS_ENV),
    routingInteractiveLimitBytes: wholeNumber(env, ROUTING_INTERACTIVE_LIMIT_ENV, 1, 'bytes'),
    routingBloomLimitBytes: wholeNumber(env, ROUTING_BLOOM_LIMIT_ENV, 1, 'bytes'),
  }),
});

/** The S3 endpoint variables' value, checked to be a URL (a typo fails at init, not on the first S3 read). */
const s3Endpoint = (env: Env): string | undefined => {
  const s3 = text(env, AWS_ENDPOINT_URL_S3_ENV) ?? text(env, AWS_ENDPOINT_URL_ENV);
  if (s3 === undefined) return undefined;
  if (!URL.canParse(s3) || !/^https?:$/.test(new URL(s3).protocol)) throw new Error(`configuration: the S3 endpoint must be an http(s) URL, not ${s3}`);
  return s3;
};

/** Variable values per polars tier, for the tiers whose variable is set. */
const byTier = (env: Env, tiers: readonly number[], nameOf: (tier: number) => string): Record<number, string> =>
  Object.fromEntries(tiers.flatMap((tier) => (text(env, nameOf(tier)) === undefined ? [] : [[tier, text(env, nameOf(tier)) as string]])));

const awsConfig = (env: Env): AwsConfig => ({
  ...common(env),
  profile: 'aws',
  // Functions get only the tables they are granted; the others stay absent.
  tableNames: Object.fromEntries(ALL_TABLES.flatMap((t) => (text(env, t.envName) === undefined ? [] : [[t.id, env[t.envName] as string]]))),
  maxResponseBytes: LAMBDA_MAX_RESPONSE_BYTES,
  awsEndpoints: defined({ s3: s3Endpoint(env) }),
  feedQueues: Object.fromEntries(Object.keys(env).flatMap((name) => (name.startsWith(FEED_QUEUE_ENV_PREFIX) && text(env, name) !== undefined ? [[name, env[name] as string]] : []))),
  ...defined({
    lambdaMemoryMb: wholeNumber(env, LAMBDA_MEMORY_ENV, 1, 'MB'),
    blobBucket: text(env, BLOB_BUCKET_ENV),
    sessionSecretArn: text(env, SESSION_SECRET_ARN_ENV),
  }),
  lake: {
    duckdbExtensionDir: text(env, DUCKDB_EXTENSION_DIR_ENV) ?? '/opt/duckdb-extensions',
    ...defined({ warehouse: text(env, WAREHOUSE_URI_ENV), lakeWriterFunction: text(env, LAKE_WRITER_FUNCTION_ENV) }),
  },
  spark: defined({
    applicationId: text(env, EMR_APPLICATION_ID_ENV),
    executionRoleArn: text(env, EMR_EXECUTION_ROLE_ARN_ENV),
    releaseLabel: text(env, EMR_RELEASE_LABEL_ENV),
    jobScriptUri: text(env, SPARK_JOB_SCRIPT_URI_ENV),
    jobPackageUri: text(env, SPARK_JOB_PACKAGE_URI_ENV),
    runsUri: text(env, SPARK_RUNS_URI_ENV),
  }),
  polars: {
    lambdaFunctions: byTier(env, [2, 4], polarsFunctionEnv),
    fargateQueues: byTier(env, POLARS_FARGATE_TIERS, polarsQueueEnv),
    ...defined({
      resultsBucket: text(env, POLARS_RESULTS_BUCKET_ENV),
      resultsPrefix: text(env, POLARS_RESULTS_PREFIX_ENV),
      dataRoleArn: text(env, POLARS_DATA_ROLE_ENV),
      stagingUri: text(env, POLARS_STAGING_URI_ENV),
    }),
  },
  bloom: defined({ workgroup: text(env, BLOOM_WORKGROUP_ENV) }),
  notifications: defined({ queueUrl: text(env, NOTIFICATIONS_QUEUE_URL_ENV) }),
});

const bloomMode = (env: Env): LocalConfig['bloom']['mode'] => {
  const value = text(env, BLOOM_ENV);
  if (value === '0') return 'off';
  return value === 'eager' ? 'eager' : 'on';
};

const localConfig = (env: Env): LocalConfig => {
  const home = path.resolve(text(env, HOME_ENV) ?? '.lakeline');
  const maxWorkers = positiveDecimal(env, POLARS_WORKERS_ENV);
  return {
    ...common(env),
    profile: 'local',
    tableNames: Object.fromEntries(ALL_TABLES.map((t) => [t.id, text(env, t.envName) ?? localTableName(t)])),
    home,
    dynamodbEndpoint: required(env, DYNAMODB_ENDPOINT_ENV),
    ...defined({ sessionSecret: text(env, SESSION_SECRET_ENV) }),
    lake: {
      duckdbExtensionDir: text(env, DUCKDB_EXTENSION_DIR_ENV) ?? path.join(REPO_ROOT, '.lakeline', 'duckdb-extensions'),
      catalogFile: path.join(home, 'catalog.db'),
      warehouse: path.join(home, 'warehouse'),
      pythonBin: text(env, PYTHON_ENV) ?? path.join(REPO_ROOT, '.lakeline', 'venv', 'bin', 'python'),
    },
    spark: defined({
      maxCores: wholeNumber(env, SPARK_MAX_CORES_ENV, 1, 'cores'),
      maxMemoryMb: wholeNumber(env, SPARK_MAX_MEMORY_MB_ENV, 1, 'MB'),
      maxConcurrent: wholeNumber(env, SPARK_MAX_CONCURRENT_ENV, 1, 'runs'),
      warmMaxInputBytes: wholeNumber(env, SPARK_WARM_MAX_INPUT_BYTES_ENV, 0, 'bytes'),
    }),
    polars: defined({
      timeoutSeconds: positiveDecimal(env, POLARS_TIMEOUT_ENV),
      maxWorkers: maxWorkers === undefined ? undefined : Math.max(1, Math.floor(maxWorkers)),
    }),
    bloom: {
      mode: bloomMode(env),
      trinoHome: text(env, TRINO_HOME_ENV) ?? path.join(REPO_ROOT, '.lakeline', 'trino', `trino-server-${TRINO_VERSION}`),
      heapMb: wholeNumber(env, TRINO_HEAP_ENV, 1, 'MB') ?? 2048,
      javaSearch: defined({ LAKELINE_TRINO_JAVA_HOME: text(env, TRINO_JAVA_HOME_ENV), JAVA_HOME: text(env, 'JAVA_HOME') }),
    },
    alerts: { ...defined({ clockFile: text(env, CLOCK_FILE_ENV) }), freshnessCheckMs: wholeNumber(env, FRESHNESS_CHECK_MS_ENV, 100, 'ms') ?? 60_000 },
  };
};

/** Reads the configuration of the profile `LAKELINE_PROFILE` names (`local` when unset). */
export const loadConfig = (env: Env): Config => (profileOf(env) === 'aws' ? awsConfig(env) : localConfig(env));

/** The deployed name of a table; throws when this function was not granted the table. */
export const tableName = (config: Pick<Config, 'tableNames'>, table: TableDefinition): string => {
  const name = config.tableNames[table.id];
  if (!name) throw new Error(`configuration: table ${table.id} is not bound to this function (${table.envName} unset)`);
  return name;
};
