/**
 * The OpenAPI document: served publicly at GET /openapi.json, generated from the route table and
 * schemas, OpenAPI 3.1, every route with its method and the bearer security (the public route
 * excepted), and the committed docs/openapi.json not stale.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { describe, expect, inject, it } from 'vitest';
import { API_VERSION, buildOpenApiDocument, renderOpenApiDocument } from '#shared/openapi';
import { ROUTES } from '#shared/routes';

interface Operation {
  readonly operationId?: string;
  readonly security?: unknown[];
  readonly responses?: Record<string, unknown>;
}
interface Document {
  readonly openapi: string;
  readonly info: { version: string };
  readonly security?: unknown[];
  readonly paths: Record<string, Record<string, Operation>>;
  readonly components?: { securitySchemes?: Record<string, unknown> };
}

const stack = inject('stack');
const document = buildOpenApiDocument() as unknown as Document;
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

describe('GET /openapi.json', () => {
  it('Should serve, without credentials, exactly the document the code builds', async () => {
    // Act
    const response = await fetch(`${stack.baseUrl}/openapi.json`);
    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
  });
});

describe('the OpenAPI document', () => {
  it("Should be OpenAPI 3.1 carrying the contract's version", () => {
    // Assess
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe(API_VERSION);
    expect(API_VERSION).toBe('1.0.0');
  });

  it('Should list every route with its method, and nothing else', () => {
    // Act
    const documented = Object.entries(document.paths)
      .flatMap(([path, item]) => Object.keys(item).filter((k) => HTTP_METHODS.includes(k)).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    // Assess
    expect(documented).toEqual(ROUTES.map((r) => `${r.method} ${r.path}`).sort());
  });

  it('Should name each operation after its route id', () => {
    // Act
    const ids = ROUTES.map((r) => document.paths[r.path]?.[r.method.toLowerCase()]?.operationId);
    // Assess
    expect(ids).toEqual(ROUTES.map((r) => r.id));
  });

  it('Should declare bearer authentication as the default and define both schemes', () => {
    // Assess
    expect(document.security).toEqual([{ bearer: [] }]);
    expect(document.components?.securitySchemes?.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.components?.securitySchemes?.session).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'lakeline_session' });
  });

  it.each(ROUTES.filter((r) => r.auth === 'key').map((r) => [`${r.method} ${r.path}`, r] as const))(
    'Should require the bearer key, and only it, on %s and document its 401',
    (_name, route) => {
      // Act
      const operation = document.paths[route.path]?.[route.method.toLowerCase()] as Operation;
      // Assess: no override means the document-level bearer requirement applies.
      expect(operation.security ?? document.security).toEqual([{ bearer: [] }]);
      expect(operation.responses).toHaveProperty('401');
    },
  );

  it.each(ROUTES.filter((r) => r.auth === 'key-or-session').map((r) => [`${r.method} ${r.path}`, r] as const))(
    'Should accept the bearer key or the session cookie on %s, and say so in its 401',
    (_name, route) => {
      // Act
      const operation = document.paths[route.path]?.[route.method.toLowerCase()] as Operation;
      // Assess
      expect(operation.security).toEqual([{ bearer: [] }, { session: [] }]);
      expect((operation.responses?.['401'] as { description: string }).description).toMatch(/session credentials/);
    },
  );

  it('Should mark only the public route as needing no authentication', () => {
    // Act
    const open = ROUTES.filter((r) => {
      const security = document.paths[r.path]?.[r.method.toLowerCase()]?.security;
      return Array.isArray(security) && security.length === 0;
    });
    // Assess
    expect(open.map((r) => r.path)).toEqual(['/openapi.json']);
  });

  it('Should be the same, byte for byte, each time it is built', () => {
    // Act / Assess
    expect(renderOpenApiDocument()).toBe(renderOpenApiDocument());
  });
});

describe('docs/openapi.json', () => {
  it('Should match what `npm run openapi` writes', () => {
    // Prepare
    const committed = readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8');
    // Act
    const current = renderOpenApiDocument();
    // Assess
    expect(committed === current, 'docs/openapi.json is stale: run `npm run openapi` and commit docs/openapi.json').toBe(true);
  });
});

/** A request with any method (fetch refuses TRACE). */
const rawRequest = (method: string, path: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> =>
  new Promise((resolve, reject) => {
    const req = http.request(`${inject('stack').baseUrl}${path}`, { method }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });

describe('methods a path does not serve', () => {
  it.each([
    ['TRACE', '/api/v1/events', 'GET'],
    ['DELETE', '/openapi.json', 'GET'],
    ['PUT', '/api/v1/runs/3f2504e0-4f89-41d3-9a0c-0305e82c3301', 'GET'],
    // Two methods on one path: both are listed.
    ['PUT', '/api/v1/lineage', 'GET, POST'],
  ])('Should answer %s %s with 405 and Allow: %s', async (method, path, allow) => {
    // Act
    const answer = await rawRequest(method, path);
    // Assess
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe(allow);
    expect((JSON.parse(answer.body) as { error: string }).error).toBe(`${method} is not allowed on ${path}; use ${allow.split(', ').join(' or ')}`);
  });

  it('Should still answer 404 for a path no route serves', async () => {
    expect((await rawRequest('TRACE', '/api/v1/nothing-here')).status).toBe(404);
  });
});
