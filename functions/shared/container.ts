/**
 * @module container
 * The composition root of the platform (orgs, keys, sessions, lineage events): builds each port
 * once per cold start from configuration, choosing AWS or local adapters. The lake (catalog,
 * DuckDB, lake writer) has its own root, `container-lake.ts`, so functions that never touch the
 * lake do not bundle it. Handlers ask for the ports they need; nothing here runs on the request path
 * after the first use.
 */
import { S3Client } from '@aws-sdk/client-s3';
import path from 'node:path';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Authorizer } from '#domain/auth/authorize';
import type { BlobStore, EventStore } from '#domain/lineage/ports';
import type { KeyStore, OrgStore } from '#domain/orgs/ports';
import { DirectoryBlobStore } from '#adapters/blob/directory-blob-store';
import { S3BlobStore } from '#adapters/blob/s3-blob-store';
import { DynamoEventStore } from '#adapters/dynamodb/event-store';
import { DynamoKeyStore } from '#adapters/dynamodb/key-store';
import { DynamoOrgStore } from '#adapters/dynamodb/org-store';
import { EventStoreLineageSink } from '#domain/lineage-capture/event-store-sink';
import type { LineageSink } from '#domain/lineage-capture/ports';
import { createDocumentClient, createDynamoClient } from './clients.ts';
import { getConfig, tableName } from './config.ts';
import { once } from './once.ts';
import { EVENTS_TABLE, KEYS_TABLE, ORGS_TABLE } from './table-definitions.ts';

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

/** Lineage capture: the org's own event store. */
export const lineageSink = once((): LineageSink => new EventStoreLineageSink(eventStore()));

