/**
 * @module container
 * The composition root: builds each port once per cold start from configuration, choosing AWS or
 * local adapters. Handlers ask for the ports they need; nothing here runs on the request path
 * after the first use.
 */
import { GlueClient } from '@aws-sdk/client-glue';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { S3Client } from '@aws-sdk/client-s3';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Authorizer } from '#domain/auth/authorize';
import type { KeyStore, OrgStore } from '#domain/orgs/org';
import { DynamoKeyStore } from '#adapters/dynamodb/key-store';
import { DynamoOrgStore } from '#adapters/dynamodb/org-store';
import { GlueCatalog } from '#adapters/aws/glue-catalog';
import { LambdaLakeWriter } from '#adapters/aws/lambda-lake-writer';
import { S3LakeStorage } from '#adapters/aws/s3-lake-storage';
import { FsLakeStorage } from '#adapters/local/fs-lake-storage';
import { SqliteCatalog } from '#adapters/local/sqlite-catalog';
import { SubprocessLakeWriter } from '#adapters/local/subprocess-lake-writer';
import type { Catalog, LakeStorage, LakeWriter } from '#domain/lake/catalog';
import { createDocumentClient, createDynamoClient } from './clients.ts';
import { getConfig, REPO_ROOT, tableName } from './config.ts';
import { KEYS_TABLE, ORGS_TABLE } from './table-definitions.ts';

const once = <T>(build: () => T): (() => T) => {
  let value: T | undefined;
  let built = false;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value as T;
  };
};

/** The shared document client. */
export const documentClient = once((): DynamoDBDocumentClient => createDocumentClient(createDynamoClient(getConfig())));

/** Org store. */
export const orgStore = once((): OrgStore => new DynamoOrgStore(documentClient(), tableName(getConfig(), ORGS_TABLE)));

/** API key store. */
export const keyStore = once((): KeyStore => new DynamoKeyStore(documentClient(), tableName(getConfig(), KEYS_TABLE)));

/** The session signing secret: from Secrets Manager in AWS, from the environment locally. */
export const sessionSecret = once(async (): Promise<string> => {
  const config = getConfig();
  if (config.sessionSecret) return config.sessionSecret;
  if (config.profile === 'aws' && config.sessionSecretArn) {
    const out = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: config.sessionSecretArn }));
    if (!out.SecretString) throw new Error('configuration: the session secret is empty');
    return out.SecretString;
  }
  throw new Error('configuration: no session secret configured');
});

/** The authorizer use case with its per-container key cache. */
export const authorizer = once(async (): Promise<Authorizer> => {
  const ttl = getConfig().authCacheTtlMs;
  return new Authorizer({ keys: keyStore(), orgs: orgStore(), sessionSecret: await sessionSecret(), ...(ttl === undefined ? {} : { keyCacheTtlMs: ttl }) });
});

/** The Iceberg catalog: Glue in AWS, the SQLite SQL catalog locally. */
export const catalog = once((): Catalog => {
  const config = getConfig();
  if (config.profile === 'aws') return new GlueCatalog(new GlueClient({}));
  return new SqliteCatalog(config.lake.catalogFile as string, config.lake.duckdbExtensionDir);
});

/** Reads lake files (table metadata): S3 in AWS, the warehouse directory locally. */
export const lakeStorage = once((): LakeStorage => (getConfig().profile === 'aws' ? new S3LakeStorage(new S3Client({})) : new FsLakeStorage()));

/** The lake writer (pyiceberg): a Python Lambda in AWS, a subprocess locally. */
export const lakeWriter = once((): LakeWriter => {
  const config = getConfig();
  if (config.profile === 'aws') {
    if (!config.lake.lakeWriterFunction) throw new Error('configuration: the lake writer function is not bound to this function');
    return new LambdaLakeWriter(new LambdaClient({}), config.lake.lakeWriterFunction);
  }
  return new SubprocessLakeWriter(config.lake.pythonBin as string, REPO_ROOT, config.home);
});
