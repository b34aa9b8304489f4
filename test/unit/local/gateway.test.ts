/**
 * The local gateway (local/gateway.ts) with recording stand-ins for the authorizer and handlers:
 * the events it builds (payload 2.0, as API Gateway builds them), the order authorizer → handler,
 * and API Gateway's own answers (404, 403, 413, 500).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createConsoleFiles } from '#local/console-files';
import { createGatewayListener, createGatewayServer, MAX_PAYLOAD_BYTES, MAX_REQUEST_HEAD_BYTES, type HandlerLoader } from '#local/gateway';
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

/** Sends `head` (a request line and headers, CRLF-separated, no final blank line) as written; resolves with the raw answer. */
const sendRaw = (url: string, head: string): Promise<{ status: number; headers: string; body: string }> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const socket = net.connect(Number(port), hostname, () => socket.write(`${head}\r\nhost: ${hostname}\r\nconnection: close\r\n\r\n`));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const [headers = '', body = ''] = answer.split('\r\n\r\n', 2);
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1] ?? 0), headers, body });
    });
  });

describe('local gateway: paths under /api are never the console', () => {
  let consoleServer: http.Server;
  let consoleUrl: string;

  beforeAll(async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'lakeline-console-'));
    writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>console</title>');
    consoleServer = createGatewayServer();
    consoleServer.on('request', createGatewayListener(loader, createConsoleFiles(root)));
    await new Promise<void>((resolve) => consoleServer.listen(0, '127.0.0.1', resolve));
    consoleUrl = `http://127.0.0.1:${(consoleServer.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => consoleServer.close(() => resolve()));
  });

  it.each([
    '/api/v1/../../etc/passwd',
    '/api/v1/%2e%2e/%2e%2e/etc/passwd',
    '/api/v1/%2E%2E/%2E%2E/index.html',
    '/api/v1/./tables/../../x',
    '/api/v1/..%2f..%2fetc/passwd',
    '/api/nothing-here',
    '/api',
    '/%61pi/v1/unknown',
  ])('Should answer GET %s, sent as written, with the API\'s 404 and never the console\'s HTML', async (target) => {
    // Act
    const answer = await sendRaw(consoleUrl, `GET ${target} HTTP/1.1`);
    // Assess
    expect(answer.status).toBe(404);
    expect(answer.headers.toLowerCase()).toContain('content-type: application/json');
    expect(JSON.parse(answer.body)).toEqual({ message: 'Not Found' });
    expect(handlerEvents).toHaveLength(0);
  });

  it('Should still serve the console for an app path, and resolve dot segments outside /api', async () => {
    // Act
    const app = await sendRaw(consoleUrl, 'GET /tables/tpch/lineitem HTTP/1.1');
    const resolved = await sendRaw(consoleUrl, 'GET /events/../query HTTP/1.1');
    // Assess
    expect(app.status).toBe(200);
    expect(app.body).toContain('<title>console</title>');
    expect(resolved.status).toBe(200);
  });
});

describe('local gateway: the request head limit', () => {
  let limited: http.Server;
  let limitedUrl: string;

  beforeAll(async () => {
    limited = createGatewayServer();
    limited.on('request', createGatewayListener(loader));
    await new Promise<void>((resolve) => limited.listen(0, '127.0.0.1', resolve));
    limitedUrl = `http://127.0.0.1:${(limited.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => limited.close(() => resolve()));
  });

  it.each([
    ['an Authorization header of 64 KiB', 64 * 1024],
    ['an Authorization header of 11 KiB (over API Gateway\'s 10,240 bytes, under Node\'s own cap)', 11 * 1024],
    ['an Authorization header of 1 MiB (over Node\'s own cap)', 1024 * 1024],
  ])('Should answer %s with 431 and a body naming the limit, not a reset connection', async (_name, bytes) => {
    // Act
    const answer = await sendRaw(limitedUrl, `GET /api/v1/runs/r1 HTTP/1.1\r\nauthorization: Bearer ${'k'.repeat(bytes)}`);
    // Assess
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body).message).toMatch(/^Request Header Fields Too Large: the request line and header values take .* bytes; API Gateway accepts at most 10,240$/);
    expect(authorizerEvents).toHaveLength(0);
    expect(handlerEvents).toHaveLength(0);
  });

  it(`Should answer a request line and headers of ${MAX_REQUEST_HEAD_BYTES} bytes as usual`, async () => {
    // Prepare: the request line and the header values, counted as API Gateway counts them
    const line = 'GET /api/v1/runs/r1 HTTP/1.1';
    const fixed = Buffer.byteLength(line) + Buffer.byteLength('127.0.0.1') + Buffer.byteLength('close') + Buffer.byteLength('Bearer ');
    // Act
    const answer = await sendRaw(limitedUrl, `${line}\r\nauthorization: Bearer ${'k'.repeat(MAX_REQUEST_HEAD_BYTES - fixed)}`);
    // Assess
    expect(answer.status).toBe(200);
  });
});
