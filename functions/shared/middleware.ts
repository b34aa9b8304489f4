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
import { ExecutionError, ServiceUnavailableError, UnauthorizedError, type DomainError } from '#domain/errors';
import { fromAuthorizerContext, isUndecided, type AuthorizerContext, type Principal } from '#domain/auth/principal';
import { maxResponseBytesOf } from '#composition/config';
import { errorResponse, type HttpResult } from './http-errors.ts';
import { logger } from './observability.ts';
import { header } from './request.ts';
import { ROUTES, type RouteDefinition } from './routes.ts';

/** The event every HTTP handler receives. */
export type ApiEvent = APIGatewayProxyEventV2WithLambdaAuthorizer<AuthorizerContext>;

/** What a handler body works with. */
export interface ApiRequest {
  readonly event: ApiEvent;
  readonly route: RouteDefinition;
  /** The caller; always set on authenticated routes. */
  readonly principal: Principal;
  readonly query: Readonly<Record<string, string | undefined>>;
  readonly pathParameters: Readonly<Record<string, string | undefined>>;
}

/** Bodies at least this long are gzip-compressed for callers that accept it (smaller ones gain little). */
export const COMPRESS_MIN_BYTES = 8 * 1024;

/**
 * What a route says when its answer would exceed the response limit even compressed: an error in
 * the route's own terms (the events endpoint names `limit`). Routes without one answer 500.
 */
export type TooLargeExplainer = (result: HttpResult, size: { readonly sentBytes: number; readonly maxBytes: number; readonly compressed: boolean }) => DomainError;

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

const routeById = (id: string): RouteDefinition => {
  const route = ROUTES.find((r) => r.id === id);
  if (!route) throw new Error(`unknown route id ${id}`);
  return route;
};

/**
 * Wraps a handler body for a route. Authentication is enforced here for every route whose auth is
 * not `none`, before the body runs: a body can never see a request without a principal, nor a
 * session principal on a route that takes API keys only.
 *
 * @param routeId - the route's id in ROUTES (throws at module load when unknown)
 * @param body - the handler's work; returns the response, throws DomainErrors for 4xx
 * @param tooLarge - the route's error for an answer above the response limit (see {@link TooLargeExplainer})
 */
export const httpHandler = (routeId: string, body: (request: ApiRequest) => Promise<HttpResult>, tooLarge?: TooLargeExplainer) => {
  const route = routeById(routeId);
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
      const result = await body({
        event,
        route,
        principal: principal ?? { orgId: '', authKind: 'key' },
        query: event.queryStringParameters ?? {},
        pathParameters: event.pathParameters ?? {},
      });
      const gzip = acceptsGzip(event);
      const { lambda, sentBytes } = encodeResult(result, gzip);
      const maxBytes = maxResponseBytesOf();
      if (maxBytes !== undefined && sentBytes > maxBytes) {
        throw tooLarge?.(result, { sentBytes, maxBytes, compressed: gzip }) ?? new ExecutionError(`the answer (${sentBytes} bytes) is larger than a response can carry (${maxBytes} bytes)`);
      }
      return lambda;
    });
};
