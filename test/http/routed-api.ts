/**
 * @module routed-api
 * Helpers of the routed query suites: a client of `POST /api/v1/query` (with the runs, tables and
 * events APIs it is checked against) and the response shapes.
 */
import type { StoredLineageEvent } from '#domain/lineage/types';
import { waitForRunEnd } from './poll-run.ts';
import type { Tabular } from './warehouse-api.ts';

/** The contract's `engine_decision`. */
export interface EngineDecisionBody {
  readonly engine: string;
  readonly execution_mode: string;
  readonly reasons: string[];
  readonly size_band: string;
  readonly estimated_input_bytes: string;
  readonly vcpus: number;
  readonly sandbox: { vcpus: number; memory_gb: number };
  readonly input_tables: string[];
}

/** `UnifiedQueryResponse` and the error body `{success: false, error}`. */
export interface RoutedBody {
  readonly success: boolean;
  readonly explain?: boolean;
  readonly engine_decision?: EngineDecisionBody;
  readonly results?: Tabular;
  readonly row_count?: number;
  readonly execution_time?: string;
  readonly state?: 'COMPLETE' | 'SUBMITTED';
  readonly run_id?: string;
  readonly output_table?: string;
  readonly compute?: Record<string, unknown>;
  readonly job?: { namespace: string; name: string };
  readonly error?: string;
}

/** A run with the rows of a batch read. */
export interface RunWithRows {
  readonly run_id: string;
  readonly state: string;
  readonly engine: string;
  readonly job: { namespace: string; name: string };
  readonly error?: string;
  readonly output_table?: string;
  readonly rows_written?: number;
  readonly row_count?: number;
  readonly results?: Tabular;
  readonly results_page?: { offset: number; limit: number; next_offset?: number };
}

/** An HTTP answer with its parsed body. */
export interface Reply<T> {
  readonly status: number;
  readonly body: T;
}

const parse = async <T>(response: Response): Promise<Reply<T>> => {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body: body as T };
};

/** How long a test waits for a local Spark run. */
export const RUN_TIMEOUT_MS = 240_000;

/** The routed endpoint and the APIs its answers point at, as one caller. */
export const routedApi = (baseUrl: string, token: string) => {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const api = {
    /** `POST /api/v1/query` (an object is serialized, a string sent as is). */
    query: (body: unknown) =>
      fetch(`${baseUrl}/api/v1/query`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) }).then((r) => parse<RoutedBody>(r)),
    /** `GET /api/v1/runs/{run_id}` with paging parameters. */
    run: (runId: string, params: Record<string, string> = {}) =>
      fetch(`${baseUrl}/api/v1/runs/${runId}?${new URLSearchParams(params).toString()}`, { headers }).then((r) => parse<RunWithRows>(r)),
    /** Polls a run until it leaves RUNNING. */
    waitForEnd: (runId: string, timeoutMs = RUN_TIMEOUT_MS): Promise<RunWithRows> => waitForRunEnd((id) => api.run(id), runId, timeoutMs),
    /** `GET /api/v1/tables/{namespace}/{table}`. */
    table: (namespace: string, table: string) =>
      fetch(`${baseUrl}/api/v1/tables/${namespace}/${table}`, { headers }).then((r) => parse<{ size_bytes: string; record_count: string; location: string; error?: string }>(r)),
    /** Stored lineage events of a job, oldest first. */
    jobEvents: async (job: string): Promise<StoredLineageEvent[]> => {
      const query = new URLSearchParams({ start: '0', end: '4102444800', limit: '1000', job, order: 'ASC' });
      const r = await parse<StoredLineageEvent[]>(await fetch(`${baseUrl}/api/v1/events?${query.toString()}`, { headers }));
      if (r.status !== 200) throw new Error(`events: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body.filter((e) => e.job_name === job);
    },
  };
  return api;
};

/** A client of the routed endpoint. */
export type RoutedApi = ReturnType<typeof routedApi>;
