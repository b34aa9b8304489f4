/**
 * @module spark-client
 * Helpers of the Spark and runs suites: a client of `POST /api/v2/spark/query` and the runs API,
 * polling a run until it ends, and finding a run's local Spark processes.
 */
import { execFileSync } from 'node:child_process';
import { waitForRunEnd } from './poll-run.ts';

/** An HTTP answer with its JSON body. */
export interface Answer<T = Record<string, unknown>> {
  readonly status: number;
  readonly body: T;
}

/** A run as `GET /api/v1/runs/{run_id}` shows it. */
export interface RunBody {
  readonly run_id: string;
  readonly engine: string;
  readonly state: 'QUEUED' | 'RUNNING' | 'COMPLETE' | 'FAIL' | 'ABORT';
  readonly job: { namespace: string; name: string };
  readonly error?: string;
  readonly output_table?: string;
  readonly rows_written?: number;
  readonly bytes_written?: number;
  readonly input_tables: string[];
  readonly vcpu_seconds?: number;
  readonly compute: Record<string, unknown> & { platform: string; billed_vcpus: number; spark_conf: Record<string, string> };
  readonly timings: { startup_ms?: number; query_ms?: number; total_ms?: number };
  readonly created_at: string;
  readonly ended_at?: string;
}

const json = async <T>(response: Response): Promise<Answer<T>> => {
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
};

/** How long a test waits for a local Spark run (start-up alone is seconds on a busy machine). */
export const SPARK_RUN_TIMEOUT_MS = 240_000;

/** The Spark endpoint and the runs API as one caller. */
export const sparkApi = (baseUrl: string, token: string) => {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const api = {
    submit: (body: unknown) =>
      fetch(`${baseUrl}/api/v2/spark/query`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) }).then((r) =>
        json<{ run_id: string; job: { namespace: string; name: string }; output_table: string; status: string; error?: string }>(r),
      ),
    run: (runId: string) => fetch(`${baseUrl}/api/v1/runs/${runId}`, { headers }).then((r) => json<RunBody & { error?: string }>(r)),
    abort: (runId: string) => fetch(`${baseUrl}/api/v1/runs/${runId}/abort`, { method: 'POST', headers }).then((r) => json<RunBody & { error?: string }>(r)),
    /** Polls a run until it leaves RUNNING. */
    waitForEnd: (runId: string, timeoutMs = SPARK_RUN_TIMEOUT_MS): Promise<RunBody> => waitForRunEnd((id) => api.run(id), runId, timeoutMs),
  };
  return api;
};

/** Pids of the local Spark processes of a run (spark-submit names the application after it). */
export const sparkPids = (runId: string): number[] => {
  try {
    return execFileSync('pgrep', ['-f', `lakeline-${runId}`], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
};

/** Waits until a run has no local Spark process left. */
export const waitForNoSpark = async (runId: string, timeoutMs = 30_000): Promise<boolean> => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (sparkPids(runId).length === 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
};
