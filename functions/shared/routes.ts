/**
 * @module routes
 * The route table: every endpoint, its handler module, how callers authenticate and which tables
 * its function may touch. The CDK app (`lib/api.ts`) and the local gateway (`local/gateway.ts`)
 * both read this table, so a route exists in both profiles or in neither. What each route accepts
 * and answers is its contract, under the same id (`contracts.ts`).
 */
import { ALERTS_TABLE, EVENTS_TABLE, LINEAGE_TABLE, NOTIFICATIONS_TABLE, ORGS_TABLE, RUNS_TABLE, type TableAccess, type TableDefinition } from './table-definitions.ts';

/** How a route authenticates callers. */
export type RouteAuth =
  /** Bearer API key only. */
  | 'key'
  /** Bearer API key, or the signed session cookie (routed, events and legacy endpoints). */
  | 'key-or-session'
  /** Public (the OpenAPI document). */
  | 'none';

/** The shape of error bodies a route answers with (the contract differs per endpoint). */
export type ErrorStyle =
  /** `{error}` for 4xx, `{status: 500}` for 500. */
  | 'plain'
  /** `{success: false, error}` for every error (the routed endpoint). */
  | 'routed'
  /** `{error, details}` for 4xx, `{status: 500}` for 500 (the polars endpoint). */
  | 'polars';

/** The routes' ids: CDK construct ids, log names, OpenAPI operation ids, keys of the contracts (`contracts.ts`). */
export type RouteId =
  | 'PostLineage'
  | 'PostLineageBatch'
  | 'GetEvents'
  | 'ListMarquezEvents'
  | 'PostQuery'
  | 'PostWarehouseQuery'
  | 'PostWarehousePolars'
  | 'PostSparkQuery'
  | 'GetRun'
  | 'PostRunAbort'
  | 'ListTables'
  | 'GetTable'
  | 'GetLineage'
  | 'GetColumnLineage'
  | 'ListNamespaces'
  | 'ListTags'
  | 'GetNamespace'
  | 'ListLineageJobs'
  | 'GetLineageJob'
  | 'ListLineageJobRuns'
  | 'ListLineageDatasets'
  | 'GetLineageDataset'
  | 'ListLineageDatasetVersions'
  | 'GetLineageDatasetVersion'
  | 'GetJobRun'
  | 'GetLineageRun'
  | 'SearchLineage'
  | 'GetHealth'
  | 'ListAlerts'
  | 'GetAlert'
  | 'PostAlertAction'
  | 'ListAlertRules'
  | 'PostAlertRule'
  | 'PutAlertRule'
  | 'DeleteAlertRule'
  | 'PostMcp'
  | 'GetOpenApi'
  | 'CreateWebhook'
  | 'ListWebhooks'
  | 'GetWebhook'
  | 'DeleteWebhook'
  | 'PostWebhookTest'
  | 'ListWebhookDeliveries';

/** One endpoint. */
export interface RouteDefinition {
  /** Stable id: CDK construct id and log name. */
  readonly id: RouteId;
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** API Gateway path, with `{param}` placeholders. */
  readonly path: string;
  /** Module under `functions/handlers/` (without extension) exporting `handler`. */
  readonly handler: string;
  readonly auth: RouteAuth;
  /**
   * Whether the route stores or changes data, so a read-only key may not call it (ADR 0049):
   * `always` is refused before the handler runs; `by-request` (a query that may write a table) is
   * refused by its use case once the request shows it writes. Absent: the route only reads.
   */
  readonly writes?: 'always' | 'by-request';
  readonly errorStyle: ErrorStyle;
  /** Tables the function reads or writes; the CDK grants exactly these. */
  readonly tables: readonly { readonly table: TableDefinition; readonly access: TableAccess }[];
  /** Whether the function reads or writes the blob store (raw bodies of large events). */
  readonly blobs?: TableAccess;
  /** Function memory in MB. @default 512 */
  readonly memoryMb?: number;
  /** Function timeout in seconds. @default 29 (API Gateway's own limit) */
  readonly timeoutSeconds?: number;
  /**
   * What the function does with managed Spark (EMR Serverless in AWS): `submit` starts job runs
   * (and reads the lake to check and describe the query), `cancel` stops them. The CDK grants
   * exactly that on the Spark application (`lib/spark.ts`).
   */
  readonly spark?: 'submit' | 'cancel';
  /**
   * What the function does with the lake: `read` resolves tables in the catalog and reads their
   * files; `write` also writes tables through the lake writer. The CDK grants exactly that
   * (`lib/lake.ts`).
   */
  readonly lake?: 'read' | 'write';
  /** Whether the function runs DuckDB in-process: it gets the DuckDB layer (`layers/duckdb`). */
  readonly duckdb?: boolean;
  /** Whether the function runs polars in the sandbox: it may invoke the sandbox functions (`lib/polars.ts`). */
  readonly polars?: boolean;
  /**
   * Whether the function starts, polls or stops bloom statements (Athena in AWS): it gets the
   * workgroup and its grants (`lib/bloom.ts`).
   */
  readonly bloom?: boolean;
  /**
   * Whether the function calls this API itself, as its caller (the MCP server, ADR 0048): it gets
   * the API's base URL (`LAKELINE_API_URL`).
   */
  readonly callsApi?: boolean;
  /**
   * Whether the function queues alert deliveries (the test delivery; ADR 0054): in AWS it may send
   * to the notifications' delivery queue and gets its URL (`lib/notifications.ts`).
   */
  readonly queuesDeliveries?: boolean;
}

