/**
 * @module dynamo-backends
 * The DynamoDB APIs the store suites run on, with the same assertions on each: dynalite (the local
 * profile's store, in the shared local stack) and the AWS emulator's DynamoDB (moto), so the
 * adapters are held to one behaviour — keys, GSIs, conditional writes, transactions — on both.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { createDocumentClient, localDynamoClient, type DynamoClientOptions } from '#adapters/dynamodb/clients';
import { localTableName } from '#composition/config';
import type { TableDefinition } from '#shared/table-definitions';
import { awsClientConfig } from '../aws/emulator.ts';

/** The backends every store suite runs on. */
export const DYNAMO_BACKENDS = ['dynalite', 'moto'] as const;

/** One of {@link DYNAMO_BACKENDS}. */
export type DynamoBackendName = (typeof DYNAMO_BACKENDS)[number];

/** An open backend: the service's own document client on it, and its tables' names. */
export interface DynamoBackend {
  readonly name: DynamoBackendName;
  readonly client: DynamoDBClient;
  readonly doc: DynamoDBDocumentClient;
  /** A plain client with `cacheMiddleware`, as the profiles give the event store for single writes. */
  readonly putClient: DynamoDBClient;
  /** The name of a table there (the same in both: the test set-up creates them). */
  tableName(def: TableDefinition): string;
  /** Releases the client's sockets. */
  close(): void;
}

/**
 * Opens a backend: dynalite through the local profile's clients (as the stack builds them), moto
 * through plain SDK clients with the emulator's endpoint, as the AWS profile's clients would be
 * with `AWS_ENDPOINT_URL` set.
 */
export const openDynamoBackend = (name: DynamoBackendName): DynamoBackend => {
  const open = (options: DynamoClientOptions = {}) =>
    name === 'dynalite' ? localDynamoClient(inject('stack').dynamodbEndpoint, options) : new DynamoDBClient({ ...awsClientConfig(inject('aws')), maxAttempts: 3, ...options });
  const client = open();
  const putClient = open({ cacheMiddleware: true });
  return {
    name,
    client,
    doc: createDocumentClient(client),
    putClient,
    tableName: localTableName,
    close: () => {
      client.destroy();
      putClient.destroy();
    },
  };
};
