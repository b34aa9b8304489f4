/**
 * @module middleware
 * The one middy stack every handler is wrapped in: it resolves the caller from the authorizer
 * context (answering the contract's 401 when the authorizer denied), runs the handler, serializes
 * the result as JSON, and maps errors last (see http-errors.ts).
 */
import middy from '@middy/core';
import type { APIGatewayProxyEventV2WithLambdaAuthorizer, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { ServiceUnavailableError, UnauthorizedError } from '#domain/errors';
import { fromAuthorizerContext, isUndecided, type AuthorizerContext, type Principal } from '#domain/auth/principal';
import { errorResponse, type HttpResult } from './http-errors.ts';
import { logger } from './observability.ts';
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

const toLambdaResult = (result: HttpResult): APIGatewayProxyStructuredResultV2 => ({
  statusCode: result.statusCode,
  headers: { 'content-type': 'application/json', ...result.headers },
  body: result.body === undefined ? '' : JSON.stringify(result.body),
});

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
 */
export const httpHandler = (routeId: string, body: (request: ApiRequest) => Promise<HttpResult>) => {
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
      return toLambdaResult(result);
    });
};
