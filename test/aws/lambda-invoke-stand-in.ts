/**
 * @module lambda-invoke-stand-in
 * Lambda's `Invoke` API on a loopback port, for the functions the emulator cannot run (moto runs
 * Lambda only in Docker). It speaks the REST API the SDK's Lambda client calls —
 * `POST /2015-03-31/functions/{FunctionName}/invocations` — and runs the function's real handler
 * as the runtime would (lambda-stand-in.ts), so the product's own `LambdaClient` and adapters are
 * exercised unchanged: the AWS profile reaches this through the SDK's standard per-service endpoint
 * variable (`AWS_ENDPOINT_URL_LAMBDA`), every other service still through the emulator.
 *
 * What it answers is what Lambda answers for a synchronous (`RequestResponse`) invocation:
 * - the handler's JSON answer, 200;
 * - an exception the handler did not catch: 200 with `X-Amz-Function-Error: Unhandled` and the
 *   runtime's error document as the payload;
 * - an answer over the 6 MB response limit: 200 with `X-Amz-Function-Error: Unhandled` and
 *   `Function.ResponseSizeTooLarge` (the handler ran; its answer is lost);
 * - a payload over the 6 MB request limit: 413 `RequestEntityTooLargeException` (nothing ran);
 * - a payload that is not JSON: 400 `InvalidRequestContentException`;
 * - a function that does not exist: 404 `ResourceNotFoundException`.
 * The limits and messages are Lambda's own (its quotas page and the errors it returns).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runPythonHandler, type PythonFunction } from './lambda-stand-in.ts';

/** Lambda's limit on a synchronous invocation's request payload, in bytes (6 MiB). */
export const MAX_REQUEST_BYTES = 6_291_456;
/** Lambda's limit on a synchronous invocation's response payload, in bytes, as its error states it. */
export const MAX_RESPONSE_BYTES = 6_291_556;

const ACCOUNT = '123456789012';
const INVOCATIONS = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/;

/** One invocation the stand-in served. */
export interface Invocation {
  readonly functionName: string;
  /** The request payload as parsed JSON (absent when it was not JSON or too large). */
  readonly payload?: unknown;
  readonly payloadBytes: number;
  readonly status: number;
  readonly functionError?: string;
}

/** A running stand-in. */
export interface LambdaInvokeStandIn {
  /** `http://127.0.0.1:<port>`: the value for `AWS_ENDPOINT_URL_LAMBDA` or a client's `endpoint`. */
  readonly endpoint: string;
  /** Every invocation served, in order. */
  readonly invocations: readonly Invocation[];
  stop(): Promise<void>;
}

/** A function name as `Invoke` takes it: a name, a partial or full ARN, with or without a qualifier. */
const nameOf = (raw: string): string => {
  const name = decodeURIComponent(raw);
  const arn = /^(?:arn:aws[\w-]*:lambda:[\w-]+:)?(?:\d{12}:)?(?:function:)?([\w-]+)(?::[\w$-]+)?$/.exec(name);
  return arn?.[1] ?? name;
};

const readBody = (request: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });

/** A REST-JSON error as Lambda's front end sends it: the type in `x-amzn-ErrorType`, the message in the body. */
const sendError = (response: ServerResponse, requestId: string, status: number, type: string, message: string): void => {
  response.writeHead(status, { 'content-type': 'application/json', 'x-amzn-requestid': requestId, 'x-amzn-errortype': type });
  response.end(JSON.stringify({ Type: 'User', message }));
};

/** Starts the stand-in for the given functions (by name); resolves once it listens. */
export const startLambdaInvokeStandIn = async (functions: Readonly<Record<string, PythonFunction>>): Promise<LambdaInvokeStandIn> => {
  const invocations: Invocation[] = [];
  const serve = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const requestId = randomUUID();
    const route = INVOCATIONS.exec(new URL(request.url ?? '/', 'http://stand-in').pathname);
    if (request.method !== 'POST' || !route) return sendError(response, requestId, 404, 'UnknownOperationException', `the stand-in serves Invoke only, not ${request.method} ${request.url}`);
    const functionName = nameOf(route[1] as string);
    const body = await readBody(request);
    const record = (status: number, extra: Partial<Invocation> = {}) => invocations.push({ functionName, payloadBytes: body.length, status, ...extra });
    const fn = functions[functionName];
    if (!fn) {
      record(404);
      return sendError(response, requestId, 404, 'ResourceNotFoundException', `Function not found: arn:aws:lambda:us-east-1:${ACCOUNT}:function:${functionName}`);
    }
    if (body.length > MAX_REQUEST_BYTES) {
      record(413);
      return sendError(response, requestId, 413, 'RequestEntityTooLargeException', `Request must be smaller than ${MAX_REQUEST_BYTES} bytes for the InvokeFunction operation`);
    }
    const invocationType = String(request.headers['x-amz-invocation-type'] ?? 'RequestResponse');
    if (invocationType !== 'RequestResponse') return sendError(response, requestId, 400, 'InvalidParameterValueException', `the stand-in serves RequestResponse invocations only, not ${invocationType}`);
    let payload: unknown;
    try {
      payload = body.length === 0 ? {} : JSON.parse(body.toString('utf8'));
    } catch {
      record(400);
      return sendError(response, requestId, 400, 'InvalidRequestContentException', 'Could not parse request body into json: Could not parse payload into json');
    }
    const outcome = await runPythonHandler(fn, payload);
    let functionError: string | undefined;
    let answer = 'error' in outcome ? JSON.stringify({ ...outcome.error, requestId }) : JSON.stringify(outcome.answer);
    if ('error' in outcome) functionError = 'Unhandled';
    else if (Buffer.byteLength(answer) > MAX_RESPONSE_BYTES) {
      functionError = 'Unhandled';
      answer = JSON.stringify({ errorMessage: `Response payload size exceeded maximum allowed payload size (${MAX_RESPONSE_BYTES} bytes).`, errorType: 'Function.ResponseSizeTooLarge' });
    }
    record(200, { payload, ...(functionError ? { functionError } : {}) });
    response.writeHead(200, {
      'content-type': 'application/json',
      'x-amzn-requestid': requestId,
      'x-amz-executed-version': '$LATEST',
      ...(functionError ? { 'x-amz-function-error': functionError } : {}),
    });
    response.end(answer);
  };
  const server = createServer((request, response) => {
    serve(request, response).catch((error: unknown) => sendError(response, 'stand-in', 500, 'ServiceException', String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    invocations,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
