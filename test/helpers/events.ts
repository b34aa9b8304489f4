/**
 * @module events
 * API Gateway HTTP API (payload 2.0) events for handler tests: the base shapes are defined once
 * and each case spreads what it changes. The shapes follow what API Gateway (and the local
 * gateway, local/gateway.ts) builds.
 */
import type { APIGatewayProxyStructuredResultV2, APIGatewayRequestAuthorizerEventV2, Context } from 'aws-lambda';
import type { ApiEvent } from '#shared/middleware';
import { routeKey, type RouteDefinition } from '#shared/routes';

/** Sample values for path placeholders, so every route has a concrete path. */
const SAMPLE_PATH_VALUES: Readonly<Record<string, string>> = {
  run_id: '3f2504e0-4f89-41d3-9a0c-0305e82c3301',
  namespace: 'analytics',
  table: 'orders',
};

/** The route's path with its `{param}` placeholders filled in. */
export const samplePath = (route: Pick<RouteDefinition, 'path'>): string =>
  route.path.replace(/\{(\w+)\}/g, (_m, name: string) => SAMPLE_PATH_VALUES[name] ?? 'x');

const pathParametersOf = (route: Pick<RouteDefinition, 'path'>): Record<string, string> | undefined => {
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
  return names.length ? Object.fromEntries(names.map((n) => [n, SAMPLE_PATH_VALUES[n] ?? 'x'])) : undefined;
};

/** Parts of an event a test may set. */
export interface EventParts {
  readonly headers?: Record<string, string>;
  readonly cookies?: string[];
  readonly body?: string;
  readonly isBase64Encoded?: boolean;
  readonly queryStringParameters?: Record<string, string>;
  /** The authorizer's context; omitted means no authorizer ran. */
  readonly authorizer?: Record<string, string>;
}

/** A handler event for a route, as the gateway passes it after the authorizer. */
export const apiEvent = (route: RouteDefinition, parts: EventParts = {}): ApiEvent => {
  const path = samplePath(route);
  const pathParameters = pathParametersOf(route);
  return {
    version: '2.0',
    routeKey: routeKey(route),
    rawPath: path,
    rawQueryString: new URLSearchParams(parts.queryStringParameters ?? {}).toString(),
    headers: { 'content-type': 'application/json', ...parts.headers },
    ...(parts.cookies ? { cookies: parts.cookies } : {}),
    ...(parts.queryStringParameters ? { queryStringParameters: parts.queryStringParameters } : {}),
    ...(pathParameters ? { pathParameters } : {}),
    ...(parts.body === undefined ? {} : { body: parts.body }),
    isBase64Encoded: parts.isBase64Encoded ?? false,
    requestContext: {
      accountId: '000000000000',
      apiId: 'test',
      domainName: 'test.local',
      domainPrefix: 'test',
      http: { method: route.method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'vitest' },
      requestId: 'test-request',
      routeKey: routeKey(route),
      stage: '$default',
      time: new Date(0).toUTCString(),
      timeEpoch: 0,
      ...(parts.authorizer ? { authorizer: { lambda: parts.authorizer } } : {}),
    },
  } as unknown as ApiEvent;
};

/** The authorizer's event for a request to a route (REQUEST authorizer, payload 2.0). */
export const authorizerEvent = (route: RouteDefinition, parts: Pick<EventParts, 'headers' | 'cookies'> = {}): APIGatewayRequestAuthorizerEventV2 => {
  const { requestContext, ...rest } = apiEvent(route, parts);
  return {
    ...rest,
    type: 'REQUEST',
    routeArn: `arn:aws:execute-api:local:000000000000:test/$default/${route.method}${samplePath(route)}`,
    identitySource: [],
    requestContext,
  } as unknown as APIGatewayRequestAuthorizerEventV2;
};

/** A Lambda context good enough for middy. */
export const lambdaContext = (): Context =>
  ({
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'test',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:local:000000000000:function:test',
    memoryLimitInMB: '512',
    awsRequestId: 'test',
    logGroupName: '/aws/lambda/test',
    logStreamName: 'test',
    getRemainingTimeInMillis: () => 29_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  }) as Context;

/** A handler's result with its body parsed. */
export interface ParsedResult {
  readonly statusCode: number;
  readonly headers: Record<string, unknown>;
  readonly body: unknown;
}

/** Parses a structured result's JSON body. */
export const parseResult = (result: APIGatewayProxyStructuredResultV2 | string | object | undefined): ParsedResult => {
  const r = result as APIGatewayProxyStructuredResultV2;
  return { statusCode: r.statusCode ?? 200, headers: (r.headers ?? {}) as Record<string, unknown>, body: r.body ? JSON.parse(r.body) : undefined };
};
