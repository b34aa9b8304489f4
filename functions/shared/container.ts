/**
 * @module container
 * The composition root: builds each port once per cold start from configuration, choosing AWS or
 * local adapters. Handlers ask for the ports they need; nothing here runs on the request path
 * after the first use.
 */
import { GlueClient } from '@aws-sdk/client-glue';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { S3Client } from '@aws-sdk/client-s3';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Authorizer } from '#domain/auth/authorize';
import type { BlobStore, EventStore } from '#domain/lineage/ports';
import type { KeyStore, OrgStore } from '#domain/orgs/org';
import { DirectoryBlobStore } from '#adapters/blob/directory-blob-store';
import { S3BlobStore } from '#adapters/blob/s3-blob-store';
import { DynamoEventStore } from '#adapters/dynamodb/event-store';
import { DynamoKeyStore } from '#adapters/dynamodb/key-store';
import { DynamoOrgStore } from '#adapters/dynamodb/org-store';
import { GlueCatalog } from '#adapters/aws/glue-catalog';
import { LambdaLakeWriter } from '#adapters/aws/lambda-lake-writer';
import { S3LakeStorage } from '#adapters/aws/s3-lake-storage';
import { FsLakeStorage } from '#adapters/local/fs-lake-storage';
import { SqliteCatalog } from '#adapters/local/sqlite-catalog';
import { SubprocessLakeWriter } from '#adapters/local/subprocess-lake-writer';
import type { Catalog, LakeStorage, LakeWriter } from '#domain/lake/catalog';
import { DuckDBQueryEngine } from '#adapters/duckdb/engine';
import { s3SecretStatements } from '#adapters/duckdb/s3-secret';
import { TempDirectoryScratch } from '#adapters/duckdb/result-scratch';
import { EventStoreLineageSink, type LineageSink } from '#domain/lineage-capture/index';
import type { LegacyQueryDeps, ScratchSpace } from '#domain/query/legacy-query';
import { createDocumentClient, createDynamoClient } from './clients.ts';
import { getConfig, REPO_ROOT, tableName } from './config.ts';
import { logger } from './observability.ts';
import { EVENTS_TABLE, KEYS_TABLE, ORGS_TABLE } from './table-definitions.ts';

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

/**
 * The blob store for raw bodies of large events: the bucket in AWS (only functions granted
 * `blobs` have it), `<home>/blobs/` locally.
 */
export const blobStore = once((): BlobStore => {
  const config = getConfig();
  if (config.profile === 'local') return new DirectoryBlobStore(path.join(config.home, 'blobs'));
  if (!config.blobBucket) throw new Error('configuration: no blob bucket is bound to this function (LAKELINE_BLOB_BUCKET unset)');
  return new S3BlobStore(new S3Client({}), config.blobBucket);
});

/** Lineage event store; it resolves the blob store only when a large body is written or read. */
export const eventStore = once((): EventStore => new DynamoEventStore(documentClient(), tableName(getConfig(), EVENTS_TABLE), blobStore));

/**
 * The DuckDB engine of the legacy and routed endpoints: extension files from the layer
 * (`/opt/duckdb-extensions`) or the local set-up; in AWS it also loads httpfs and reads S3 with
 * the function's role.
 */
export const queryEngine = once((): DuckDBQueryEngine => {
  const config = getConfig();
  if (config.profile === 'aws') {
    return new DuckDBQueryEngine({ extensionDir: config.lake.duckdbExtensionDir, extraExtensions: ['httpfs'], setupStatements: () => s3SecretStatements() });
  }
  return new DuckDBQueryEngine({ extensionDir: config.lake.duckdbExtensionDir });
});

/** Starts preparing the engine's first instance (handlers call it at cold start). */
export const warmQueryEngine = (): void => {
  try {
    queryEngine().warm();
  } catch (err) {
    // A misconfiguration surfaces on the first request, with the request's error handling.
    logger.warn('query engine not warmed', { error: err });
  }
};

/** Lineage capture: the org's own event store. */
export const lineageSink = once((): LineageSink => new EventStoreLineageSink(eventStore()));

/**
 * Local staging for autosaved results (the subprocess lake writer reads local files). In AWS the
 * lake writer Lambda cannot read this function's /tmp, so there is none and autosave says so.
 */
export const scratchSpace = once((): ScratchSpace | undefined => (getConfig().profile === 'local' ? new TempDirectoryScratch() : undefined));

/** Everything the legacy warehouse query needs. */
export const legacyQueryDeps = once(
  (): LegacyQueryDeps => {
    const scratch = scratchSpace();
    return {
      orgs: orgStore(),
      catalog: catalog(),
      storage: lakeStorage(),
      writer: lakeWriter(),
      engine: queryEngine(),
      lineage: lineageSink(),
      catalogKind: getConfig().profile === 'aws' ? 'glue' : 'jdbc',
      ...(scratch ? { scratch } : {}),
      warn: (message, fields) => logger.warn(message, fields),
      newRunId: () => randomUUID(),
    };
  },
);
