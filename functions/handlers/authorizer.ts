/**
 * @module authorizer
 * The API Gateway REQUEST authorizer (payload 2.0, simple responses). It always answers
 * `isAuthorized: true` and puts either the principal or the denial reason in the context: HTTP APIs
 * cannot customize the gateway's own 401/403 bodies, so the shared middleware answers the
 * contract's exact 401 instead (docs/decisions.md, "Authorizer").
 */
import type { APIGatewayRequestAuthorizerEventV2, APIGatewaySimpleAuthorizerWithContextResult } from 'aws-lambda';
import { toAuthorizerContext, type AuthorizerContext } from '#domain/auth/principal';
import { authorizer } from '#shared/container';
import { logger } from '#shared/observability';
import { findRouteByKey } from '#shared/routes';

/** Lambda entry point. */
export const handler = async (event: APIGatewayRequestAuthorizerEventV2): Promise<APIGatewaySimpleAuthorizerWithContextResult<AuthorizerContext>> => {
  const route = findRouteByKey(event.routeKey);
  const authorization = Object.entries(event.headers ?? {}).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
  const decision = await (await authorizer()).authorize({
    ...(authorization === undefined ? {} : { authorization }),
    cookies: event.cookies ?? [],
    sessionAllowed: route?.auth === 'key-or-session',
  });
  if (!decision.ok) logger.info('request denied', { routeKey: event.routeKey, reason: decision.reason });
  return { isAuthorized: true, context: toAuthorizerContext(decision) };
};
