/**
 * @module gateway
 * The local stand-in for API Gateway (HTTP API, payload 2.0): it matches the route table, builds
 * the same events API Gateway builds, runs the real authorizer and then the real handler, and
 * maps their results back to HTTP — including API Gateway's own answers (404 for no route, 403
 * when an authorizer says no, 413 above 10 MB, 431 above 10,240 bytes of request line and header
 * values, 503 on integration timeout, 500 when a handler throws). Every other GET or HEAD is the
 * console's (`console-files.ts`), as CloudFront sends every path but `/api/*` and `/openapi.json`
 * to the console's bucket in AWS — never a path under /api, however it was sent.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Duplex } from 'node:stream';
import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  APIGatewayRequestAuthorizerEventV2,
  APIGatewaySimpleAuthorizerWithContextResult,
  Context,
} from 'aws-lambda';
import { isApiPath } from '#shared/console-site';
import { MARQUEZ_LEGACY_PATHS, ROUTES, routeKey, type RouteDefinition } from '#shared/routes';
import type { ConsoleFiles } from './console-files.ts';

/** API Gateway's payload limit. */
export const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;

/**
 * API Gateway's (HTTP API) limit on the request line and header values together: 10,240 bytes, a
 * quota AWS does not raise. The local gateway answers what exceeds it with a 431 of its own, so a
 * request refused in AWS is refused locally too.
 */
export const MAX_REQUEST_HEAD_BYTES = 10_240;

/**
 * Node's own cap on a request head, above which it cannot parse the request at all (its default is
 * 16 KiB). Heads between {@link MAX_REQUEST_HEAD_BYTES} and this get the 431 from the listener;
 * larger ones from {@link answerClientError}.
 */
export const NODE_MAX_HEADER_BYTES = 128 * 1024;

/** The 431 body: how large the head was (when known) and the limit. */
const headTooLargeBody = (bytes?: number): string =>
  JSON.stringify({
    message: `Request Header Fields Too Large: the request line and header values take ${bytes === undefined ? `more than ${NODE_MAX_HEADER_BYTES.toLocaleString('en-US')}` : bytes.toLocaleString('en-US')} bytes; API Gateway accepts at most ${MAX_REQUEST_HEAD_BYTES.toLocaleString('en-US')}`,
  });

/** The bytes API Gateway counts against {@link MAX_REQUEST_HEAD_BYTES}: the request line and every header value. */
const requestHeadBytes = (req: http.IncomingMessage): number => {
  let bytes = Buffer.byteLength(`${req.method ?? ''} ${req.url ?? ''} HTTP/${req.httpVersion}`);
  for (let i = 1; i < req.rawHeaders.length; i += 2) bytes += Buffer.byteLength(req.rawHeaders[i] ?? '');
  return bytes;
};

/**
 * A server's `clientError` listener: a request Node could not parse gets an answer instead of a
 * reset connection — 431 with a JSON body naming the limit for a head above
 * {@link NODE_MAX_HEADER_BYTES}, 400 for anything else Node refuses (a malformed request line).
 * The rest of what the client sends is read and dropped, so it sees the answer rather than a
 * reset from writing into a closed socket.
 */
