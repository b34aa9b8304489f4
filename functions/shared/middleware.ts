/**
 * @module middleware
 * The one middy stack every handler is wrapped in: it resolves the caller from the authorizer
 * context (answering the contract's 401 when the authorizer denied), runs the handler, serializes
 * the result as JSON — gzip-compressed when the caller accepts it and the body is large, and never
 * larger than the deployment's response limit — and maps errors last (see http-errors.ts).
 */
import { gzipSync } from 'node:zlib';
import middy from '@middy/core';
import type { APIGatewayProxyEventV2WithLambdaAuthorizer, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { ExecutionError, ForbiddenError, ServiceUnavailableError, UnauthorizedError, type DomainError } from '#domain/errors';
import { fromAuthorizerContext, isUndecided, mayWrite, type AuthorizerContext, type Principal } from '#domain/auth/principal';
import { errorResponse, type HttpResult } from './http-errors.ts';
import { logger } from './observability.ts';
import type { RawParams, RouteContract } from './contracts.ts';
import { header, jsonBody, jsonText } from './request.ts';
import { ROUTES, type RouteDefinition, type RouteId } from './routes.ts';
import { checkTextBounds } from './text-bounds.ts';

/** The event every HTTP handler receives. */
export type ApiEvent = APIGatewayProxyEventV2WithLambdaAuthorizer<AuthorizerContext>;

/** What a handler body works with: the request as its contract parsed it. */
export interface ApiRequest<B, Q> {
  readonly event: ApiEvent;
  readonly route: RouteDefinition;
  /** The caller; always set on authenticated routes. */
  readonly principal: Principal;
  /** The body, read and parsed by the route's contract (undefined for a route without one). */
  readonly body: B;
  /** The query string, parsed by the route's contract (the raw parameters for a route without a parser). */
  readonly query: Q;
  readonly pathParameters: RawParams;
}

/** Statuses a handler may answer itself besides 200 (errors thrown are mapped by http-errors.ts). */
type OtherStatus = 201 | 202 | 204 | 400 | 401 | 402 | 403 | 404 | 409 | 413 | 415 | 500 | 501 | 503;

/** `T` with every array and member read-only: domain results are read-only, the schemas' types are not. */
type DeepReadonly<T> = T extends readonly (infer U)[] ? readonly DeepReadonly<U>[] : T extends object ? { readonly [K in keyof T]: DeepReadonly<T[K]> } : T;

/** A handler's answer: a 200 body is the route's response type, so a handler cannot drift from its contract. */
export type ApiAnswer<R> =
  | { readonly statusCode: 200; readonly body: DeepReadonly<R>; readonly headers?: Readonly<Record<string, string>> }
  | { readonly statusCode: OtherStatus; readonly body?: unknown; readonly headers?: Readonly<Record<string, string>> };

/** Bodies at least this long are gzip-compressed for callers that accept it (smaller ones gain little). */
export const COMPRESS_MIN_BYTES = 8 * 1024;

/**
 * What a route says when its answer would exceed the response limit even compressed: an error in
 * the route's own terms (the events endpoint names `limit`). Routes without one answer 500.
 */
export type TooLargeExplainer = (result: HttpResult, size: { readonly sentBytes: number; readonly maxBytes: number; readonly compressed: boolean }) => DomainError;

/** What a deployment tells every handler, built once by the composition root at cold start. */
export interface HttpSettings {
  /** The largest answer the platform carries (Lambda's response limit); undefined: no limit. */
  readonly maxResponseBytes?: number | undefined;
}

/** A route's own options besides its contract and body. */
export interface HttpHandlerOptions extends HttpSettings {
  /** The route's error for an answer above the response limit (see {@link TooLargeExplainer}). */
  readonly tooLarge?: TooLargeExplainer | undefined;
}

/** Whether the request's Accept-Encoding admits gzip (a `q=0` refuses it). */
export const acceptsGzip = (event: Pick<ApiEvent, 'headers'>): boolean =>
  (header(event, 'accept-encoding') ?? '')
    .split(',')
    .map((part) => part.trim().toLowerCase().split(';'))
    .some(([coding, ...params]) => (coding === 'gzip' || coding === '*') && !params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(p)));

/**
 * Serializes a result: JSON, gzip (base64, as Lambda carries binary) when the caller accepts it and
 * the body is at least {@link COMPRESS_MIN_BYTES}. Returns the Lambda result and the bytes it sends.
 */
