/**
 * @module contracts
 * What each route accepts and answers, one entry per route of the route table: its request (the
 * body's schema, size limit and parser; the query's schema and parser; the path parameters'
 * patterns), its 200 body and its error statuses. `httpHandler` parses requests with it, the
 * OpenAPI document is generated from it, and the HTTP test suites check every response they get
 * against it — so what a handler accepts, what the document says and what clients receive cannot
 * drift apart. Kept beside `routes.ts` (the route's infrastructure: handler, auth, grants), which the
 * CDK app, the authorizer and the local gateway read without bundling these schemas.
 */
import type { ZodType } from 'zod';
import { MAX_NAME_CHARS } from '#domain/input-limits';
import { MAX_BATCH_EVENTS } from '#domain/lineage/ingest';
import { parseListQuery } from '#domain/lineage/list-query';
import type { EventListQuery } from '#domain/lineage/ports';
import { parseMarquezEventsQuery } from '#domain/lineage/marquez-events';
import { checkRoutedRequest, type CheckedRoutedRequest } from '#domain/routing/request';
import { parseResultsPage, type ResultsPage } from '#domain/runs/results';
import type { PolarsResponse as PolarsAnswer } from '#domain/polars/run-polars';
import type { LegacyQueryResponse as LegacyAnswer } from '#domain/query/legacy-query';
import type { UnifiedQueryResponse as RoutedAnswer } from '#domain/query/response';
import type { RunAnswer } from '#domain/runs/read';
import type { SparkQueryAnswer } from '#domain/runs/submit';
import type { ColumnLineageQuery as ColumnLineageRequest } from '#domain/lineage-graph/column-lineage';
import type { LineageGraphQuery } from '#domain/lineage-graph/graph';
import { parseColumnLineageQuery, parseLineageQuery, parsePage, parseSearchQuery } from '#domain/lineage-graph/params';
import type { Page } from '#domain/lineage-graph/ports';
import type { SearchQuery as SearchRequest } from '#domain/lineage-graph/search';
import type { JsonBody, JsonText } from './request.ts';
import type { RouteDefinition, RouteId } from './routes.ts';
import { Health } from './schemas/health.ts';
import { Alert, AlertList, AlertRule, AlertRuleInput, AlertRules, AlertsQuery, parseAlertRuleInput, parseAlertsQuery } from './schemas/alerts.ts';
import type { AlertListQuery, RuleInput } from '#domain/alerts/manage';
import { ErrorBody, GatewayMessageBody, PolarsErrorBody, RoutedErrorBody, StatusBody } from './schemas/common.ts';
import { BatchFailure, BatchResponse, EventsQuery, LINEAGE_UUID, LineageAccepted, MarquezEvents, MarquezEventsQuery, StoredLineageEvent } from './schemas/lineage.ts';
import {
  ColumnLineage,
  ColumnLineageQuery,
  Dataset,
  Datasets,
  DatasetVersions,
  JobRun,
  JobRuns,
  Lineage,
  LineageJob,
  LineageJobs,
  LineageQuery,
  LineageRun,
  Namespace,
  Namespaces,
  Tags,
  DatasetVersion,
  PageQuery,
  SearchQuery,
  SearchResults,
} from './schemas/lineage-graph.ts';
import { CreatedWebhook, CreateWebhookRequest, parseCreateWebhookRequest, parseWebhookPage, Webhook, WEBHOOK_ID_PARAM, WebhookDeliveries, WebhookDelivery, WebhookPageQuery, Webhooks } from './schemas/notifications.ts';
import type { NewDestination } from '#domain/notifications/manage';
import type { PageRequest } from '#domain/notifications/deliveries';
import { McpRequestBody, McpResponseBody, parseMcpMessage } from './schemas/mcp.ts';
import { OPENLINEAGE_EVENT_REF } from './schemas/openlineage-openapi.ts';
import { parsePolarsRequest, type PolarsRequestBody } from './schemas/polars.ts';
import {
  LegacyQueryRequest,
  LegacyQueryResponse,
  parseLegacyQueryRequest,
  parseRoutedQueryRequest,
  parseSparkQueryRequest,
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
  type LegacyQueryRequestBody,
  type SparkQueryRequestBody,
} from './schemas/query.ts';
import { z } from './schemas/zod.ts';

