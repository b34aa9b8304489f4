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

/**
 * Locally, how long the store may stay silent on one request before it is abandoned (and retried,
 * three attempts in all). A hung store (stopped, swapping) then gets a 503 with the endpoint's own
 * body, which OpenLineage clients retry, well inside the gateway's 29 s even for an endpoint that
 * makes a few store calls; a dead one is restarted by the stack (local/dynamo.ts). DynamoDB itself
 * keeps the SDK's defaults: the Lambda timeout bounds it there.
 */
const LOCAL_STORE_REQUEST_TIMEOUT_MS = 3_000;

/** Builds the low-level DynamoDB client for a profile. */
export const createDynamoClient = (config: Pick<Config, 'profile' | 'dynamodbEndpoint'>): DynamoDBClient => {
  if (config.profile === 'local') {
    return new DynamoDBClient({
      endpoint: config.dynamodbEndpoint,
      region: 'local',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      // Keep-alive and a deep socket pool: the local store is on loopback and ingestion is concurrent.
      requestHandler: new NodeHttpHandler({ httpAgent: new Agent({ keepAlive: true, maxSockets: 64 }), requestTimeout: LOCAL_STORE_REQUEST_TIMEOUT_MS, throwOnRequestTimeout: true }),
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