export const answerClientError = (err: Error & { code?: string }, socket: Duplex): void => {
  if (!socket.writable || (socket as Duplex & { _httpMessage?: unknown })._httpMessage) {
    socket.destroy();
    return;
  }
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const body = tooLarge ? headTooLargeBody() : JSON.stringify({ message: 'Bad Request' });
  const status = tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request';
  socket.on('error', () => undefined);
  socket.on('data', () => undefined);
  socket.end(`HTTP/1.1 ${status}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  // The client may keep sending; give it a moment to read the answer, then let the socket go.
  setTimeout(() => socket.destroy(), 2_000).unref();
};

/** An HTTP server for the gateway: Node's head cap raised, and unparsable requests answered ({@link answerClientError}). */
export const createGatewayServer = (): http.Server => {
  const server = http.createServer({ maxHeaderSize: NODE_MAX_HEADER_BYTES });
  server.on('clientError', answerClientError);
  return server;
};

type LambdaHandler<E, R> = (event: E, context: Context) => Promise<R>;
type Authorizer = LambdaHandler<APIGatewayRequestAuthorizerEventV2, APIGatewaySimpleAuthorizerWithContextResult<Record<string, string>>>;
type Handler = LambdaHandler<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 | string | object>;

/** How the gateway finds handler code: by module name under functions/handlers. */
export type HandlerLoader = (module: string) => Promise<Handler>;

interface CompiledRoute {
  readonly route: RouteDefinition;
  readonly pattern: RegExp;
  readonly params: readonly string[];
}

const compile = (route: RouteDefinition): CompiledRoute => {
  const params: string[] = [];
  // Paths hold only literal segments and `{param}` placeholders; dots are the one regex character.
  const source = route.path.replace(/\./g, '\\.').replace(/\{(\w+)\}/g, (_m, name: string) => {
    params.push(name);
    return '([^/]+)';
  });
  return { route, pattern: new RegExp(`^${source}$`), params };
};

const lambdaContext = (name: string, timeoutMs: number): Context => {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: name,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${name}`,
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${name}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
};

const readBody = (req: http.IncomingMessage): Promise<Buffer | 'too-large'> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_PAYLOAD_BYTES) chunks.push(c);
    });
    req.on('end', () => resolve(size > MAX_PAYLOAD_BYTES ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The body as text when it travels to the handler as text: a textual content type and bytes that
 * are valid UTF-8. Anything else travels base64-encoded (undefined here), so the handler sees the
 * bytes as sent (a lossy decode would turn invalid bytes into U+FFFD before anyone could refuse them).
 */
const textOf = (headers: Record<string, string>, body: Buffer): string | undefined => {
  if (headers['content-encoding'] && headers['content-encoding'] !== 'identity') return undefined;
  const type = headers['content-type'] ?? '';
  if (!(type === '' || /^(text\/|application\/(json|x-www-form-urlencoded|xml)|.*\+json)/i.test(type))) return undefined;
  try {
    return utf8.decode(body);
  } catch {
    return undefined;
  }
};

/** The path as the client sent it: no dot segments resolved, nothing decoded. */
const rawPathOf = (target: string | undefined): string => {
  const path = (target ?? '/').split('?', 1)[0] ?? '/';
  // An absolute-form target (`GET http://host/api/x`) carries its path after the authority.
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(path) ? path.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '') || '/' : path;
};

/** The path percent-decoded (a malformed escape leaves it as sent). */
const decodedPath = (path: string): string => {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
};

/** Whether a path has a `.` or `..` segment, as sent or percent-decoded (`%2e%2e`), with `/` or `\` separators. */
const hasDotSegment = (path: string): boolean => [path, decodedPath(path)].some((p) => p.split(/[/\\]/).some((segment) => segment === '.' || segment === '..'));

const withTimeout = async <T>(work: Promise<T>, ms: number): Promise<T | 'timeout'> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms)));
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
};