/** A JSON Schema written out (the OpenLineage event, which the validator reads as JSON Schema). */
export type RawSchema = Readonly<Record<string, unknown>>;

/** Raw query string or path parameters. */
export type RawParams = Readonly<Record<string, string | undefined>>;

/** How a route's body is read: parsed as strict JSON, or kept as text (a batch is scanned before parsing). */
export type BodyContract<B> = {
  /** The body as the document describes it. */
  readonly schema: ZodType | RawSchema;
  /** Largest body accepted, after content decoding (413 above). */
  readonly maxBytes: number;
} & ({ readonly read: 'json'; readonly parse: (body: JsonBody) => B } | { readonly read: 'text'; readonly parse: (body: JsonText) => B });

/** One route's request and response. */
export interface RouteContract<B = undefined, Q = RawParams, R = unknown> {
  /** The route it describes, in the route table. */
  readonly id: RouteId;
  readonly summary: string;
  readonly body?: BodyContract<B>;
  /**
   * The query string: its schema for the document, and the parser that turns it into what the use
   * case takes. `rules` (JSON Schema) relate parameters to each other; with them the document
   * states the query string as one object (form style, exploded: the same query string), since
   * separate parameters cannot be related.
   */
  readonly query?: { readonly schema: z.ZodObject; readonly parse: (params: RawParams) => Q; readonly rules?: Readonly<Record<string, unknown>> };
  /** Patterns of the path parameters that have one (others are any non-empty segment). */
  readonly params?: Readonly<Record<string, ZodType>>;
  /** The 200 body. */
  readonly response: ZodType<R>;
  /** Statuses besides 200 and those every route of its kind answers ({@link statusesOf}). */
  readonly errors: readonly number[];
  /** Error bodies other than the route's error style gives (the batch endpoint's failure summaries). */
  readonly errorBodies?: Readonly<Partial<Record<number, ZodType>>>;
  /** Statuses answered with no body at all (the MCP transport's 202). */
  readonly noBody?: readonly number[];
}

/** The request body sizes: API Gateway's own limit, except Spark's, whose SQL is capped at 100 000 characters. */
const GATEWAY_LIMIT_BYTES = 10 * 1024 * 1024;

const IDENTIFIER = z.string().max(128).regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/).openapi({ description: 'letters, digits and underscores, starting with a letter or underscore' });

/** `POST /api/v1/lineage`: one event; the OpenLineage validator reads it (a 400 names the field). */
export const PostLineage: RouteContract<JsonBody, RawParams, z.infer<typeof LineageAccepted>> = {
  id: 'PostLineage',
  summary: 'Record an OpenLineage event',
  body: { schema: OPENLINEAGE_EVENT_REF, maxBytes: GATEWAY_LIMIT_BYTES, read: 'json', parse: (body) => body },
  response: LineageAccepted,
  errors: [400, 403, 413, 503],
};

/** `POST /api/v1/lineage/batch`: kept as text, so its length is checked before anything is parsed. */
export const PostLineageBatch: RouteContract<JsonText, RawParams, z.infer<typeof BatchResponse>> = {
  id: 'PostLineageBatch',
  summary: `Record a batch of OpenLineage events (at most ${MAX_BATCH_EVENTS}; 413 above)`,
  body: { schema: { type: 'array', items: OPENLINEAGE_EVENT_REF, maxItems: MAX_BATCH_EVENTS }, maxBytes: GATEWAY_LIMIT_BYTES, read: 'text', parse: (body) => body },
  response: BatchResponse,
  errors: [400, 403, 413, 503],
  // No valid element (400) or the store could not take some (503): the summary and the refused
  // elements, with `error`; a body that is no array at all is a plain `{error}`.
  errorBodies: { 400: z.union([BatchFailure, ErrorBody]), 503: z.union([BatchFailure, ErrorBody]) },
};