const orgsRead = { table: ORGS_TABLE, access: 'RO' } as const;

/**
 * The lineage graph's read endpoints (Marquez's paths): each reads the Lineage table only
 * (ADR 0031); names with `/` or `:` travel URL-encoded in one path segment.
 */
function lineageGraphRoutes(): RouteDefinition[] {
  const read = (id: RouteId, path: string, handler: string): RouteDefinition => ({ id, method: 'GET', path, handler, auth: 'key', errorStyle: 'plain', tables: [{ table: LINEAGE_TABLE, access: 'RO' }] });
  const job = '/api/v1/namespaces/{namespace}/jobs/{job}';
  const dataset = '/api/v1/namespaces/{namespace}/datasets/{dataset}';
  return [
    // A graph shows up to thousands of records; the readers' record cache takes a quarter of the memory.
    { ...read('GetLineage', '/api/v1/lineage', 'get-lineage'), memoryMb: 1024 },
    read('GetColumnLineage', '/api/v1/column-lineage', 'get-column-lineage'),
    read('ListNamespaces', '/api/v1/namespaces', 'list-namespaces'),
    read('GetNamespace', '/api/v1/namespaces/{namespace}', 'get-namespace'),
    read('ListTags', '/api/v1/tags', 'list-tags'),
    read('ListLineageJobs', '/api/v1/namespaces/{namespace}/jobs', 'list-lineage-jobs'),
    read('GetLineageJob', job, 'get-lineage-job'),
    read('ListLineageJobRuns', `${job}/runs`, 'list-lineage-job-runs'),
    read('ListLineageDatasets', '/api/v1/namespaces/{namespace}/datasets', 'list-lineage-datasets'),
    read('GetLineageDataset', dataset, 'get-lineage-dataset'),
    read('ListLineageDatasetVersions', `${dataset}/versions`, 'list-lineage-dataset-versions'),
    read('GetLineageDatasetVersion', `${dataset}/versions/{version}`, 'get-lineage-dataset-version'),
    read('GetJobRun', '/api/v1/jobs/runs/{runId}', 'get-job-run'),
    read('GetLineageRun', '/api/v1/lineage-runs/{runId}', 'get-lineage-run'),
    read('SearchLineage', '/api/v1/search', 'search-lineage'),
  ];
}

/**
 * The alerts API (issue 27, ADR 0052): keys only, as the lineage graph's routes. An alert's answer
 * carries its blast radius, read from the Lineage table; acknowledging, resolving and editing rules
 * are writes (a read-only key may not).
 */
function alertRoutes(): RouteDefinition[] {
  const alertsRead = { table: ALERTS_TABLE, access: 'RO' } as const;
  const alertsWrite = { table: ALERTS_TABLE, access: 'RW' } as const;
  const lineageRead = { table: LINEAGE_TABLE, access: 'RO' } as const;
  const route = (id: RouteId, method: RouteDefinition['method'], path: string, handler: string, tables: RouteDefinition['tables'], writes: boolean): RouteDefinition => ({
    id,
    method,
    path,
    handler,
    auth: 'key',
    errorStyle: 'plain',
    tables,
    memoryMb: 512,
    ...(writes ? { writes: 'always' as const } : {}),
  });
  return [
    route('ListAlerts', 'GET', '/api/v1/alerts', 'list-alerts', [alertsRead], false),
    route('GetAlert', 'GET', '/api/v1/alerts/{alertId}', 'get-alert', [alertsRead, lineageRead], false),
    // `…/acknowledge` and `…/resolve` as one route: a function fewer in a stack near CloudFormation's 500 resources.
    // Acknowledging or resolving notifies the org's destinations.
    { ...route('PostAlertAction', 'POST', '/api/v1/alerts/{alertId}/{action}', 'post-alert-action', [alertsWrite, lineageRead, { table: NOTIFICATIONS_TABLE, access: 'RW' }], true), queuesDeliveries: true },
    route('ListAlertRules', 'GET', '/api/v1/alert-rules', 'list-alert-rules', [alertsRead], false),
    route('PostAlertRule', 'POST', '/api/v1/alert-rules', 'post-alert-rule', [alertsWrite], true),
    route('PutAlertRule', 'PUT', '/api/v1/alert-rules/{ruleId}', 'put-alert-rule', [alertsWrite], true),
    route('DeleteAlertRule', 'DELETE', '/api/v1/alert-rules/{ruleId}', 'delete-alert-rule', [alertsWrite], true),
  ];
}

