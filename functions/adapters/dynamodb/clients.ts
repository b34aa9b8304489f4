/**
 * @module dynamodb/clients
 * The DynamoDB clients the stores run on: DynamoDB itself in AWS, the local DynamoDB (dynalite) at
 * an endpoint locally (dummy credentials, a bounded wait), and the document client with the
 * marshalling options every store relies on.
 *
 * Either profile also has a client with the SDK's `cacheMiddleware` for the hottest call, one
 * event's PutItem (see {@link DynamoClientOptions}).
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

/**
 * Options of a client.
 *
 * `cacheMiddleware`: the SDK resolves a command's middleware stack on every send unless told to
 * keep it per command class. The document client refuses that option (lib-dynamodb's commands
 * wrap a new client command per send), so the single-event write goes through a second, plain
 * client that has it, with items marshalled by {@link MARSHALL_OPTIONS}. Measured side by side in
 * one local stack (single-event requests, 16 in flight, four pairs of alternating phases of 1,500):
 * throughput +7% to +22% in every pair, the stack process's CPU per event 0.93–1.22 ms through the
 * document client and 0.75–1.01 ms through the caching one (ADR 0035).
 */
export interface DynamoClientOptions {
  readonly cacheMiddleware?: boolean;
}

/** How items are marshalled: by the document client, and by hand for the plain clients. */
export const MARSHALL_OPTIONS = { removeUndefinedValues: true, convertEmptyValues: false } as const;

/** DynamoDB of the function's region, with the function's role. */
export const awsDynamoClient = (options: DynamoClientOptions = {}): DynamoDBClient => new DynamoDBClient({ maxAttempts: 3, ...options });

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
export const localDynamoClient = (endpoint: string, options: DynamoClientOptions = {}): DynamoDBClient =>
  new DynamoDBClient({
    ...options,
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
    // A copy: lib-dynamodb writes into the options it is given (`convertTopLevelContainer`), which
    // would make `marshall` wrap every item of the plain clients in a map.
    marshallOptions: { ...MARSHALL_OPTIONS },
    unmarshallOptions: { wrapNumbers: false },
  });