/** `GET /api/v1/events`. */
export const GetEvents: RouteContract<undefined, EventListQuery, z.infer<typeof StoredLineageEvent>[]> = {
  id: 'GetEvents',
  summary: 'List stored lineage events',
  query: { schema: EventsQuery, parse: parseListQuery },
  response: z.array(StoredLineageEvent),
  errors: [400],
};

/** `GET /api/v1/events/lineage`: Marquez's events path (the events as sent, by event time). */
export const ListMarquezEvents: RouteContract<undefined, EventListQuery, z.infer<typeof MarquezEvents>> = {
  id: 'ListMarquezEvents',
  summary: "Stored lineage events as sent, by event time (Marquez's events path)",
  query: { schema: MarquezEventsQuery, parse: parseMarquezEventsQuery },
  response: MarquezEvents,
  errors: [400],
};

/** `POST /api/v1/query`. */
export const PostQuery: RouteContract<CheckedRoutedRequest, RawParams, z.infer<typeof UnifiedQueryResponse>> = {
  id: 'PostQuery',
  summary: 'Routed query: parse, estimate, pick an engine, run',
  body: { schema: RoutedQueryRequest, maxBytes: GATEWAY_LIMIT_BYTES, read: 'json', parse: (body) => checkRoutedRequest(parseRoutedQueryRequest(body.value)) },
  response: UnifiedQueryResponse,
  errors: [400, 402, 403],
};

/** `POST /api/v1/warehouse/query` (legacy). */
export const PostWarehouseQuery: RouteContract<LegacyQueryRequestBody, RawParams, z.infer<typeof LegacyQueryResponse>> = {
  id: 'PostWarehouseQuery',
  summary: 'Legacy DuckDB query (Pro plan)',
  body: { schema: LegacyQueryRequest, maxBytes: GATEWAY_LIMIT_BYTES, read: 'json', parse: (body) => parseLegacyQueryRequest(body.value) },
  response: LegacyQueryResponse,
  errors: [400, 403],
};

/** `POST /api/v1/warehouse/polars` (scripts are capped again inside the sandbox). */
export const PostWarehousePolars: RouteContract<PolarsRequestBody, RawParams, z.infer<typeof PolarsResponse>> = {
  id: 'PostWarehousePolars',
  summary: 'Polars query or script in a sandbox',
  body: { schema: PolarsRequest, maxBytes: GATEWAY_LIMIT_BYTES, read: 'json', parse: (body) => parsePolarsRequest(body.value) },
  response: PolarsResponse,
  errors: [400, 402, 403],
};

/** `POST /api/v2/spark/query`. */
export const PostSparkQuery: RouteContract<SparkQueryRequestBody, RawParams, z.infer<typeof SparkQueryResponse>> = {
  id: 'PostSparkQuery',
  summary: 'Managed Spark query into an output table',
  body: { schema: SparkQueryRequest, maxBytes: 1024 * 1024, read: 'json', parse: (body) => parseSparkQueryRequest(body.value) },
  response: SparkQueryResponse,
  errors: [400, 402, 403],
};

/** `GET /api/v1/runs/{run_id}` (a finished batch read carries a page of its rows). */
export const GetRun: RouteContract<undefined, ResultsPage, z.infer<typeof Run>> = {
  id: 'GetRun',
  summary: 'Poll a run',
  query: { schema: RunResultsQuery, parse: parseResultsPage },
  response: Run,
  errors: [400, 404],
};

/** `POST /api/v1/runs/{run_id}/abort`. */
export const PostRunAbort: RouteContract<undefined, RawParams, z.infer<typeof Run>> = {
  id: 'PostRunAbort',
  summary: 'Abort a running run',
  response: Run,
  errors: [403, 404, 409],
};

