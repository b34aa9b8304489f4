/**
 * @module dynamodb/clients
 * The DynamoDB clients the stores run on: DynamoDB itself in AWS, the local DynamoDB (dynalite) at
 * an endpoint locally (dummy credentials, a bounded wait), and the document client with the
 * marshalling options every store relies on.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { Agent } from 'node:http';

/**
 * Locally, how long the store may stay silent on one request before it is abandoned (and retried,
 * three attempts in all). A hung store (stopped, swapping) then gets a 503 with the endpoint's own
 * body, which OpenLineage clients retry, well inside the gateway's 29 s even for an endpoint that
 * makes a few store calls; a dead one is restarted by the stack (local/dynamo.ts). DynamoDB itself
 * keeps the SDK's defaults: the Lambda timeout bounds it there.
 */
const LOCAL_STORE_REQUEST_TIMEOUT_MS = 3_000;

/** DynamoDB of the function's region, with the function's role. */
export const awsDynamoClient = (): DynamoDBClient => new DynamoDBClient({ maxAttempts: 3 });

/**
 * Signs requests to the local store without computing a signature. dynalite checks that a request
 * carries a well-formed SigV4 `Authorization` header and a current `X-Amz-Date`, never the
 * signature itself, so the HMACs of every request to a loopback store were pure cost: 5–7% of
 * the stack process's CPU under ingestion (profiled with bench/lineage-ingest.ts). The header
 * names the local credential's scope and an all-zero signature.
 */
export class LocalStoreSigner {
  async sign<R extends { headers: Record<string, string> }>(request: R, options: { signingDate?: Date } = {}): Promise<R> {
    const amzDate = (options.signingDate ?? new Date()).toISOString().replace(/[-:]|\.\d{3}/g, '');
    request.headers['x-amz-date'] = amzDate;
    request.headers.authorization = `AWS4-HMAC-SHA256 Credential=local/${amzDate.slice(0, 8)}/local/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=${'0'.repeat(64)}`;
    return request;
  }
}

/** The local DynamoDB API at `endpoint`. */
export const localDynamoClient = (endpoint: string): DynamoDBClient =>
  new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    signerConstructor: LocalStoreSigner,
    // Keep-alive and a deep socket pool: the local store is on loopback and ingestion is concurrent.
    requestHandler: new NodeHttpHandler({ httpAgent: new Agent({ keepAlive: true, maxSockets: 64 }), requestTimeout: LOCAL_STORE_REQUEST_TIMEOUT_MS, throwOnRequestTimeout: true }),
    maxAttempts: 3,
  });

/** Wraps a client in the document client with the marshalling options the stores rely on. */
export const createDocumentClient = (client: DynamoDBClient): DynamoDBDocumentClient =>
  DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertEmptyValues: false },
    unmarshallOptions: { wrapNumbers: false },
  });
