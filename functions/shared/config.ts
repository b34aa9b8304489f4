/**
 * @module config
 * Runtime configuration, read from the environment once per cold start. Getters throw when a
 * required value is missing, so a misconfigured function fails at init rather than mid-request.
 */
import path from 'node:path';
import { ALL_TABLES, type TableDefinition } from './table-definitions.ts';
import { BLOB_BUCKET_ENV, DYNAMODB_ENDPOINT_ENV, HOME_ENV, LOG_LEVEL_ENV, PROFILE_ENV, SESSION_SECRET_ARN_ENV, SESSION_SECRET_ENV } from './env-names.ts';

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
  readonly logLevel: 'debug' | 'info' | 'warn' | 'error';
}

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

/** Reads configuration from an environment (process.env by default). */
export const loadConfig = (env: Env = process.env): Config => {
  const profile = (env[PROFILE_ENV] ?? 'local') as Profile;
  if (profile !== 'aws' && profile !== 'local') throw new Error(`configuration: ${PROFILE_ENV} must be aws or local, not ${profile}`);
  const logLevel = (env[LOG_LEVEL_ENV] ?? 'info') as Config['logLevel'];
  const home = path.resolve(env[HOME_ENV] ?? '.lakeline');
  if (profile === 'aws') {
    // Functions get only the tables they are granted; the others stay absent.
    const tableNames = Object.fromEntries(ALL_TABLES.flatMap((t) => (env[t.envName] ? [[t.id, env[t.envName] as string]] : [])));
    return {
      profile,
      tableNames,
      home,
      logLevel,
      ...(env[BLOB_BUCKET_ENV] ? { blobBucket: env[BLOB_BUCKET_ENV] } : {}),
      ...(env[SESSION_SECRET_ARN_ENV] ? { sessionSecretArn: env[SESSION_SECRET_ARN_ENV] } : {}),
    };
  }
  const tableNames = Object.fromEntries(ALL_TABLES.map((t) => [t.id, env[t.envName] ?? localTableName(t)]));
  return {
    profile,
    tableNames,
    home,
    logLevel,
    dynamodbEndpoint: required(env, DYNAMODB_ENDPOINT_ENV),
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