/** `GET /api/v1/tables?namespace=`. */
export const ListTables: RouteContract<undefined, { readonly namespace?: string }, z.infer<typeof TableSummary>[]> = {
  id: 'ListTables',
  summary: 'List lake tables',
  // A namespace given is checked, an empty one included (the document's pattern refuses it).
  query: { schema: z.object({ namespace: IDENTIFIER.optional() }), parse: (params) => (params.namespace === undefined ? {} : { namespace: params.namespace }) },
  response: z.array(TableSummary),
  errors: [400],
};

/** `GET /api/v1/tables/{namespace}/{table}`. */
export const GetTable: RouteContract<undefined, RawParams, z.infer<typeof TableDescription>> = {
  id: 'GetTable',
  summary: 'Describe a lake table',
  params: { namespace: IDENTIFIER, table: IDENTIFIER },
  response: TableDescription,
  errors: [400, 404],
};

/** A namespace or a name in one path segment: anything, URL-encoded (`postgres%3A%2F%2Fdb`, `public%2Forders`). */
const LINEAGE_NAME = z.string().min(1).max(MAX_NAME_CHARS).openapi({ description: 'a namespace or a name, URL-encoded (`/` as %2F, `:` as %3A)' });
const pageQuery = { schema: PageQuery, parse: (params: RawParams) => parsePage(params) };

/** `GET /api/v1/lineage` (the same path as the POST that records an event). */
export const GetLineage: RouteContract<undefined, LineageGraphQuery, z.infer<typeof Lineage>> = {
  id: 'GetLineage',
  summary: "The lineage graph around a job or dataset, as Marquez answers it (plus direction, asOf and a run's graph)",
  query: {
    schema: LineageQuery,
    parse: parseLineageQuery,
    // nodeId or runId (or both); asOf does not combine with runId (a run is already one moment).
    rules: { anyOf: [{ required: ['nodeId'] }, { required: ['runId'] }], not: { required: ['asOf', 'runId'] } },
  },
  response: Lineage,
  errors: [400, 404],
};

/** `GET /api/v1/column-lineage`. */
export const GetColumnLineage: RouteContract<undefined, ColumnLineageRequest, z.infer<typeof ColumnLineage>> = {
  id: 'GetColumnLineage',
  summary: 'Column lineage of a dataset or one of its fields',
  query: { schema: ColumnLineageQuery, parse: parseColumnLineageQuery },
  response: ColumnLineage,
  errors: [400, 404],
};

/** `GET /api/v1/namespaces`. */
export const ListNamespaces: RouteContract<undefined, Page, z.infer<typeof Namespaces>> = {
  id: 'ListNamespaces',
  summary: 'Lineage namespaces, by name',
  query: pageQuery,
  response: Namespaces,
  errors: [400],
};

/** `GET /api/v1/tags`. */
export const ListTags: RouteContract<undefined, Page, z.infer<typeof Tags>> = {
  id: 'ListTags',
  summary: 'Tag names the OpenLineage tags facets carried (jobs, datasets, columns), by name',
  query: pageQuery,
  response: Tags,
  errors: [400],
};

/** `GET /api/v1/namespaces/{namespace}`. */
export const GetNamespace: RouteContract<undefined, RawParams, z.infer<typeof Namespace>> = {
  id: 'GetNamespace',
  summary: 'A lineage namespace',
  params: { namespace: LINEAGE_NAME },
  response: Namespace,
  errors: [400, 404],
};

/** `GET /api/v1/namespaces/{namespace}/jobs`. */
export const ListLineageJobs: RouteContract<undefined, Page, z.infer<typeof LineageJobs>> = {
  id: 'ListLineageJobs',
  summary: "A namespace's jobs, by name",
  query: pageQuery,
  params: { namespace: LINEAGE_NAME },
  response: LineageJobs,
  errors: [400],
};

/** `GET /api/v1/namespaces/{namespace}/jobs/{job}`. */
export const GetLineageJob: RouteContract<undefined, RawParams, z.infer<typeof LineageJob>> = {
  id: 'GetLineageJob',
  summary: 'A job: its latest run, current inputs and outputs, facets',
  params: { namespace: LINEAGE_NAME, job: LINEAGE_NAME },
  response: LineageJob,
  errors: [400, 404],
};

