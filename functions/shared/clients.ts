/**
 * @module clients
 * AWS SDK clients, built once per process from configuration. Locally the DynamoDB client points
 * at dynalite with dummy credentials; everything else about it is the same code path.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { Agent } from 'node:http';
import type { Config } from './config.ts';

/** Builds the low-level DynamoDB client for a profile. */
export const createDynamoClient = (config: Pick<Config, 'profile' | 'dynamodbEndpoint'>): DynamoDBClient => {
  if (config.profile === 'local') {
    return new DynamoDBClient({
      endpoint: config.dynamodbEndpoint,
      region: 'local',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      // Keep-alive and a deep socket pool: the local store is on loopback and ingestion is concurrent.
      requestHandler: new NodeHttpHandler({ httpAgent: new Agent({ keepAlive: true, maxSockets: 64 }) }),
      maxAttempts: 3,
    });
  }
  return new DynamoDBClient({ maxAttempts: 3 });
};

/** Wraps a client in the document client with the marshalling options the stores rely on. */
export const createDocumentClient = (client: DynamoDBClient): DynamoDBDocumentClient =>
  DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertEmptyValues: false },
    unmarshallOptions: { wrapNumbers: false },
  });
