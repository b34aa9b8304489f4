/**
 * Authentication through HTTP against the shared local stack (gateway, real authorizer, real
 * handlers, real store): every protected route answers the contract's exact 401 to every kind of
 * bad credential, lets a valid key through, and accepts the session cookie on exactly the routed,
 * events and legacy endpoints.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { generateApiKey, hashSecret } from '#domain/core/api-key';
import { createSessionToken, SESSION_COOKIE } from '#domain/core/session';
import { createSession, revokeKey } from '#domain/orgs/manage';
import { ROUTES, type RouteDefinition } from '#shared/routes';
import { samplePath } from '../helpers/events.ts';
import { orgWithKey, storesAt, type LocalStores } from '../helpers/stores.ts';

const stack = inject('stack');
const PROTECTED = ROUTES.filter((r) => r.auth !== 'none');
const SESSION_ROUTES = ROUTES.filter((r) => r.auth === 'key-or-session');
const KEY_ONLY_ROUTES = ROUTES.filter((r) => r.auth === 'key');

/** The contract's 401 body: `{error: "Unauthorized"}`, plus `success: false` on the routed endpoint. */
const unauthorizedBody = (route: RouteDefinition): unknown =>
  route.method === 'POST' && route.path === '/api/v1/query' ? { success: false, error: 'Unauthorized' } : { error: 'Unauthorized' };

/** Sends a plausible request to a route with the given credentials. */
const send = async (route: RouteDefinition, credentials: { authorization?: string; cookie?: string } = {}) => {
  const query = route.id === 'GetEvents' ? '?start=0&end=4102444800' : '';
  const response = await fetch(`${stack.baseUrl}${samplePath(route)}${query}`, {
    method: route.method,
    headers: {
      ...(route.method === 'POST' ? { 'content-type': 'application/json' } : {}),
      ...(credentials.authorization === undefined ? {} : { authorization: credentials.authorization }),
      ...(credentials.cookie === undefined ? {} : { cookie: credentials.cookie }),
    },
    ...(route.method === 'POST' ? { body: '{}' } : {}),
  });
  const text = await response.text();
  return { status: response.status, contentType: response.headers.get('content-type'), body: text ? (JSON.parse(text) as unknown) : undefined };
};

let stores: LocalStores;
let orgId: string;
let validKey: string;
let revokedKey: string;
let wrongSecretKey: string;
let orphanKey: string;
let sessionSecret: string;

beforeAll(async () => {
  stores = storesAt(stack.dynamodbEndpoint);
  sessionSecret = readFileSync(path.join(stack.home, 'session-secret'), 'utf8').trim();
  const valid = await orgWithKey(stores, { name: 'Auth test', plan: 'pro', paymentMethod: true });
  orgId = valid.org.orgId;
  validKey = valid.token;
  wrongSecretKey = `ll_${valid.keyId}_${generateApiKey().secret}`;
  // Revoked before it is ever used, so no warm authorizer holds it in its key cache.
  const revoked = await orgWithKey(stores);
  await revokeKey(stores.keys, revoked.keyId);
  revokedKey = revoked.token;
  // A key whose org is not in the store (written directly: no use case creates one).
  const orphan = generateApiKey();
  await stores.keys.create({ keyId: orphan.keyId, orgId: 'no-such-org', name: 'orphan', secretHash: hashSecret(orphan.secret), createdAt: new Date().toISOString() });
  orphanKey = orphan.token;
});

afterAll(() => stores.close());

describe('bad credentials on every protected route', () => {
  const badCredentials: readonly [string, () => { authorization?: string; cookie?: string }][] = [
    ['no credentials', () => ({})],
    ['an empty Authorization header', () => ({ authorization: '' })],
    ['a malformed key', () => ({ authorization: 'Bearer not-a-key' })],
    ['another scheme', () => ({ authorization: 'Basic dXNlcjpwYXNz' })],
    ['a key without the Bearer scheme', () => ({ authorization: validKey })],
    ['an unknown key', () => ({ authorization: `Bearer ${generateApiKey().token}` })],
    ['a revoked key', () => ({ authorization: `Bearer ${revokedKey}` })],
    ['a known key id with the wrong secret', () => ({ authorization: `Bearer ${wrongSecretKey}` })],
    ['a key of an organization that does not exist', () => ({ authorization: `Bearer ${orphanKey}` })],
  ];
  const cases = badCredentials.flatMap(([name, credentials]) => PROTECTED.map((route) => [`${route.method} ${route.path}`, name, route, credentials] as const));

  it.each(cases)('Should answer %s with 401 and the contract body given %s', async (_route, _case, route, credentials) => {
    // Act
    const response = await send(route, credentials());
    // Assess
    expect(response.status).toBe(401);
    expect(response.contentType).toBe('application/json');
    expect(response.body).toEqual(unauthorizedBody(route));
  });
});

describe('a valid API key', () => {
  it.each(PROTECTED.map((r) => [`${r.method} ${r.path}`, r] as const))('Should get past authentication on %s', async (_name, route) => {
    // Act
    const response = await send(route, { authorization: `Bearer ${validKey}` });
    // Assess: whatever the capability answers, it is not the authorizer's refusal.
    expect(response.status).not.toBe(401);
    expect(response.body).not.toEqual(unauthorizedBody(route));
  });

  it('Should work with a lower-case bearer scheme', async () => {
    // Act
    const response = await send(ROUTES.find((r) => r.id === 'GetRun') as RouteDefinition, { authorization: `bearer ${validKey}` });
    // Assess
    expect(response.status).not.toBe(401);
  });
});