/** `GET /api/v1/namespaces/{namespace}/jobs/{job}/runs`. */
export const ListLineageJobRuns: RouteContract<undefined, Page, z.infer<typeof JobRuns>> = {
  id: 'ListLineageJobRuns',
  summary: "A job's runs, newest first",
  query: pageQuery,
  params: { namespace: LINEAGE_NAME, job: LINEAGE_NAME },
  response: JobRuns,
  errors: [400, 404],
};

/** `GET /api/v1/namespaces/{namespace}/datasets`. */
export const ListLineageDatasets: RouteContract<undefined, Page, z.infer<typeof Datasets>> = {
  id: 'ListLineageDatasets',
  summary: "A namespace's datasets, by name",
  query: pageQuery,
  params: { namespace: LINEAGE_NAME },
  response: Datasets,
  errors: [400],
};

/** `GET /api/v1/namespaces/{namespace}/datasets/{dataset}`. */
export const GetLineageDataset: RouteContract<undefined, RawParams, z.infer<typeof Dataset>> = {
  id: 'GetLineageDataset',
  summary: 'A dataset: fields, facets, last modified, producing job (found by any of its names)',
  params: { namespace: LINEAGE_NAME, dataset: LINEAGE_NAME },
  response: Dataset,
  errors: [400, 404],
};

/** `GET /api/v1/namespaces/{namespace}/datasets/{dataset}/versions`. */
export const ListLineageDatasetVersions: RouteContract<undefined, Page, z.infer<typeof DatasetVersions>> = {
  id: 'ListLineageDatasetVersions',
  summary: "A dataset's versions (one per run that wrote it), newest first",
  query: pageQuery,
  params: { namespace: LINEAGE_NAME, dataset: LINEAGE_NAME },
  response: DatasetVersions,
  errors: [400, 404],
};

/** The `{runId}` of a lineage run's paths (Marquez's and lakeline's). */
const LINEAGE_RUN_ID_PARAM = { runId: LINEAGE_UUID.openapi({ description: 'a UUID', example: '0176a8c2-fe01-7439-87e6-56a1a1b4029f' }) };

/** `GET /api/v1/namespaces/{namespace}/datasets/{dataset}/versions/{version}`. */
export const GetLineageDatasetVersion: RouteContract<undefined, RawParams, z.infer<typeof DatasetVersion>> = {
  id: 'GetLineageDatasetVersion',
  summary: "One of a dataset's versions, by the id its versions list gives",
  params: { namespace: LINEAGE_NAME, dataset: LINEAGE_NAME, version: z.string().min(1).max(MAX_NAME_CHARS).openapi({ description: 'a version id (UUID) from the versions list' }) },
  response: DatasetVersion,
  errors: [400, 404],
};

/** `GET /api/v1/jobs/runs/{runId}`: Marquez's run path. */
export const GetJobRun: RouteContract<undefined, RawParams, z.infer<typeof JobRun>> = {
  id: 'GetJobRun',
  summary: "A run of a job, with the versions it read and wrote (Marquez's run path)",
  params: LINEAGE_RUN_ID_PARAM,
  response: JobRun,
  errors: [400, 404],
};

/** `GET /api/v1/lineage-runs/{runId}` (`/api/v1/runs/{run_id}` is the query runs' endpoint). */
export const GetLineageRun: RouteContract<undefined, RawParams, z.infer<typeof LineageRun>> = {
  id: 'GetLineageRun',
  summary: 'A lineage run: its events merged, parent, children, facets',
  params: LINEAGE_RUN_ID_PARAM,
  response: LineageRun,
  errors: [400, 404],
};

/** `GET /api/v1/search`. */
export const SearchLineage: RouteContract<undefined, SearchRequest, z.infer<typeof SearchResults>> = {
  id: 'SearchLineage',
  summary: 'Jobs and datasets whose name (or symlink alias) contains q',
  query: { schema: SearchQuery, parse: parseSearchQuery },
  response: SearchResults,
  errors: [400],
};

