/**
 * The authorizer Lambda (handlers/authorizer.ts) on the real local store: it always answers
 * `isAuthorized: true` (the gateway's own 401/403 bodies cannot match the contract) and carries
 * either the principal or the denial reason in its context; whether a cookie counts depends on the
 * route the request is for.
 */
import type { APIGatewayRequestAuthorizerEventV2, APIGatewaySimpleAuthorizerWithContextResult } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { generateApiKey } from '#domain/core/api-key';
import { createSessionToken, SESSION_COOKIE } from '#domain/core/session';
import { DYNAMODB_ENDPOINT_ENV, HOME_ENV, LOG_LEVEL_ENV, PROFILE_ENV, SESSION_SECRET_ENV } from '#composition/env-names';
import { ROUTES, type RouteDefinition } from '#shared/routes';
import { authorizerEvent } from '../helpers/events.ts';
import { orgWithKey, storesAt, type LocalStores } from '../helpers/stores.ts';

type AuthorizerHandler = (event: APIGatewayRequestAuthorizerEventV2) => Promise<APIGatewaySimpleAuthorizerWithContextResult<Record<string, string>>>;

const SECRET = 'handler-test-secret';
const savedEnv = { ...process.env };
const route = (id: string): RouteDefinition => ROUTES.find((r) => r.id === id) as RouteDefinition;

let handler: AuthorizerHandler;
let stores: LocalStores;
let orgId: string;
let token: string;
let keyId: string;

beforeAll(async () => {
  const stack = inject('stack');
  Object.assign(process.env, {
    [PROFILE_ENV]: 'local',
    [HOME_ENV]: stack.home,
    [DYNAMODB_ENDPOINT_ENV]: stack.dynamodbEndpoint,
    [SESSION_SECRET_ENV]: SECRET,
    [LOG_LEVEL_ENV]: 'error',
  });
  stores = storesAt(stack.dynamodbEndpoint);
  ({ org: { orgId }, token, keyId } = await orgWithKey(stores));
  ({ handler } = (await import('#handlers/authorizer')) as { handler: AuthorizerHandler });
});

afterAll(() => {
  stores.close();
  process.env = savedEnv;
});

describe('authorizer handler', () => {
  it('Should authorize a valid key and put its org and key id in the context', async () => {
    // Act
    const result = await handler(authorizerEvent(route('PostLineage'), { headers: { authorization: `Bearer ${token}` } }));
    // Assess
    expect(result).toEqual({ isAuthorized: true, context: { orgId, authKind: 'key', keyId, scope: 'full' } });
  });

  it('Should read the Authorization header whatever the case of its name', async () => {
    // Act
    const result = await handler(authorizerEvent(route('PostLineage'), { headers: { AUTHORIZATION: `Bearer ${token}` } }));
    // Assess
    expect(result.context).toMatchObject({ orgId });
  });

  it.each([
    ['no credentials', {}, 'no credentials'],
    ['an unknown key', { headers: { authorization: `Bearer ${generateApiKey().token}` } }, 'unknown API key'],
    ['a malformed key', { headers: { authorization: 'Bearer nope' } }, 'malformed API key'],
  ])('Should still answer isAuthorized true for %s, with the denial in the context', async (_case, parts, reason) => {
    // Act
    const result = await handler(authorizerEvent(route('PostLineage'), parts));
    // Assess
    expect(result).toEqual({ isAuthorized: true, context: { denied: reason } });
  });

  it.each(['GetEvents', 'PostQuery', 'PostWarehouseQuery'])('Should accept a session cookie on %s', async (routeId) => {
    // Prepare
    const cookie = createSessionToken(orgId, SECRET, new Date(), 60);
    // Act
    const result = await handler(authorizerEvent(route(routeId), { cookies: [`${SESSION_COOKIE}=${cookie}`] }));
    // Assess
    expect(result).toEqual({ isAuthorized: true, context: { orgId, authKind: 'session', keyId: '', scope: 'full' } });
  });

  it.each(ROUTES.filter((r) => r.auth === 'key').map((r) => r.id))('Should refuse a session cookie on %s', async (routeId) => {
    // Prepare
    const cookie = createSessionToken(orgId, SECRET, new Date(), 60);
    // Act
    const result = await handler(authorizerEvent(route(routeId), { cookies: [`${SESSION_COOKIE}=${cookie}`] }));
    // Assess
    expect(result).toEqual({ isAuthorized: true, context: { denied: 'session credentials are not accepted on this endpoint' } });
  });

  it('Should refuse a session cookie on a route key it does not know', async () => {
    // Prepare
    const cookie = createSessionToken(orgId, SECRET, new Date(), 60);
    const event = { ...authorizerEvent(route('GetEvents'), { cookies: [`${SESSION_COOKIE}=${cookie}`] }), routeKey: 'GET /api/v9/unknown' };
    // Act
    const result = await handler(event);
    // Assess
    expect(result.context).toEqual({ denied: 'session credentials are not accepted on this endpoint' });
  });
});