describe('session cookies', () => {
  const cookieFor = async (ttlSeconds = 600) => `${SESSION_COOKIE}=${await createSession(stores.orgs, orgId, sessionSecret, ttlSeconds)}`;

  it('Should be accepted on exactly the routed, events and legacy query endpoints', () => {
    // Assess: the contract's list, independent of the route table.
    expect(SESSION_ROUTES.map((r) => `${r.method} ${r.path}`).sort()).toEqual(['GET /api/v1/events', 'POST /api/v1/query', 'POST /api/v1/warehouse/query']);
  });

  it.each(SESSION_ROUTES.map((r) => [`${r.method} ${r.path}`, r] as const))('Should get a valid session past authentication on %s', async (_name, route) => {
    // Act
    const response = await send(route, { cookie: await cookieFor() });
    // Assess
    expect(response.status).not.toBe(401);
  });

  it.each(SESSION_ROUTES.map((r) => [`${r.method} ${r.path}`, r] as const))('Should find the session among other cookies on %s', async (_name, route) => {
    // Act
    const response = await send(route, { cookie: `theme=dark; ${await cookieFor()}; lang=en` });
    // Assess
    expect(response.status).not.toBe(401);
  });

  it.each(KEY_ONLY_ROUTES.map((r) => [`${r.method} ${r.path}`, r] as const))('Should refuse a valid session with 401 on %s', async (_name, route) => {
    // Act
    const response = await send(route, { cookie: await cookieFor() });
    // Assess
    expect(response.status).toBe(401);
    expect(response.body).toEqual(unauthorizedBody(route));
  });

  const badSessions: readonly [string, () => string][] = [
    ['an expired session', () => createSessionToken(orgId, sessionSecret, new Date(Date.now() - 7_200_000), 3600)],
    [
      'a session whose org was changed',
      () => {
        const [, signature] = createSessionToken(orgId, sessionSecret, new Date(), 600).split('.');
        const claims = Buffer.from(JSON.stringify({ orgId: stack.orgId, exp: Math.floor(Date.now() / 1000) + 600 })).toString('base64url');
        return `${claims}.${signature}`;
      },
    ],
    ['a session with a truncated signature', () => createSessionToken(orgId, sessionSecret, new Date(), 600).slice(0, -2)],
    ['a session signed with another secret', () => createSessionToken(orgId, 'not-the-secret', new Date(), 600)],
    ['a session of an organization that does not exist', () => createSessionToken('no-such-org', sessionSecret, new Date(), 600)],
    ['garbage', () => 'garbage'],
  ];
  const badCases = badSessions.flatMap(([name, cookie]) => SESSION_ROUTES.map((route) => [`${route.method} ${route.path}`, name, route, cookie] as const));

  it.each(badCases)('Should answer %s with 401 given %s', async (_route, _case, route, cookie) => {
    // Act
    const response = await send(route, { cookie: `${SESSION_COOKIE}=${cookie()}` });
    // Assess
    expect(response.status).toBe(401);
    expect(response.body).toEqual(unauthorizedBody(route));
  });

  it('Should not let a valid session rescue a bad bearer token', async () => {
    // Prepare
    const route = ROUTES.find((r) => r.id === 'PostQuery') as RouteDefinition;
    // Act
    const response = await send(route, { authorization: 'Bearer not-a-key', cookie: await cookieFor() });
    // Assess
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ success: false, error: 'Unauthorized' });
  });
});

describe('routes outside authentication', () => {
  it('Should serve GET /openapi.json without credentials', async () => {
    // Act
    const response = await fetch(`${stack.baseUrl}/openapi.json`);
    // Assess
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ openapi: '3.1.0' });
  });

  it('Should serve GET /openapi.json even when the credentials sent are bad', async () => {
    // Act
    const response = await fetch(`${stack.baseUrl}/openapi.json`, { headers: { authorization: 'Bearer nope' } });
    // Assess
    expect(response.status).toBe(200);
  });

  // `GET /` is the console's (test/http/console-serving.test.ts); a POST there is still no route.
  it.each([
    // GET /api/v1/lineage is the lineage graph; the path serves both.
    ['DELETE', '/api/v1/lineage', 'GET, POST'],
    ['PUT', '/api/v1/lineage', 'GET, POST'],
    ['POST', '/openapi.json', 'GET'],
  ])('Should answer %s %s with 405 and Allow: %s, valid key or not', async (method, urlPath, allow) => {
    // Act
    const anonymous = await fetch(`${stack.baseUrl}${urlPath}`, { method });
    const withKey = await fetch(`${stack.baseUrl}${urlPath}`, { method, headers: { authorization: `Bearer ${validKey}` } });
    // Assess
    expect([anonymous.status, withKey.status]).toEqual([405, 405]);
    expect(anonymous.headers.get('allow')).toBe(allow);
  });

  it.each([
    ['GET', '/api/v1/nope'],
    ['POST', '/'],
    ['GET', '/api/v1/events/extra'],
  ])('Should answer %s %s with 404, valid key or not', async (method, urlPath) => {
    // Act
    const anonymous = await fetch(`${stack.baseUrl}${urlPath}`, { method });
    const withKey = await fetch(`${stack.baseUrl}${urlPath}`, { method, headers: { authorization: `Bearer ${validKey}` } });
    // Assess
    expect(anonymous.status).toBe(404);
    expect(withKey.status).toBe(404);
    expect(await anonymous.json()).toEqual({ message: 'Not Found' });
  });
});
