/**
 * The shared handler wrapper (shared/middleware.ts): what a handler body receives (the principal
 * with its org, query and path parameters), which principals reach it, and how its results and
 * errors become responses.
 */
import { describe, expect, it, vi } from 'vitest';
import type { ApiRequest } from '#shared/middleware';
import { httpHandler } from '#shared/middleware';
import { ForbiddenError, ValidationError } from '#domain/errors';
import { PostSparkQuery, type RawParams, type RouteContract } from '#shared/contracts';
import { ROUTES, type RouteDefinition, type RouteId } from '#shared/routes';
import { z } from '#shared/schemas/zod';
import { apiEvent, lambdaContext, parseResult, type EventParts } from '../helpers/events.ts';

const route = (id: string): RouteDefinition => ROUTES.find((r) => r.id === id) as RouteDefinition;
/** A contract for a route that reads no body or query: what the wrapper does around any body. */
const bare = (id: string): RouteContract<undefined, RawParams, unknown> => ({ id: id as RouteId, summary: 'test', response: z.unknown(), errors: [] });
const KEY_CONTEXT = { orgId: 'org-1', authKind: 'key', keyId: 'abcdef0123456789' };
const SESSION_CONTEXT = { orgId: 'org-1', authKind: 'session', keyId: '' };

/** Wraps a body that records what it was given, and calls it once. */
const capture = async (routeId: string, parts: EventParts) => {
  let seen: ApiRequest<undefined, RawParams> | undefined;
  const handler = httpHandler(bare(routeId), async (request) => {
    seen = request;
    return { statusCode: 200, body: { ok: true } };
  });
  const response = parseResult(await handler(apiEvent(route(routeId), parts), lambdaContext()));
  return { seen, response };
};

describe('httpHandler: the principal', () => {
  it("Should give the body the caller's org, auth kind and key id from the authorizer context", async () => {
    // Act
    const { seen, response } = await capture('GetRun', { authorizer: KEY_CONTEXT });
    // Assess
    expect(response.statusCode).toBe(200);
    expect(seen?.principal).toEqual({ orgId: 'org-1', authKind: 'key', keyId: 'abcdef0123456789' });
  });

  it.each(['GetEvents', 'PostQuery', 'PostWarehouseQuery'])('Should let a session principal reach the body of %s', async (routeId) => {
    // Act
    const { seen } = await capture(routeId, { authorizer: SESSION_CONTEXT });
    // Assess
    expect(seen?.principal).toEqual({ orgId: 'org-1', authKind: 'session' });
  });

  it('Should not run the body for a denied request', async () => {
    // Act
    const { seen, response } = await capture('GetRun', { authorizer: { denied: 'revoked API key' } });
    // Assess
    expect(seen).toBeUndefined();
    expect(response).toEqual({ statusCode: 401, headers: { 'content-type': 'application/json' }, body: { error: 'Unauthorized' } });
  });

  it.each([
    ['an unknown auth kind', { orgId: 'org-1', authKind: 'admin' }],
    ['a missing auth kind', { orgId: 'org-1' }],
  ])('Should refuse a context with %s', async (_case, authorizer) => {
    // Act
    const { seen, response } = await capture('GetRun', { authorizer });
    // Assess
    expect(seen).toBeUndefined();
    expect(response.statusCode).toBe(401);
  });
});

describe('httpHandler: the request', () => {
  it('Should pass query string and path parameters through', async () => {
    // Act
    const { seen } = await capture('GetTable', { authorizer: KEY_CONTEXT, queryStringParameters: { a: '1' } });
    // Assess
    expect(seen?.query).toEqual({ a: '1' });
    expect(seen?.pathParameters).toEqual({ namespace: 'analytics', table: 'orders' });
    expect(seen?.route.id).toBe('GetTable');
  });

  it("Should read and parse the body with the route's contract, giving the body what it parsed", async () => {
    // Prepare
    let given: unknown;
    const handler = httpHandler(PostSparkQuery, async ({ body }) => {
      given = body;
      return { statusCode: 200, body: { run_id: '00000000-0000-4000-8000-000000000000', job: { namespace: 'n', name: 'j' }, output_table: 'lakeline.a.b', status: 'QUEUED' as const } };
    });
    const event = (body: string, headers: Record<string, string> = {}) => apiEvent(route('PostSparkQuery'), { authorizer: KEY_CONTEXT, body, headers });

    // Act
    const ok = parseResult(await handler(event(JSON.stringify({ namespace: 'n', name: 'j', query: 'SELECT 1', output_table: 'lakeline.a.b' })), lambdaContext()));
    const invalid = parseResult(await handler(event(JSON.stringify({ namespace: 'n', name: 'j', query: 'SELECT 1' })), lambdaContext()));
    const notJson = parseResult(await handler(event('x', { 'content-type': 'text/plain' }), lambdaContext()));
    const tooLarge = parseResult(await handler(event(JSON.stringify({ query: 'x'.repeat(PostSparkQuery.body?.maxBytes ?? 0) })), lambdaContext()));

    // Assess
    expect(ok.statusCode).toBe(200);
    expect(given).toMatchObject({ namespace: 'n', name: 'j', query: 'SELECT 1', output_table: 'lakeline.a.b', executor_numbers: 1 });
    expect(invalid).toMatchObject({ statusCode: 400, body: { error: 'output_table: is required' } });
    expect(notJson.statusCode).toBe(415);
    expect(tooLarge.statusCode).toBe(413);
  });

  it('Should give empty objects when there are no query or path parameters', async () => {
    // Act
    const { seen } = await capture('GetEvents', { authorizer: KEY_CONTEXT });
    // Assess
    expect(seen?.query).toEqual({});
    expect(seen?.pathParameters).toEqual({});
  });
});

