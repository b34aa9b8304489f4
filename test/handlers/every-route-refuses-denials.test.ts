/**
 * The safety net of the authorizer design (docs/adr/0005-authorizer-always-authorizes.md): the authorizer
 * always answers `isAuthorized: true` and puts a denial in the context, so every handler must
 * refuse such a request itself. This walks the route table, imports each route's real handler
 * module and sends it a denied request, a request with no authorizer context, and (on key-only
 * routes) a session principal. A new route whose handler skips the shared middleware fails here.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it, vi, type MockInstance } from 'vitest';
import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { UNAVAILABLE_CONTEXT } from '#domain/auth/principal';
import { DYNAMODB_ENDPOINT_ENV, HOME_ENV, LOG_LEVEL_ENV, PROFILE_ENV, SESSION_SECRET_ENV } from '#composition/env-names';
import { CONTRACTS } from '#shared/contracts';
import { ROUTES, type RouteDefinition } from '#shared/routes';
import { apiEvent, lambdaContext, parseResult } from '../helpers/events.ts';

type Handler = (event: unknown, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

const PROTECTED = ROUTES.filter((r) => r.auth !== 'none');
const KEY_ONLY = ROUTES.filter((r) => r.auth === 'key');
const handlers = new Map<string, Handler>();
const savedEnv = { ...process.env };

/** The contract's 401 body: `{error: "Unauthorized"}`, plus `success: false` on the routed endpoint. */
const unauthorizedBody = (route: RouteDefinition): unknown =>
  route.method === 'POST' && route.path === '/api/v1/query' ? { success: false, error: 'Unauthorized' } : { error: 'Unauthorized' };

beforeAll(async () => {
  // Handlers may build their ports at import; point them at the shared stack's store, as the
  // local gateway does, so importing them needs no other set-up.
  const stack = inject('stack');
  Object.assign(process.env, {
    [PROFILE_ENV]: 'local',
    [HOME_ENV]: stack.home,
    [DYNAMODB_ENDPOINT_ENV]: stack.dynamodbEndpoint,
    [SESSION_SECRET_ENV]: 'test-secret',
    [LOG_LEVEL_ENV]: 'error',
  });
  for (const route of ROUTES) {
    const module = (await import(`../../functions/handlers/${route.handler}.ts`)) as { handler: Handler };
    handlers.set(route.id, module.handler);
  }
});

afterAll(() => {
  process.env = savedEnv;
});

const call = async (route: RouteDefinition, authorizer?: Record<string, string>) => {
  const handler = handlers.get(route.id) as Handler;
  return parseResult(await handler(apiEvent(route, { body: '{}', ...(authorizer ? { authorizer } : {}) }), lambdaContext()));
};

describe('every protected route', () => {
  it('Should cover at least the contract endpoints and the public document', () => {
    // Assess
    expect(PROTECTED.length).toBeGreaterThanOrEqual(9);
    expect(ROUTES.filter((r) => r.auth === 'none').map((r) => r.path)).toEqual(['/openapi.json']);
  });

  it.each(PROTECTED.map((r) => [r.id, r] as const))('Should answer 401 with the contract body when the authorizer denied (%s)', async (_id, route) => {
    // Act
    const response = await call(route, { denied: 'x' });
    // Assess
    expect(response.statusCode).toBe(401);
    expect(response.body).toEqual(unauthorizedBody(route));
  });

  it.each(PROTECTED.map((r) => [r.id, r] as const))('Should answer 401 when no authorizer ran at all (%s)', async (_id, route) => {
    // Act
    const response = await call(route);
    // Assess
    expect(response.statusCode).toBe(401);
    expect(response.body).toEqual(unauthorizedBody(route));
  });

  it.each(PROTECTED.map((r) => [r.id, r] as const))('Should answer 401 to a context that names no org (%s)', async (_id, route) => {
    // Act
    const response = await call(route, { orgId: '', authKind: 'key', keyId: 'k' });
    // Assess
    expect(response.statusCode).toBe(401);
  });

  it.each(KEY_ONLY.map((r) => [r.id, r] as const))('Should answer 401 to a session principal on a key-only route (%s)', async (_id, route) => {
    // Act
    const response = await call(route, { orgId: 'some-org', authKind: 'session', keyId: '' });
    // Assess
    expect(response.statusCode).toBe(401);
    expect(response.body).toEqual(unauthorizedBody(route));
  });

  it.each(ROUTES.filter((r) => r.writes === 'always').map((r) => [r.id, r] as const))('Should answer 403 to a read-only key on a route that always writes, listed in its contract (%s)', async (_id, route) => {
    // Act
    const response = await call(route, { orgId: 'some-org', authKind: 'key', keyId: 'k', scope: 'read' });
    // Assess
    expect(response.statusCode).toBe(403);
    expect(JSON.stringify(response.body)).toContain('read-only');
    expect(CONTRACTS[route.id].errors).toContain(403);
  });
});

describe('every protected route when the authorizer could not decide', () => {
  // A 503 is logged as an error for operators; keep the test output readable.
  let stderr: MockInstance<typeof process.stderr.write>;
  beforeEach(() => {
    stderr = vi.spyOn(process.stderr, 'write').mockReturnValue(true);
  });
  afterEach(() => stderr.mockRestore());

  const expected = (route: RouteDefinition, message: string): unknown =>
    route.errorStyle === 'routed' ? { success: false, error: message } : route.errorStyle === 'polars' ? { error: message, details: message } : { error: message };

  it.each(PROTECTED.map((r) => [r.id, r] as const))('Should answer 503, retry later, in the route error style (%s)', async (_id, route) => {
    // Act
    const response = await call(route, UNAVAILABLE_CONTEXT);
    // Assess
    expect(response.statusCode).toBe(503);
    expect(response.body).toEqual(expected(route, 'Credentials could not be checked right now; retry later.'));
  });
});

describe('the public route', () => {
  it('Should answer GET /openapi.json without any authorizer context', async () => {
    // Prepare
    const route = ROUTES.find((r) => r.auth === 'none') as RouteDefinition;
    // Act
    const response = await call(route);
    // Assess
    expect(response.statusCode).toBe(200);
    expect(response.body).toMatchObject({ openapi: '3.1.0' });
  });
});