/**
 * Alert notification destinations (issue 27, ADR 0054): keys only, as the graph's routes; a
 * read-only key reads them but creates, deletes and tests none.
 */
function webhookRoutes(): RouteDefinition[] {
  const route = (id: RouteId, method: RouteDefinition['method'], path: string, handler: string, writes: boolean): RouteDefinition => ({
    id,
    method,
    path,
    handler,
    auth: 'key',
    errorStyle: 'plain',
    tables: [{ table: NOTIFICATIONS_TABLE, access: writes ? 'RW' : 'RO' }],
    memoryMb: 256,
    ...(writes ? { writes: 'always' as const } : {}),
  });
  const one = '/api/v1/webhooks/{id}';
  return [
    route('CreateWebhook', 'POST', '/api/v1/webhooks', 'create-webhook', true),
    route('ListWebhooks', 'GET', '/api/v1/webhooks', 'list-webhooks', false),
    route('GetWebhook', 'GET', one, 'get-webhook', false),
    route('DeleteWebhook', 'DELETE', one, 'delete-webhook', true),
    { ...route('PostWebhookTest', 'POST', `${one}/test`, 'post-webhook-test', true), queuesDeliveries: true },
    route('ListWebhookDeliveries', 'GET', `${one}/deliveries`, 'list-webhook-deliveries', false),
  ];
}

