/**
 * @module authorizer
 * The API Gateway REQUEST authorizer (payload 2.0, simple responses). It always answers
 * `isAuthorized: true` and puts either the principal or the denial reason in the context: HTTP APIs
 * cannot customize the gateway's own 401/403 bodies, so the shared middleware answers the
 * contract's exact 401 instead (docs/adr/0005-authorizer-always-authorizes.md). When a store fails it says so
 * in the context too, and the handler answers 503.
 */
import type { APIGatewayRequestAuthorizerEventV2, APIGatewaySimpleAuthorizerWithContextResult } from 'aws-lambda';
import type { AuthDecision } from '#domain/auth/authorize';
import { toAuthorizerContext, UNAVAILABLE_CONTEXT, type AuthorizerContext } from '#domain/auth/principal';
import { authorizer } from '#composition/index';
import { logger } from '#shared/observability';
import { findRouteByKey } from '#shared/routes';

/** Lambda entry point. */
export const handler = async (event: APIGatewayRequestAuthorizerEventV2): Promise<APIGatewaySimpleAuthorizerWithContextResult<AuthorizerContext>> => {
  const route = findRouteByKey(event.routeKey);
  const authorization = Object.entries(event.headers ?? {}).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
  let decision: AuthDecision;
  try {
    decision = await (await authorizer()).authorize({
      ...(authorization === undefined ? {} : { authorization }),
      cookies: event.cookies ?? [],
      sessionAllowed: route?.auth === 'key-or-session',
    });
  } catch (error) {
    // A throw here would be the gateway's own 500 with a body the contract does not know; the
    // handler answers 503 in the endpoint's error style instead (shared/middleware.ts).
    logger.error('authorizer could not decide', { routeKey: event.routeKey, error });
    return { isAuthorized: true, context: UNAVAILABLE_CONTEXT };
  }
  if (!decision.ok) logger.info('request denied', { routeKey: event.routeKey, reason: decision.reason });
  return { isAuthorized: true, context: toAuthorizerContext(decision) };
};