/** Builds the gateway's request listener; with `consoleFiles`, non-API GETs serve the console. */
export const createGatewayListener = (loadHandler: HandlerLoader, consoleFiles?: ConsoleFiles) => {
  const compiled = ROUTES.map(compile);
  // Paths no route serves but that answer every method (Marquez's pre-OpenLineage write APIs: 501).
  const legacy = MARQUEZ_LEGACY_PATHS.map((path) => compile({ ...(ROUTES[0] as RouteDefinition), path }));
  const authorizerPromise = loadHandler('authorizer') as unknown as Promise<Authorizer>;

  const send = (res: http.ServerResponse, status: number, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) => {
    res.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };

  const answerMethodNotAllowed = async (res: http.ServerResponse, method: string, pathname: string, template: string): Promise<void> => {
    const handler = await loadHandler('method-not-allowed');
    const result = (await handler({ routeKey: `ANY ${template}`, requestContext: { http: { method, path: pathname } } } as unknown as APIGatewayProxyEventV2, lambdaContext('MethodNotAllowed', 3_000))) as APIGatewayProxyStructuredResultV2;
    send(res, result.statusCode ?? 405, result.body ?? '', Object.fromEntries(Object.entries(result.headers ?? {}).map(([k, v]) => [k, String(v)])));
  };

  return async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    try {
      const headBytes = requestHeadBytes(req);
      if (headBytes > MAX_REQUEST_HEAD_BYTES) {
        // Read and drop the body, so the client gets the answer rather than a reset.
        req.resume();
        return send(res, 431, headTooLargeBody(headBytes), { 'content-type': 'application/json', connection: 'close' });
      }
      const url = new URL(req.url ?? '/', 'http://local');
      const method = (req.method ?? 'GET').toUpperCase();
      const rawPath = rawPathOf(req.url);
      // A path sent with dot segments (`/api/v1/../x`, `%2e%2e` too) matches no route: the URL
      // parser would resolve it to another path than the one sent. Under /api it is the API's 404.
      const routable = !hasDotSegment(rawPath);
      const match = routable
        ? compiled.flatMap((c) => {
            const m = c.route.method === method ? c.pattern.exec(url.pathname) : null;
            return m ? [{ c, m }] : [];
          })[0]
        : undefined;
      const body = await readBody(req);
      if (!match) {
        // A path the route table serves, with another method: API Gateway's `ANY` route of that path.
        const samePath = routable ? compiled.find((c) => c.pattern.test(url.pathname)) : undefined;
        if (samePath) return answerMethodNotAllowed(res, method, url.pathname, samePath.route.path);
        const legacyPath = legacy.find((c) => c.pattern.test(url.pathname));
        if (legacyPath) return answerMethodNotAllowed(res, method, url.pathname, legacyPath.route.path);
        // Everything else a browser gets is the console (CloudFront's S3 origin in AWS), but never
        // a path under /api: not as sent, not decoded, not resolved.
        const api = isApiPath(url.pathname) || isApiPath(rawPath) || isApiPath(decodedPath(rawPath));
        if (consoleFiles && (method === 'GET' || method === 'HEAD') && !api) return consoleFiles.serve(req, res, url.pathname);
        return send(res, 404, '{"message":"Not Found"}');
      }
      if (body === 'too-large') return send(res, 413, '{"message":"Request Entity Too Large"}');

      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && k !== 'cookie') headers[k.toLowerCase()] = Array.isArray(v) ? v.join(',') : v;
      const cookies = (req.headers.cookie ?? '').split(';').map((c) => c.trim()).filter(Boolean);
      const query: Record<string, string> = {};
      for (const [k, v] of url.searchParams) query[k] = k in query ? `${query[k]},${v}` : v;
      const pathParameters = Object.fromEntries(match.c.params.map((p, i) => [p, decodeURIComponent(match.m[i + 1] ?? '')]));
      const now = new Date();
      const key = routeKey(match.c.route);
      const requestContext = {
        accountId: 'local',
        apiId: 'local',
        domainName: headers.host ?? 'localhost',
        domainPrefix: 'localhost',
        http: { method, path: url.pathname, protocol: `HTTP/${req.httpVersion}`, sourceIp: req.socket.remoteAddress ?? '127.0.0.1', userAgent: headers['user-agent'] ?? '' },
        requestId: randomUUID(),
        routeKey: key,
        stage: '$default',
        time: now.toUTCString(),
        timeEpoch: now.getTime(),
      };
      const common = {
        version: '2.0',
        routeKey: key,
        rawPath: url.pathname,
        rawQueryString: url.search.slice(1),
        ...(cookies.length ? { cookies } : {}),
        headers,
        ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
        ...(match.c.params.length ? { pathParameters } : {}),
      };

      let authorizerContext: Record<string, string> | undefined;
      if (match.c.route.auth !== 'none') {
        const authorizer = await authorizerPromise;
        const decision = await authorizer(
          { ...common, type: 'REQUEST', routeArn: `arn:aws:execute-api:local:000000000000:local/$default/${method}${url.pathname}`, identitySource: [], requestContext } as unknown as APIGatewayRequestAuthorizerEventV2,
          lambdaContext('Authorizer', 10_000),
        );
        if (!decision.isAuthorized) return send(res, 403, '{"message":"Forbidden"}');
        authorizerContext = decision.context;
      }

      const text = body.length ? textOf(headers, body) : undefined;
      const event = {
        ...common,
        requestContext: { ...requestContext, ...(authorizerContext ? { authorizer: { lambda: authorizerContext } } : {}) },
        ...(body.length ? { body: text ?? body.toString('base64') } : {}),
        isBase64Encoded: body.length > 0 && text === undefined,
      } as unknown as APIGatewayProxyEventV2;

      const timeoutMs = (match.c.route.timeoutSeconds ?? 29) * 1000;
      const handler = await loadHandler(match.c.route.handler);
      let result: Awaited<ReturnType<Handler>> | 'timeout';
      try {
        result = await withTimeout(handler(event, lambdaContext(match.c.route.id, timeoutMs)), timeoutMs);
      } catch (err) {
        console.error(`handler ${match.c.route.id} threw`, err);
        return send(res, 500, '{"message":"Internal Server Error"}');
      }
      if (result === 'timeout') return send(res, 503, '{"message":"Service Unavailable"}');
      if (typeof result !== 'object' || result === null || !('statusCode' in result)) {
        // Payload 2.0 inference: a bare value is a 200 JSON body.
        return send(res, 200, typeof result === 'string' ? result : JSON.stringify(result));
      }
      const r = result as APIGatewayProxyStructuredResultV2;
      const outHeaders: Record<string, string | string[]> = Object.fromEntries(Object.entries(r.headers ?? {}).map(([k, v]) => [k, String(v)]));
      if (r.cookies?.length) outHeaders['set-cookie'] = r.cookies;
      const payload = r.body === undefined ? Buffer.alloc(0) : Buffer.from(r.body, r.isBase64Encoded ? 'base64' : 'utf8');
      res.writeHead(r.statusCode ?? 200, { ...outHeaders, 'content-length': payload.length });
      res.end(payload);
    } catch (err) {
      console.error('gateway error', err);
      if (!res.headersSent) send(res, 500, '{"message":"Internal Server Error"}');
    }
  };
};

/** Loads handlers from functions/handlers, each once. */
export const moduleHandlerLoader = (): HandlerLoader => {
  const cache = new Map<string, Promise<Handler>>();
  return (module) => {
    let loaded = cache.get(module);
    if (!loaded) {
      loaded = import(`../functions/handlers/${module}.ts`).then((m: { handler: Handler }) => m.handler);
      cache.set(module, loaded);
    }
    return loaded;
  };
};
