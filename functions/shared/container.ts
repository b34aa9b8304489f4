/**
 * @module container
 * The composition root: builds each port once per cold start from configuration, choosing AWS or
 * local adapters. Handlers ask for the ports they need; nothing here runs on the request path
 * after the first use.
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Authorizer } from '#domain/auth/authorize';
import type { KeyStore, OrgStore } from '#domain/orgs/org';
import { DynamoKeyStore } from '#adapters/dynamodb/key-store';
import { DynamoOrgStore } from '#adapters/dynamodb/org-store';
import { createDocumentClient, createDynamoClient } from './clients.ts';
import { getConfig, tableName } from './config.ts';
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
export const authorizer = once(async (): Promise<Authorizer> => new Authorizer({ keys: keyStore(), orgs: orgStore(), sessionSecret: await sessionSecret() }));
