/**
 * @module api/client
 * The console's one way to the lakeline API: typed calls of the public endpoints, same origin
 * (the local gateway, or CloudFront routing `/api/*` to API Gateway), the caller's API key in the
 * `Authorization` header — never in a URL — or, for a cookie session, nothing but the cookie the
 * browser sends itself. A failed answer throws an {@link ApiError} carrying the API's own words.
 */
import type { Credentials } from './credentials.ts';
import { apiErrorOf } from './errors.ts';
import type {
  ColumnLineage,
  ColumnLineageParams,
  Dataset,
  DatasetVersions,
  EventsParams,
  JobRuns,
  Lineage,
  LineageEvent,
  LineageJob,
  LineageJobs,
  LineageParams,
  LineageRun,
  Namespaces,
  QueryRequest,
  QueryResponse,
  Run,
  SearchParams,
  SearchResults,
  TableDescription,
  TableSummary,
  Webhook,
  WebhookDelivery,
} from './types.ts';

export type { Credentials };

/** Options of one call. */
export interface CallOptions {
  readonly signal?: AbortSignal;
}

const readBody = async (response: Response): Promise<unknown> => {
  const raw = await response.text();
  if (raw === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
};

const query = (params: Record<string, string | number | undefined>): string => {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== '') search.set(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
};

/** A page of a listing (`limit` 1..1000, `offset`). */
export interface Page {
  readonly limit?: number;
  readonly offset?: number;
}

const namespacePath = (namespace: string): string => `/api/v1/namespaces/${encodeURIComponent(namespace)}`;

/** The API as one signed-in caller. */
export const createApiClient = (credentials: Credentials) => {
  const call = async <T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, options: CallOptions = {}): Promise<T> => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (credentials.kind === 'key') headers.authorization = `Bearer ${credentials.apiKey}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(path, {
      method,
      headers,
      // A session rides on the cookie; a key must be the only credential (the API lets a header decide anyway).
      credentials: credentials.kind === 'session' ? 'same-origin' : 'omit',
      cache: 'no-store',
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const parsed = await readBody(response);
    if (!response.ok) throw apiErrorOf(response.status, parsed, `${method} ${path.split('?')[0]}`);
    return parsed as T;
  };

  return {
    credentials,
    /** `GET /api/v1/events`: one page of stored events. */
    events: (params: EventsParams, options?: CallOptions) => call<LineageEvent[]>('GET', `/api/v1/events${query({ ...params })}`, undefined, options),
    /** `GET /api/v1/tables`: the lake's tables, of one namespace or all. */
    tables: (namespace?: string, options?: CallOptions) => call<TableSummary[]>('GET', `/api/v1/tables${query({ namespace })}`, undefined, options),
    /** `GET /api/v1/tables/{namespace}/{table}`: schema, partitioning, snapshots, size. */
    table: (namespace: string, table: string, options?: CallOptions) =>
      call<TableDescription>('GET', `/api/v1/tables/${encodeURIComponent(namespace)}/${encodeURIComponent(table)}`, undefined, options),
    /** `POST /api/v1/query`: a routed query, a script, or (with `explain`) only the routing decision. */
    query: (request: QueryRequest, options?: CallOptions) => call<QueryResponse>('POST', '/api/v1/query', request, options),
    /** `GET /api/v1/runs/{run_id}`: a run's state, and a page of a finished batch read's rows. */
    run: (runId: string, page: { offset?: number; limit?: number } = {}, options?: CallOptions) =>
      call<Run>('GET', `/api/v1/runs/${encodeURIComponent(runId)}${query({ ...page })}`, undefined, options),
    /** `POST /api/v1/runs/{run_id}/abort`. */
    abortRun: (runId: string, options?: CallOptions) => call<Run>('POST', `/api/v1/runs/${encodeURIComponent(runId)}/abort`, undefined, options),
    /** `GET /api/v1/lineage`: the graph around a node (or one run's graph). */
    lineage: (params: LineageParams, options?: CallOptions) => call<Lineage>('GET', `/api/v1/lineage${query({ ...params })}`, undefined, options),
    /** `GET /api/v1/column-lineage`: the column graph of a dataset or one of its fields. */
    columnLineage: (params: ColumnLineageParams, options?: CallOptions) => call<ColumnLineage>('GET', `/api/v1/column-lineage${query({ ...params })}`, undefined, options),
    /** `GET /api/v1/search`: jobs and datasets whose names hold `q`. */
    search: (params: SearchParams, options?: CallOptions) => call<SearchResults>('GET', `/api/v1/search${query({ ...params })}`, undefined, options),
    /** `GET /api/v1/namespaces`. */
    namespaces: (page: Page = {}, options?: CallOptions) => call<Namespaces>('GET', `/api/v1/namespaces${query({ ...page })}`, undefined, options),
    /** `GET /api/v1/namespaces/{namespace}/jobs`. */
    jobs: (namespace: string, page: Page = {}, options?: CallOptions) => call<LineageJobs>('GET', `${namespacePath(namespace)}/jobs${query({ ...page })}`, undefined, options),
    /** `GET /api/v1/namespaces/{namespace}/jobs/{job}`. */
    job: (namespace: string, job: string, options?: CallOptions) => call<LineageJob>('GET', `${namespacePath(namespace)}/jobs/${encodeURIComponent(job)}`, undefined, options),
    /** `GET /api/v1/namespaces/{namespace}/jobs/{job}/runs` (newest first). */
    jobRuns: (namespace: string, job: string, page: Page = {}, options?: CallOptions) =>
      call<JobRuns>('GET', `${namespacePath(namespace)}/jobs/${encodeURIComponent(job)}/runs${query({ ...page })}`, undefined, options),
    /** `GET /api/v1/namespaces/{namespace}/datasets/{dataset}`. */
    dataset: (namespace: string, dataset: string, options?: CallOptions) => call<Dataset>('GET', `${namespacePath(namespace)}/datasets/${encodeURIComponent(dataset)}`, undefined, options),
    /** `GET /api/v1/namespaces/{namespace}/datasets/{dataset}/versions` (newest first). */
    datasetVersions: (namespace: string, dataset: string, page: Page = {}, options?: CallOptions) =>
      call<DatasetVersions>('GET', `${namespacePath(namespace)}/datasets/${encodeURIComponent(dataset)}/versions${query({ ...page })}`, undefined, options),
    /** `GET /api/v1/lineage-runs/{runId}`: a run with its events merged, its parent and children. */
    lineageRun: (runId: string, options?: CallOptions) => call<LineageRun>('GET', `/api/v1/lineage-runs/${encodeURIComponent(runId)}`, undefined, options),
    /** `GET /api/v1/webhooks`: the org's alert destinations (never their secrets). */
    webhooks: (options?: CallOptions) => call<{ webhooks: Webhook[]; next?: string }>('GET', '/api/v1/webhooks?limit=100', undefined, options),
    /** `POST /api/v1/webhooks`: answers the signing secret, this once. */
    createWebhook: (request: { url: string; kind: 'webhook' | 'slack'; description?: string }, options?: CallOptions) =>
      call<Webhook & { secret: string }>('POST', '/api/v1/webhooks', request, options),
    /** `DELETE /api/v1/webhooks/{id}`. */
    deleteWebhook: (id: string, options?: CallOptions) => call<Webhook>('DELETE', `/api/v1/webhooks/${encodeURIComponent(id)}`, undefined, options),
    /** `POST /api/v1/webhooks/{id}/test`: queues a test delivery. */
    testWebhook: (id: string, options?: CallOptions) => call<WebhookDelivery>('POST', `/api/v1/webhooks/${encodeURIComponent(id)}/test`, undefined, options),
    /** `GET /api/v1/webhooks/{id}/deliveries`: the delivery log, newest first. */
    webhookDeliveries: (id: string, options?: CallOptions) => call<{ deliveries: WebhookDelivery[]; next?: string }>('GET', `/api/v1/webhooks/${encodeURIComponent(id)}/deliveries?limit=50`, undefined, options),
  };
};

/** A signed-in API client. */
export type ApiClient = ReturnType<typeof createApiClient>;

/**
 * Whether credentials work: the cheapest call that every kind of credential may make (one event
 * of an empty time range). Throws the API's error otherwise (401 `Unauthorized` for a wrong key).
 */
export const checkCredentials = async (credentials: Credentials, options?: CallOptions): Promise<void> => {
  await createApiClient(credentials).events({ start: 0, end: 1, limit: 1 }, options);
};