/** `GET /api/v1/health`. */
export const GetHealth: RouteContract<undefined, RawParams, z.infer<typeof Health>> = {
  id: 'GetHealth',
  summary: "The caller's organization in the event feed: each subscriber's lag behind the newest stored event",
  response: Health,
  errors: [],
};

/** An alert's id in a path: when it opened, then a hash. */
const ALERT_ID_PARAM = { alertId: z.string().regex(/^\d{8}T\d{6}Z-[0-9a-f]{16}$/).openapi({ description: 'an alert id', example: '20261128T010203Z-3f9a1c2b4d5e6f70' }) };
/** A rule's id in a path. */
const RULE_ID_PARAM = { ruleId: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/).openapi({ description: 'a rule id', example: 'default-run-failed' }) };
/** Rule bodies are small: a kind, a few patterns and settings. */
const RULE_MAX_BYTES = 64 * 1024;

/** `GET /api/v1/alerts`. */
export const ListAlerts: RouteContract<undefined, AlertListQuery, z.infer<typeof AlertList>> = {
  id: 'ListAlerts',
  summary: "The organization's alerts, newest first (filters: state, kind, namespace, time range; paged by cursor)",
  query: { schema: AlertsQuery, parse: parseAlertsQuery },
  response: AlertList,
  errors: [400],
};

/** `GET /api/v1/alerts/{alertId}`. */
export const GetAlert: RouteContract<undefined, RawParams, z.infer<typeof Alert>> = {
  id: 'GetAlert',
  summary: 'An alert with its runs and its blast radius (the jobs and datasets downstream, with owners)',
  params: ALERT_ID_PARAM,
  response: Alert,
  errors: [400, 404],
};

/** `POST /api/v1/alerts/{alertId}/acknowledge` and `…/resolve`. */
export const PostAlertAction: RouteContract<undefined, RawParams, z.infer<typeof Alert>> = {
  id: 'PostAlertAction',
  summary: 'Acknowledge or resolve an alert (again: no change; acknowledging a resolved alert: 409); a resolved alert’s next signal opens a new one',
  params: { ...ALERT_ID_PARAM, action: z.enum(['acknowledge', 'resolve']).openapi({ description: '`acknowledge` or `resolve`' }) },
  response: Alert,
  errors: [400, 403, 404, 409],
};

/** `GET /api/v1/alert-rules`. */
export const ListAlertRules: RouteContract<undefined, RawParams, z.infer<typeof AlertRules>> = {
  id: 'ListAlertRules',
  summary: "The organization's alert rules: each kind's built-in rule, then its own",
  response: AlertRules,
  errors: [],
};

/** `POST /api/v1/alert-rules`. */
export const PostAlertRule: RouteContract<RuleInput, RawParams, z.infer<typeof AlertRule>> = {
  id: 'PostAlertRule',
  summary: 'Add an alert rule scoped to namespaces, jobs or datasets by pattern',
  body: { schema: AlertRuleInput, maxBytes: RULE_MAX_BYTES, read: 'json', parse: (body) => parseAlertRuleInput(body.value) },
  response: AlertRule,
  // 409: a rule with no scope (the built-in rule already applies everywhere).
  errors: [400, 403, 409, 413],
};

/** `PUT /api/v1/alert-rules/{ruleId}`. */
export const PutAlertRule: RouteContract<RuleInput, RawParams, z.infer<typeof AlertRule>> = {
  id: 'PutAlertRule',
  summary: 'Replace an alert rule (a built-in one: tune or turn off; its scope stays everything)',
  params: RULE_ID_PARAM,
  body: { schema: AlertRuleInput, maxBytes: RULE_MAX_BYTES, read: 'json', parse: (body) => parseAlertRuleInput(body.value) },
  response: AlertRule,
  // 409: a scope on a built-in rule, or another kind.
  errors: [400, 403, 404, 409, 413],
};