/** Every route of the API. */
export const ROUTES: readonly RouteDefinition[] = [
  {
    id: 'PostLineage',
    writes: 'always',
    method: 'POST',
    path: '/api/v1/lineage',
    handler: 'post-lineage',
    auth: 'key',
    errorStyle: 'plain',
    tables: [{ table: EVENTS_TABLE, access: 'RW' }],
    blobs: 'RW',
  },
  {
    id: 'PostLineageBatch',
    writes: 'always',
    method: 'POST',
    path: '/api/v1/lineage/batch',
    handler: 'post-lineage-batch',
    auth: 'key',
    errorStyle: 'plain',
    tables: [{ table: EVENTS_TABLE, access: 'RW' }],
    blobs: 'RW',
  },
  {
    id: 'GetEvents',
    method: 'GET',
    path: '/api/v1/events',
    handler: 'get-events',
    auth: 'key-or-session',
    errorStyle: 'plain',
    tables: [{ table: EVENTS_TABLE, access: 'RO' }],
    blobs: 'RO',
  },
  {
    // Marquez's events path: the same store, Marquez's parameters and shape; keys only, as the
    // lineage graph's other Marquez paths.
    id: 'ListMarquezEvents',
    method: 'GET',
    path: '/api/v1/events/lineage',
    handler: 'list-marquez-events',
    auth: 'key',
    errorStyle: 'plain',
    tables: [{ table: EVENTS_TABLE, access: 'RO' }],
    blobs: 'RO',
  },
  {
    id: 'PostQuery',
    writes: 'by-request',
    method: 'POST',
    path: '/api/v1/query',
    handler: 'post-query',
    auth: 'key-or-session',
    errorStyle: 'routed',
    // Orgs RW: a polars run answered in the request is metered (addUsage) here.
    tables: [{ table: ORGS_TABLE, access: 'RW' }, { table: RUNS_TABLE, access: 'RW' }, { table: EVENTS_TABLE, access: 'RW' }],
    memoryMb: 3008,
    lake: 'write',
    duckdb: true,
    // Writes and reads too large to answer in the request become Spark runs.
    spark: 'submit',
    // Scripts (and SQL pinned to polars) run in the polars sandbox.
    polars: true,
    // Reads too large for the request, when bloom is the routing table's batch engine.
    bloom: true,
  },
  {
    id: 'PostWarehouseQuery',
    writes: 'by-request',
    method: 'POST',
    path: '/api/v1/warehouse/query',
    handler: 'post-warehouse-query',
    auth: 'key-or-session',
    errorStyle: 'plain',
    tables: [orgsRead, { table: EVENTS_TABLE, access: 'RW' }],
    memoryMb: 3008,
    lake: 'write',
    duckdb: true,
  },
  {
    id: 'PostWarehousePolars',
    method: 'POST',
    path: '/api/v1/warehouse/polars',
    handler: 'post-warehouse-polars',
    auth: 'key',
    errorStyle: 'polars',
    // RW: every run is metered (addUsage) on the org.
    tables: [{ table: ORGS_TABLE, access: 'RW' }],
    // Resolves tables in the catalog and reads their metadata; the sandboxes read the files. Write:
    // a destination is landed by the lake writer (from the sandbox's staged result file).
    lake: 'write',
    polars: true,
  },
  {
    id: 'PostSparkQuery',
    writes: 'always',
    method: 'POST',
    path: '/api/v2/spark/query',
    handler: 'post-spark-query',
    auth: 'key',
    errorStyle: 'plain',
    tables: [orgsRead, { table: RUNS_TABLE, access: 'RW' }, { table: EVENTS_TABLE, access: 'RW' }],
    spark: 'submit',
  },
  {
    id: 'GetRun',
    method: 'GET',
    path: '/api/v1/runs/{run_id}',
    handler: 'get-run',
    auth: 'key',
    errorStyle: 'plain',
    // A bloom run is brought up to date when it is read: ending it writes the run, its lineage
    // event and the org's metered usage.
    tables: [{ table: RUNS_TABLE, access: 'RW' }, { table: EVENTS_TABLE, access: 'RW' }, { table: ORGS_TABLE, access: 'RW' }],
    // A finished batch read of the routed endpoint: its rows are read from its results table.
    lake: 'read',
    duckdb: true,
    memoryMb: 1024,
    bloom: true,
  },
  {
    id: 'PostRunAbort',
    writes: 'always',
    method: 'POST',
    path: '/api/v1/runs/{run_id}/abort',
    handler: 'post-run-abort',
    auth: 'key',
    errorStyle: 'plain',
    // The ABORT lineage event; usage is metered when the stopped job reports its end.
    tables: [{ table: RUNS_TABLE, access: 'RW' }, { table: EVENTS_TABLE, access: 'RW' }],
    spark: 'cancel',
    bloom: true,
  },
  {
    id: 'ListTables',
    method: 'GET',
    path: '/api/v1/tables',
    handler: 'list-tables',
    auth: 'key',
    errorStyle: 'plain',
    tables: [],
    lake: 'read',
  },
  {
    id: 'GetTable',
    method: 'GET',
    path: '/api/v1/tables/{namespace}/{table}',
    handler: 'get-table',
    auth: 'key',
    errorStyle: 'plain',
    tables: [],
    lake: 'read',
  },
  ...lineageGraphRoutes(),
  ...alertRoutes(),
  ...webhookRoutes(),
  // The feed's marks live in the Lineage table; locally the head is the Events table's receipt index.
  { id: 'GetHealth', method: 'GET', path: '/api/v1/health', handler: 'get-health', auth: 'key', errorStyle: 'plain', tables: [{ table: LINEAGE_TABLE, access: 'RO' }, { table: EVENTS_TABLE, access: 'RO' }], memoryMb: 256 },
  {
    // The MCP server (ADR 0048): its tools call this API as the caller, so it touches no table,
    // lake or engine itself; it needs only the API's URL.
    id: 'PostMcp',
    method: 'POST',
    path: '/mcp',
    handler: 'post-mcp',
    auth: 'key',
    errorStyle: 'plain',
    tables: [],
    memoryMb: 512,
    callsApi: true,
  },
  {
    id: 'GetOpenApi',
    method: 'GET',
    path: '/openapi.json',
    handler: 'get-openapi',
    auth: 'none',
    errorStyle: 'plain',
    tables: [],
    memoryMb: 256,
  },
];

/**
 * Paths of Marquez's write APIs that predate OpenLineage (marking a run's state, sources, tagging a
 * dataset or a field): no route serves them, and every method on them answers 501 naming
 * OpenLineage as the way in (`handlers/method-not-allowed.ts`, from an `ANY` route in AWS and the
 * local gateway alike), rather than a bare 404 a Marquez user would take for a wrong URL. Marquez's
 * other writes (creating a namespace, job, run or dataset) are methods of paths the lineage graph
 * serves: 405, with the same pointer.
 */
export const MARQUEZ_LEGACY_PATHS: readonly string[] = [
  '/api/v1/jobs/runs/{runId}/{action}',
  '/api/v1/sources',
  '/api/v1/sources/{source}',
  '/api/v1/namespaces/{namespace}/datasets/{dataset}/tags/{tag}',
  '/api/v1/namespaces/{namespace}/datasets/{dataset}/fields/{field}/tags/{tag}',
  '/api/v1/tags/{tag}',
];

/** The API Gateway route key of a route (`POST /api/v1/lineage`). */
export const routeKey = (route: Pick<RouteDefinition, 'method' | 'path'>): string => `${route.method} ${route.path}`;

/** Looks a route up by its API Gateway route key. */
export const findRouteByKey = (key: string): RouteDefinition | undefined => ROUTES.find((r) => routeKey(r) === key);
