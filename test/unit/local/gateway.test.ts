/**
 * The local gateway (local/gateway.ts) with recording stand-ins for the authorizer and handlers:
 * the events it builds (payload 2.0, as API Gateway builds them), the order authorizer → handler,
 * and API Gateway's own answers (404, 403, 413, 500).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGatewayListener, MAX_PAYLOAD_BYTES, type HandlerLoader } from '#local/gateway';
import { withoutContractCheck } from '../../helpers/contract-check.ts';

type Recorded = Record<string, unknown> & { requestContext: Record<string, unknown> };

let server: http.Server;
let baseUrl: string;
let authorizerEvents: Recorded[];
let handlerEvents: { module: string; event: Recorded }[];
let authorizerAnswer: { isAuthorized: boolean; context?: Record<string, string> };
let handlerAnswer: (event: Recorded) => unknown;

const loader: HandlerLoader = async (module) => {
  if (module === 'authorizer') {
    return (async (event: Recorded) => {
      authorizerEvents.push(event);
      return authorizerAnswer;
    }) as never;
  }
  return (async (event: Recorded) => {
    handlerEvents.push({ module, event });
    return handlerAnswer(event);
  }) as never;
};

beforeAll(async () => {
  // The gateway here serves stand-in handlers, whose answers keep no route's contract.
  withoutContractCheck();
  server = http.createServer(createGatewayListener(loader));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  authorizerEvents = [];
  handlerEvents = [];
  authorizerAnswer = { isAuthorized: true, context: { orgId: 'org-1', authKind: 'key', keyId: 'k' } };
  handlerAnswer = () => ({ statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' });
});

describe('local gateway: routing', () => {
  it('Should run the authorizer, then the route handler with the authorizer context', async () => {
    // Act
    const response = await fetch(`${baseUrl}/api/v1/runs/abc`, { headers: { authorization: 'Bearer x' } });
    // Assess
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(authorizerEvents).toHaveLength(1);
    expect(handlerEvents.map((h) => h.module)).toEqual(['get-run']);
    expect(handlerEvents[0]?.event.requestContext.authorizer).toEqual({ lambda: { orgId: 'org-1', authKind: 'key', keyId: 'k' } });
  });

  it('Should not call the authorizer for the public route', async () => {
    // Act
    const response = await fetch(`${baseUrl}/openapi.json`);
    // Assess
    expect(response.status).toBe(200);
    expect(authorizerEvents).toHaveLength(0);
    expect(handlerEvents[0]?.event.requestContext).not.toHaveProperty('authorizer');
  });

  it('Should hand a method the path does not serve to the 405 handler, as the path\'s ANY route, without the authorizer', async () => {
    // Prepare
    handlerAnswer = () => ({ statusCode: 405, headers: { allow: 'POST' }, body: '{"error":"no"}' });
    // Act
    const response = await fetch(`${baseUrl}/api/v1/lineage`, { method: 'DELETE' });
    // Assess
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(authorizerEvents).toHaveLength(0);
    expect(handlerEvents.map((h) => h.module)).toEqual(['method-not-allowed']);
    expect(handlerEvents[0]?.event).toMatchObject({ routeKey: 'ANY /api/v1/lineage', requestContext: { http: { method: 'DELETE', path: '/api/v1/lineage' } } });
  });

  it("Should hand Marquez's pre-OpenLineage write paths to the same handler, as their ANY route", async () => {
    // Prepare
    handlerAnswer = () => ({ statusCode: 501, body: '{"error":"no"}' });
    // Act
    const response = await fetch(`${baseUrl}/api/v1/jobs/runs/0176a8c2-fe01-7439-87e6-56a1a1b4029f/complete`, { method: 'POST' });
    // Assess
    expect(response.status).toBe(501);
    expect(authorizerEvents).toHaveLength(0);
    expect(handlerEvents[0]?.event).toMatchObject({ routeKey: 'ANY /api/v1/jobs/runs/{runId}/{action}' });
  });

  it.each([
    ['GET', '/nope'],
    ['GET', '/api/v1/lineage/'],
    ['GET', '/openapi.json/x'],
  ])('Should answer %s %s with 404 without calling anything', async (method, path) => {
    // Act
    const response = await fetch(`${baseUrl}${path}`, { method });
    // Assess
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: 'Not Found' });
    expect(authorizerEvents).toHaveLength(0);
    expect(handlerEvents).toHaveLength(0);
  });

  it("Should answer 403 Forbidden without calling the handler when the authorizer says no (API Gateway's behaviour)", async () => {
    // Prepare
    authorizerAnswer = { isAuthorized: false };
    // Act
    const response = await fetch(`${baseUrl}/api/v1/events`);
    // Assess
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ message: 'Forbidden' });
    expect(handlerEvents).toHaveLength(0);
  });
});

describe('local gateway: the events it builds', () => {
  it('Should build a REQUEST authorizer event with the route key, headers and cookies', async () => {
    // Act
    await fetch(`${baseUrl}/api/v1/events?start=1&end=2`, { headers: { Authorization: 'Bearer x', Cookie: 'a=1; lakeline_session=s.t', 'X-Custom': 'y' } });
    // Assess
    const event = authorizerEvents[0] as Recorded;
    expect(event).toMatchObject({
      version: '2.0',
      type: 'REQUEST',
      routeKey: 'GET /api/v1/events',
      rawPath: '/api/v1/events',
      rawQueryString: 'start=1&end=2',
      identitySource: [],
      cookies: ['a=1', 'lakeline_session=s.t'],
      queryStringParameters: { start: '1', end: '2' },
    });
    expect(event.headers).toMatchObject({ authorization: 'Bearer x', 'x-custom': 'y' });
    expect(event.headers).not.toHaveProperty('cookie');
    expect(event.requestContext).toMatchObject({ routeKey: 'GET /api/v1/events', stage: '$default', http: { method: 'GET', path: '/api/v1/events' } });
  });

  it('Should decode path parameters and join repeated query parameters with commas, as HTTP API does', async () => {
    // Act
    await fetch(`${baseUrl}/api/v1/tables/my%20ns/t1?states=START&states=FAIL`);
    // Assess
    const event = handlerEvents[0]?.event as Recorded;
    expect(event.routeKey).toBe('GET /api/v1/tables/{namespace}/{table}');
    expect(event.pathParameters).toEqual({ namespace: 'my ns', table: 't1' });
    expect(event.queryStringParameters).toEqual({ states: 'START,FAIL' });
  });

  it('Should pass a JSON body as text', async () => {
    // Act
    await fetch(`${baseUrl}/api/v1/lineage`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":"é"}' });
    // Assess
    expect(handlerEvents[0]?.event).toMatchObject({ body: '{"a":"é"}', isBase64Encoded: false });
  });

  it('Should pass a gzip body base64-encoded, untouched', async () => {
    // Prepare
    const gz = gzipSync(Buffer.from('{"a":1}'));
    // Act
    await fetch(`${baseUrl}/api/v1/lineage`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: gz });
    // Assess
    const event = handlerEvents[0]?.event as Recorded;
    expect(event.isBase64Encoded).toBe(true);
    expect(Buffer.from(event.body as string, 'base64').equals(gz)).toBe(true);
    expect(event.headers).toMatchObject({ 'content-encoding': 'gzip' });
  });

  it('Should send no body field when the request has none', async () => {
    // Act
    await fetch(`${baseUrl}/api/v1/runs/r1`);
    // Assess
    expect(handlerEvents[0]?.event).not.toHaveProperty('body');
    expect(handlerEvents[0]?.event.isBase64Encoded).toBe(false);
  });
});

describe('local gateway: responses', () => {
  it(`Should answer 413 to a body over ${MAX_PAYLOAD_BYTES} bytes without calling anything`, async () => {
    // Act
    const response = await fetch(`${baseUrl}/api/v1/lineage`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.alloc(MAX_PAYLOAD_BYTES + 1, 0x20) });
    // Assess
    expect(response.status).toBe(413);
    expect(authorizerEvents).toHaveLength(0);
    expect(handlerEvents).toHaveLength(0);
  });

  it('Should answer 500 Internal Server Error when a handler throws', async () => {
    // Prepare
    handlerAnswer = () => {
      throw new Error('boom');
    };
    const quiet = console.error;
    console.error = () => undefined;
    // Act
    const response = await fetch(`${baseUrl}/api/v1/runs/r1`).finally(() => (console.error = quiet));
    // Assess
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ message: 'Internal Server Error' });
  });

  it('Should answer a bare returned value as a 200 JSON body (payload 2.0 inference)', async () => {
    // Prepare
    handlerAnswer = () => ({ hello: 'world' });
    // Act
    const response = await fetch(`${baseUrl}/api/v1/runs/r1`);
    // Assess
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ hello: 'world' });
  });

  it('Should turn result cookies into Set-Cookie headers and decode base64 bodies', async () => {
    // Prepare
    handlerAnswer = () => ({ statusCode: 201, headers: { 'content-type': 'text/plain' }, cookies: ['a=1', 'b=2'], body: Buffer.from('hi').toString('base64'), isBase64Encoded: true });
    // Act
    const response = await fetch(`${baseUrl}/api/v1/runs/r1`);
    // Assess
    expect(response.status).toBe(201);
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await response.text()).toBe('hi');
  });
});