/** `DELETE /api/v1/alert-rules/{ruleId}`. */
export const DeleteAlertRule: RouteContract<undefined, RawParams, z.infer<typeof AlertRules>> = {
  id: 'DeleteAlertRule',
  summary: "Delete one of the organization's rules (a built-in one: 409, turn it off instead); answers the rules left",
  params: RULE_ID_PARAM,
  response: AlertRules,
  errors: [400, 403, 404, 409],
};

/** Largest MCP message accepted: a tool call carries at most a query (100 000 characters) and a few names. */
const MCP_MAX_BYTES = 1024 * 1024;

/** `POST /mcp`: the Model Context Protocol's Streamable HTTP transport, stateless, JSON answers (ADR 0048). */
export const PostMcp: RouteContract<unknown, RawParams, z.infer<typeof McpResponseBody>> = {
  id: 'PostMcp',
  summary: 'Model Context Protocol (Streamable HTTP, stateless): lineage and lake tools over this API as the caller',
  body: { schema: McpRequestBody, maxBytes: MCP_MAX_BYTES, read: 'json', parse: (body) => parseMcpMessage(body.value) },
  response: McpResponseBody,
  // 202: a notification or a response (no body), as the transport specifies.
  errors: [202, 400],
  noBody: [202],
};

/** `GET /openapi.json`. */
export const GetOpenApi: RouteContract<undefined, RawParams, Record<string, unknown>> = {
  id: 'GetOpenApi',
  summary: 'This document',
  response: z.record(z.string(), z.unknown()),
  errors: [],
};

/** `POST /api/v1/webhooks`: the URL is checked (SSRF) after resolving its host; the secret is in this answer only. */
export const CreateWebhook: RouteContract<NewDestination, RawParams, z.infer<typeof CreatedWebhook>> = {
  id: 'CreateWebhook',
  summary: 'Create a webhook (or Slack) destination for alert notices; answers its signing secret, once',
  body: { schema: CreateWebhookRequest, maxBytes: 16 * 1024, read: 'json', parse: (body) => parseCreateWebhookRequest(body.value) },
  response: CreatedWebhook,
  errors: [400, 403, 413],
};

const webhookPage = { schema: WebhookPageQuery, parse: parseWebhookPage };

/** `GET /api/v1/webhooks`. */
export const ListWebhooks: RouteContract<undefined, PageRequest, z.infer<typeof Webhooks>> = {
  id: 'ListWebhooks',
  summary: "The org's webhook destinations (never their secrets)",
  query: webhookPage,
  response: Webhooks,
  errors: [400],
};

/** `GET /api/v1/webhooks/{id}`. */
export const GetWebhook: RouteContract<undefined, RawParams, z.infer<typeof Webhook>> = {
  id: 'GetWebhook',
  summary: 'A webhook destination (never its secret)',
  params: WEBHOOK_ID_PARAM,
  response: Webhook,
  errors: [400, 404],
};

/** `DELETE /api/v1/webhooks/{id}`. */
export const DeleteWebhook: RouteContract<undefined, RawParams, z.infer<typeof Webhook>> = {
  id: 'DeleteWebhook',
  summary: 'Delete a webhook destination; answers what was deleted',
  params: WEBHOOK_ID_PARAM,
  response: Webhook,
  errors: [400, 403, 404],
};

/** `POST /api/v1/webhooks/{id}/test`. */
export const PostWebhookTest: RouteContract<undefined, RawParams, z.infer<typeof WebhookDelivery>> = {
  id: 'PostWebhookTest',
  summary: 'Queue a test delivery to a webhook; answers its delivery log entry (PENDING)',
  params: WEBHOOK_ID_PARAM,
  response: WebhookDelivery,
  errors: [400, 403, 404],
};

