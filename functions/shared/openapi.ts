/**
 * @module openapi
 * Builds the OpenAPI 3.1 document from the route table and the zod schemas, so the document
 * cannot drift from what the handlers validate. Served at `GET /openapi.json` and written to
 * `docs/openapi.json` by `npm run openapi`.
 */
import { OpenApiGeneratorV31, OpenAPIRegistry, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { ZodType } from 'zod';
import { SESSION_COOKIE } from '#domain/auth/session';
import { ROUTES, type RouteDefinition } from './routes.ts';
import { ErrorBody, PolarsErrorBody, RoutedErrorBody, StatusBody } from './schemas/common.ts';
import { MAX_BATCH_EVENTS } from '#domain/lineage/ingest';
import { BatchResponse, EventsQuery, LineageAccepted, StoredLineageEvent } from './schemas/lineage.ts';
import { OPENLINEAGE_EVENT_REF, openLineageComponents } from './schemas/openlineage-openapi.ts';
import {
  LegacyQueryRequest,
  LegacyQueryResponse,
  PolarsRequest,
  PolarsResponse,
  Run,
  RunResultsQuery,
  RoutedQueryRequest,
  SparkQueryRequest,
  SparkQueryResponse,
  TableDescription,
  TableSummary,
  UnifiedQueryResponse,
} from './schemas/query.ts';
import { z } from './schemas/zod.ts';

/** The version of the interface (the contract's 1.0.0). */
export const API_VERSION = '1.0.0';

/** A JSON Schema written out (the OpenLineage event, which the validator reads as JSON Schema). */
type RawSchema = Record<string, unknown>;

interface Operation {
  readonly summary: string;
  readonly body?: ZodType | RawSchema;
  readonly query?: z.ZodObject;
  /** Patterns of the path parameters that have one (others are any non-empty segment). */
  readonly params?: Readonly<Record<string, ZodType>>;
  readonly ok: ZodType;
  /** Extra statuses this operation answers besides 200/401/500 (and 415 on every body). */
  readonly errors: readonly number[];
}

const IDENTIFIER = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/).openapi({ description: 'letters, digits and underscores, starting with a letter or underscore' });

const OPERATIONS: Readonly<Record<string, Operation>> = {
  PostLineage: { summary: 'Record an OpenLineage event', body: OPENLINEAGE_EVENT_REF, ok: LineageAccepted, errors: [400, 413, 503] },
  PostLineageBatch: {
    summary: `Record a batch of OpenLineage events (at most ${MAX_BATCH_EVENTS}; 413 above)`,
    body: { type: 'array', items: OPENLINEAGE_EVENT_REF, maxItems: MAX_BATCH_EVENTS },
    ok: BatchResponse,
    errors: [400, 413, 503],
  },
  GetEvents: { summary: 'List stored lineage events', query: EventsQuery, ok: z.array(StoredLineageEvent), errors: [400] },
  PostQuery: { summary: 'Routed query: parse, estimate, pick an engine, run', body: RoutedQueryRequest, ok: UnifiedQueryResponse, errors: [400, 402, 403] },
  PostWarehouseQuery: { summary: 'Legacy DuckDB query (Pro plan)', body: LegacyQueryRequest, ok: LegacyQueryResponse, errors: [400, 403] },
  PostWarehousePolars: { summary: 'Polars query or script in a sandbox', body: PolarsRequest, ok: PolarsResponse, errors: [400, 402, 403] },
  PostSparkQuery: { summary: 'Managed Spark query into an output table', body: SparkQueryRequest, ok: SparkQueryResponse, errors: [400, 402, 403] },
  GetRun: { summary: 'Poll a run', query: RunResultsQuery, ok: Run, errors: [400, 404] },
  PostRunAbort: { summary: 'Abort a running run', ok: Run, errors: [404, 409] },
  ListTables: { summary: 'List lake tables', query: z.object({ namespace: IDENTIFIER.optional() }), ok: z.array(TableSummary), errors: [400] },
  GetTable: { summary: 'Describe a lake table', params: { namespace: IDENTIFIER, table: IDENTIFIER }, ok: TableDescription, errors: [400, 404] },
  GetOpenApi: { summary: 'This document', ok: z.record(z.string(), z.unknown()), errors: [] },
};

const errorSchemaFor = (route: RouteDefinition, status: number): ZodType => {
  if (route.errorStyle === 'routed') return RoutedErrorBody;
  if (status === 500) return StatusBody;
  if (route.errorStyle === 'polars' && status !== 401) return PolarsErrorBody;
  return ErrorBody;
};

const DESCRIPTIONS: Readonly<Record<number, string>> = {
  400: 'Invalid request',
  401: 'Missing or invalid bearer token',
  402: 'Metered compute needs a payment method; do not retry',
  403: 'The plan does not allow this request; do not retry',
  404: 'Not found',
  413: 'Body too large',
  415: 'The body is not JSON (send Content-Type: application/json, or none)',
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
  const op = OPERATIONS[route.id];
  if (!op) throw new Error(`openapi: no operation described for route ${route.id}`);
  const statuses = [...op.errors, ...(route.auth === 'none' ? [] : [401, 500]), ...(op.body ? [415] : [])];
  const pathParams = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
  return {
    method: route.method.toLowerCase() as 'get' | 'post',
    path: route.path,
    operationId: route.id,
    summary: op.summary,
    ...(securityOf(route) === undefined ? {} : { security: securityOf(route) }),
    request: {
      ...(op.body ? { body: { content: { 'application/json': { schema: op.body as ZodType } }, required: true } } : {}),
      ...(op.query ? { query: op.query } : {}),
      ...(pathParams.length ? { params: z.object(Object.fromEntries(pathParams.map((p) => [p, op.params?.[p] ?? z.string()]))) } : {}),
    },
    responses: {
      200: { description: 'OK', content: { 'application/json': { schema: op.ok } } },
      ...Object.fromEntries(
        [...new Set(statuses)].sort().map((s) => [s, { description: describeStatus(route, s), content: { 'application/json': { schema: errorSchemaFor(route, s) } } }]),
      ),
    },
  };
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
  return generator.generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'lakeline',
      version: API_VERSION,
      description: 'Lineage ingestion (OpenLineage) and Iceberg lake queries.',
    },
    security: [{ bearer: [] }],
  }) as unknown as Record<string, unknown>;
};

/** The committed form of the document (`docs/openapi.json`): two-space indented, final newline. */
export const renderOpenApiDocument = (): string => `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
