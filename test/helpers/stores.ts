/**
 * @module stores
 * The service's own DynamoDB adapters pointed at a running local stack's DynamoDB (or any DynamoDB
 * with the service's tables), so HTTP tests can set up orgs and keys (and revoke them) the way the
 * CLI would, without going through it.
 */
import { DynamoKeyStore } from '#adapters/dynamodb/key-store';
import { DynamoOrgStore } from '#adapters/dynamodb/org-store';
import { createKey, createOrg, type CreateOrgInput } from '#domain/orgs/manage';
import type { Org } from '#domain/orgs/org';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient, localDynamoClient } from '#adapters/dynamodb/clients';
import { localTableName } from '#composition/config';
import { KEYS_TABLE, ORGS_TABLE } from '#shared/table-definitions';

/** Stores on one local DynamoDB endpoint. */
export interface LocalStores {
  readonly orgs: DynamoOrgStore;
  readonly keys: DynamoKeyStore;
  /** Releases the client's sockets. */
  close(): void;
}

/** The stores over a document client whose DynamoDB has the service's tables under their local names. */
export const storesOn = (backend: { readonly doc: DynamoDBDocumentClient; close(): void }): LocalStores => ({
  orgs: new DynamoOrgStore(backend.doc, localTableName(ORGS_TABLE)),
  keys: new DynamoKeyStore(backend.doc, localTableName(KEYS_TABLE)),
  close: () => backend.close(),
});

/** Opens the stores of a local stack's DynamoDB. */
export const storesAt = (dynamodbEndpoint: string): LocalStores => {
  const client = localDynamoClient(dynamodbEndpoint);
  return storesOn({ doc: createDocumentClient(client), close: () => client.destroy() });
};

/** Creates an org and one API key for it. */
export const orgWithKey = async (
  stores: LocalStores,
  input: Partial<CreateOrgInput> = {},
): Promise<{ org: Org; token: string; keyId: string }> => {
  const org = await createOrg(stores.orgs, { name: 'Test org', ...input });
  const { record, token } = await createKey(stores.orgs, stores.keys, org.orgId, 'test');
  return { org, token, keyId: record.keyId };
};
