/**
 * @module openapi
 * Builds the OpenAPI 3.1 document from the route table and the zod schemas, so the document
 * cannot drift from what the handlers validate. Served at `GET /openapi.json` and written to
 * `docs/openapi.json` by `npm run openapi`.
 */
import { OpenApiGeneratorV31, OpenAPIRegistry, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { ZodType } from 'zod';
import { SESSION_COOKIE } from '#domain/core/session';
import { bodySchemaOf, CONTRACTS, statusesOf } from './contracts.ts';
import { ROUTES, type RouteDefinition } from './routes.ts';
import { openLineageComponents } from './schemas/openlineage-openapi.ts';
import { z } from './schemas/zod.ts';

/** The version of the interface (the contract's 1.0.0). */
export const API_VERSION = '1.0.0';

const DESCRIPTIONS: Readonly<Record<number, string>> = {
  202: 'Accepted (no body)',
  400: 'Invalid request',
  401: 'Missing or invalid bearer token',
  402: 'Metered compute needs a payment method; do not retry',
  403: 'The plan does not allow this request; do not retry',
  404: 'Not found',
  409: 'The run has already ended',
  413: 'Body too large',
  415: 'The body is not JSON (send Content-Type: application/json, or none)',
  431: 'The request line and header values together exceed the gateway\'s limit (10,240 bytes); answered by the gateway',
  500: 'Unexpected error',
  501: 'Capability not available in this version',
  503: 'A backing store is unavailable; retry later',
};

/** The contract: the 401s of the routed, events and legacy endpoints say sessions are accepted too. */
const describeStatus = (route: RouteDefinition, status: number): string =>
  status === 401 && route.auth === 'key-or-session'
    ? `Missing or invalid bearer token or session credentials (the \`${SESSION_COOKIE}\` cookie is accepted in place of a bearer token)`
    : (DESCRIPTIONS[status] ?? String(status));

/** Who may call a route: nobody needs to (public), a bearer key, or a bearer key or the session cookie. */
const securityOf = (route: RouteDefinition): RouteConfig['security'] =>
  route.auth === 'none' ? [] : route.auth === 'key-or-session' ? [{ bearer: [] }, { session: [] }] : undefined;

const toRouteConfig = (route: RouteDefinition): RouteConfig => {
  const contract = CONTRACTS[route.id];
  const pathParams = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
  return {
    method: route.method.toLowerCase() as 'get' | 'post',
    path: route.path,
    operationId: route.id,
    summary: contract.summary,
    ...(securityOf(route) === undefined ? {} : { security: securityOf(route) }),
    request: {
      ...(contract.body ? { body: { content: { 'application/json': { schema: contract.body.schema as ZodType } }, required: true } } : {}),
      ...(contract.query ? { query: contract.query.schema } : {}),
      ...(pathParams.length ? { params: z.object(Object.fromEntries(pathParams.map((p) => [p, contract.params?.[p] ?? z.string()]))) } : {}),
    },
    responses: Object.fromEntries(
      statusesOf(route, contract).map((s) => [
        s,
        { description: s === 200 ? 'OK' : describeStatus(route, s), ...(contract.noBody?.includes(s) ? {} : { content: { 'application/json': { schema: bodySchemaOf(route, contract, s) } } }) },
      ]),
    ),
  };
};

type Parameter = { name: string; in: string; required?: boolean; description?: string; schema?: Record<string, unknown> };

/**
 * Replaces a route's query parameters with one object parameter (form style, exploded, so the query
 * string is the same) whose schema relates them by the contract's `rules`.
 */
const relateQueryParameters = (document: Record<string, unknown>): void => {
  const paths = document.paths as Record<string, Record<string, { operationId?: string; parameters?: Parameter[] }>>;
  for (const route of ROUTES) {
    const rules = CONTRACTS[route.id].query?.rules;
    const operation = paths[route.path]?.[route.method.toLowerCase()];
    if (!rules || !operation?.parameters) continue;
    const query = operation.parameters.filter((p) => p.in === 'query');
    const schema = {
      type: 'object',
      properties: Object.fromEntries(query.map((p) => [p.name, { ...p.schema, ...(p.description ? { description: p.description } : {}) }])),
      required: query.filter((p) => p.required).map((p) => p.name),
      additionalProperties: false,
      ...rules,
    };
    const object: Parameter & Record<string, unknown> = { name: 'query', in: 'query', style: 'form', explode: true, required: true, schema };
    operation.parameters = [...operation.parameters.filter((p) => p.in !== 'query'), object];
  }
};

/** Generates the document. Deterministic: the same code gives byte-identical JSON. */
export const buildOpenApiDocument = (): Record<string, unknown> => {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description: `An API key \`ll_<keyId>_<secret>\`. The routed, events and legacy endpoints also accept the \`${SESSION_COOKIE}\` cookie.`,
  });
  registry.registerComponent('securitySchemes', 'session', {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description: 'A signed, expiring session (`lakeline sessions create`); accepted only by the routed, events and legacy query endpoints.',
  });
  for (const [name, schema] of Object.entries(openLineageComponents())) registry.registerComponent('schemas', name, schema as never);
  for (const route of ROUTES) registry.registerPath(toRouteConfig(route));
  const generator = new OpenApiGeneratorV31(registry.definitions);
  const document = generator.generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'lakeline',
      version: API_VERSION,
      description: 'Lineage ingestion (OpenLineage) and Iceberg lake queries.',
    },
    security: [{ bearer: [] }],
  }) as unknown as Record<string, unknown>;
  relateQueryParameters(document);
  return document;
};

/** The committed form of the document (`docs/openapi.json`): two-space indented, final newline. */
export const renderOpenApiDocument = (): string => `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