/** `GET /api/v1/webhooks/{id}/deliveries`. */
export const ListWebhookDeliveries: RouteContract<undefined, PageRequest, z.infer<typeof WebhookDeliveries>> = {
  id: 'ListWebhookDeliveries',
  summary: "A webhook's delivery log, newest first: status, attempts, last error, timestamps",
  query: webhookPage,
  params: WEBHOOK_ID_PARAM,
  response: WebhookDeliveries,
  errors: [400, 404],
};

/** Every route's contract, by route id (a route without one fails to compile; each names its own id). */
export const CONTRACTS: { readonly [K in RouteId]: RouteContract<unknown, unknown, unknown> } = {
  PostLineage,
  PostLineageBatch,
  GetEvents,
  ListMarquezEvents,
  PostQuery,
  PostWarehouseQuery,
  PostWarehousePolars,
  PostSparkQuery,
  GetRun,
  PostRunAbort,
  ListTables,
  GetTable,
  GetLineage,
  GetColumnLineage,
  ListNamespaces,
  GetNamespace,
  ListTags,
  ListLineageJobs,
  GetLineageJob,
  ListLineageJobRuns,
  ListLineageDatasets,
  GetLineageDataset,
  ListLineageDatasetVersions,
  GetLineageDatasetVersion,
  GetJobRun,
  GetLineageRun,
  SearchLineage,
  GetHealth,
  ListAlerts,
  GetAlert,
  PostAlertAction,
  ListAlertRules,
  PostAlertRule,
  PutAlertRule,
  DeleteAlertRule,
  PostMcp,
  GetOpenApi,
  CreateWebhook,
  ListWebhooks,
  GetWebhook,
  DeleteWebhook,
  PostWebhookTest,
  ListWebhookDeliveries,
};

/**
 * The gateway's answer to a request line and headers above its limit (10,240 bytes in API
 * Gateway): any route, whatever its parameters say, since no OpenAPI keyword bounds a whole URL.
 */
export const REQUEST_HEAD_TOO_LARGE = 431;

/**
 * Every status a route answers: 200, its own errors, and those of its kind — 401 and 500 behind
 * the authorizer, 503 when a backing store (or the credential check) is unavailable, 415 for a
 * body that is not JSON — and the gateway's 431 for a request head above its limit.
 */
export const statusesOf = (route: RouteDefinition, contract: RouteContract<unknown, unknown, unknown>): number[] =>
  [...new Set([200, ...contract.errors, ...(route.auth === 'none' ? [] : [401, 500, 503]), ...(contract.body ? [415] : []), REQUEST_HEAD_TOO_LARGE])].sort((a, b) => a - b);


/** The body schema of a status: the 200 body, a route's own error body, or its error style's. */
export const bodySchemaOf = (route: RouteDefinition, contract: RouteContract<unknown, unknown, unknown>, status: number): ZodType => {
  if (status === 200) return contract.response;
  if (status === REQUEST_HEAD_TOO_LARGE) return GatewayMessageBody;
  const own = contract.errorBodies?.[status];
  if (own) return own;
  if (route.errorStyle === 'routed') return RoutedErrorBody;
  if (status === 500) return StatusBody;
  if (route.errorStyle === 'polars' && status !== 401) return PolarsErrorBody;
  return ErrorBody;
};

/** True when each of two types is assignable to the other (the same values, readonly aside). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compiles only for `true`. */
type Holds<T extends true> = T;

/**
 * The domain's answer types and the response schemas describe the same values, both ways: a field
 * added to one and not the other, or a type widened on one side, fails to compile. (`httpHandler`
 * checks only that an answer fits its schema; this catches a schema looser than the answers.)
 */
export type DomainAnswersMatchTheirSchemas = [
  Holds<Same<RoutedAnswer, z.infer<typeof UnifiedQueryResponse>>>,
  Holds<Same<LegacyAnswer, z.infer<typeof LegacyQueryResponse>>>,
  Holds<Same<PolarsAnswer, z.infer<typeof PolarsResponse>>>,
  Holds<Same<SparkQueryAnswer, z.infer<typeof SparkQueryResponse>>>,
  Holds<Same<RunAnswer, z.infer<typeof Run>>>,
];