export const encodeResult = (result: HttpResult, gzip: boolean): { readonly lambda: APIGatewayProxyStructuredResultV2; readonly sentBytes: number } => {
  const json = result.body === undefined ? '' : JSON.stringify(result.body);
  const headers = { 'content-type': 'application/json', ...result.headers };
  if (!gzip || json.length < COMPRESS_MIN_BYTES) return { lambda: { statusCode: result.statusCode, headers, body: json }, sentBytes: Buffer.byteLength(json, 'utf8') };
  const body = gzipSync(json).toString('base64');
  return { lambda: { statusCode: result.statusCode, headers: { ...headers, 'content-encoding': 'gzip', vary: 'accept-encoding' }, body, isBase64Encoded: true }, sentBytes: body.length };
};

const toLambdaResult = (result: HttpResult): APIGatewayProxyStructuredResultV2 => encodeResult(result, false).lambda;

const routeById = (id: RouteId): RouteDefinition => {
  const route = ROUTES.find((r) => r.id === id);
  if (!route) throw new Error(`unknown route id ${id}`);
  return route;
};

/** The body as the contract reads it: strict JSON or text, within its size limit, then its parser. */
const readBody = <B>(event: ApiEvent, contract: RouteContract<B, unknown, unknown>): B => {
  const body = contract.body;
  if (!body) return undefined as B;
  return body.read === 'json' ? body.parse(jsonBody(event, body.maxBytes)) : body.parse(jsonText(event, body.maxBytes));
};

/**
 * Wraps a handler body for a route. Authentication is enforced here for every route whose auth is
 * not `none`, before the body runs: a body can never see a request without a principal, nor a
 * session principal on a route that takes API keys only. Then the request is parsed by the
 * route's contract (a 400, 413 or 415 naming the problem), and the body gets it typed.
 *
 * @param contract - the route's contract (`contracts.ts`); its `id` names the route in ROUTES
 * @param body - the handler's work; returns the response, throws DomainErrors for 4xx
 * @param options - the deployment's settings and the route's error for an answer above the response limit
 */
export const httpHandler = <B, Q, R>(contract: RouteContract<B, Q, R>, body: (request: ApiRequest<B, Q>) => Promise<ApiAnswer<R>>, options: HttpHandlerOptions = {}) => {
  const route = routeById(contract.id);
  const { maxResponseBytes, tooLarge } = options;
  return middy<ApiEvent, APIGatewayProxyStructuredResultV2, Error, Context>({ timeoutEarlyInMillis: 0 })
    .use({
      onError: async (request) => {
        const result = errorResponse(request.error, route.errorStyle);
        if (result.statusCode >= 500) {
          logger.error('request failed', { route: route.id, error: request.error, requestId: request.event?.requestContext?.requestId });
        }
        request.response = toLambdaResult(result);
      },
    })
    .handler(async (event) => {
      const principal = fromAuthorizerContext(event.requestContext?.authorizer?.lambda);
      if (!principal && route.auth !== 'none' && isUndecided(event.requestContext?.authorizer?.lambda)) {
        throw new ServiceUnavailableError('Credentials could not be checked right now; retry later.');
      }
      if (!principal && route.auth !== 'none') {
        throw new UnauthorizedError(event.requestContext?.authorizer?.lambda?.denied ?? 'no authorizer context');
      }
      // The authorizer already refuses cookies on key-only routes; checking again here keeps that
      // rule true even if the authorizer and the route table ever disagree.
      if (principal?.authKind === 'session' && route.auth === 'key') {
        throw new UnauthorizedError('session credentials are not accepted on this endpoint');
      }
      if (principal && route.writes === 'always' && !mayWrite(principal)) {
        throw new ForbiddenError(`this API key is read-only: ${route.method} ${route.path} stores or changes data (use a key created without --read-only)`);
      }
      const rawQuery: RawParams = event.queryStringParameters ?? {};
      const pathParameters: RawParams = event.pathParameters ?? {};
      // The documented bounds first: no parser, store or message ever handles an oversized value.
      if (contract.query) checkTextBounds(contract.query.schema.shape, rawQuery);
      if (contract.params) checkTextBounds(contract.params, pathParameters);
      const result: HttpResult = await body({
        event,
        route,
        principal: principal ?? { orgId: '', authKind: 'key' },
        body: readBody(event, contract),
        query: contract.query ? contract.query.parse(rawQuery) : (rawQuery as Q),
        pathParameters,
      });
      const gzip = acceptsGzip(event);
      const { lambda, sentBytes } = encodeResult(result, gzip);
      if (maxResponseBytes !== undefined && sentBytes > maxResponseBytes) {
        throw (
          tooLarge?.(result, { sentBytes, maxBytes: maxResponseBytes, compressed: gzip }) ??
          new ExecutionError(`the answer (${sentBytes} bytes) is larger than a response can carry (${maxResponseBytes} bytes)`)
        );
      }
      return lambda;
    });
};