describe('httpHandler: responses', () => {
  it('Should serialize the body as JSON and keep extra headers', async () => {
    // Prepare
    const handler = httpHandler(bare('GetRun'), async () => ({ statusCode: 201, body: { a: [1] }, headers: { 'x-extra': 'y' } }));
    // Act
    const result = await handler(apiEvent(route('GetRun'), { authorizer: KEY_CONTEXT }), lambdaContext());
    // Assess
    expect(result).toEqual({ statusCode: 201, headers: { 'content-type': 'application/json', 'x-extra': 'y' }, body: '{"a":[1]}' });
  });

  it('Should send an empty body when the result has none', async () => {
    // Prepare
    const handler = httpHandler(bare('GetRun'), async () => ({ statusCode: 204 }));
    // Act
    const result = await handler(apiEvent(route('GetRun'), { authorizer: KEY_CONTEXT }), lambdaContext());
    // Assess
    expect(result).toMatchObject({ statusCode: 204, body: '' });
  });

  it.each([
    ['PostQuery', { success: false, error: 'plan says no' }],
    ['PostWarehouseQuery', { error: 'plan says no' }],
    ['PostWarehousePolars', { error: 'plan says no', details: 'plan says no' }],
  ])("Should map a domain error thrown by %s's body in that route's error style", async (routeId, body) => {
    // Prepare
    const handler = httpHandler(bare(routeId), async () => {
      throw new ForbiddenError('plan says no');
    });
    // Act
    const response = parseResult(await handler(apiEvent(route(routeId), { authorizer: KEY_CONTEXT }), lambdaContext()));
    // Assess
    expect(response.statusCode).toBe(403);
    expect(response.body).toEqual(body);
  });

  it('Should hide an unexpected error behind a bare 500 and log it for operators', async () => {
    // Prepare
    const stderr = vi.spyOn(process.stderr, 'write').mockReturnValue(true);
    const handler = httpHandler(bare('GetRun'), async () => {
      throw new Error('db password is hunter2');
    });
    // Act
    const result = await handler(apiEvent(route('GetRun'), { authorizer: KEY_CONTEXT }), lambdaContext());
    const lines = stderr.mock.calls.map(([line]) => String(line));
    stderr.mockRestore();
    // Assess
    expect(result).toEqual({ statusCode: 500, headers: { 'content-type': 'application/json' }, body: '{"status":500}' });
    const logged = lines.find((line) => line.includes('request failed'));
    expect(JSON.parse(logged ?? '{}')).toMatchObject({ level: 'error', route: 'GetRun', error: { message: 'db password is hunter2' } });
  });

  it('Should answer a validation error with 400 and its message', async () => {
    // Prepare
    const handler = httpHandler(bare('GetEvents'), async () => {
      throw new ValidationError('start: is required');
    });
    // Act
    const response = parseResult(await handler(apiEvent(route('GetEvents'), { authorizer: KEY_CONTEXT }), lambdaContext()));
    // Assess
    expect(response).toMatchObject({ statusCode: 400, body: { error: 'start: is required' } });
  });

  it('Should refuse an unknown route id when the handler module loads', () => {
    // Act
    const build = () => httpHandler(bare('NoSuchRoute'), async () => ({ statusCode: 200 as const, body: {} }));
    // Assess
    expect(build).toThrow('unknown route id NoSuchRoute');
  });
});
