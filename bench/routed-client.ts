/**
 * @module routed-client
 * The one way the query benchmarks time an engine: through `POST /api/v1/query` of a local stack,
 * from the request to the rows in hand. An interactive answer (DuckDB, polars) carries its rows; a
 * run (bloom, a Spark batch read) is polled at `POLL_MS` until it ends and its rows
 * are fetched page by page (10,000 rows a page), so a run's figure includes its submission, its
 * queueing and start-up, the engine's work, the results table it writes and reads back, and up to
 * one polling interval.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { SubprocessLakeWriter } from '#adapters/local/subprocess-lake-writer';
import { REPO_ROOT, type StackProcess } from '../test/helpers/local-stack-process.ts';

/** How often a run's state is asked for: small beside a run's seconds, so the figure is the run's. */
export const POLL_MS = 50;
const RUN_TIMEOUT_MS = 900_000;
const LINEITEM_ROWS_PER_SF = 6_001_215;

/** What one timed request gave. */
export interface RoutedTiming {
  /** Request to rows in hand, ms; absent when the engine refused the query. */
  readonly ms?: number;
  /** Why the engine did not run the query (its 400, or the run's failure). */
  readonly refused?: string;
  /** The engine that ran it (the router's `engine_decision.engine`). */
  readonly engine?: string;
  readonly estimatedBytes?: number;
  readonly rows?: unknown[][];
}

interface RoutedAnswer {
  state?: string;
  run_id?: string;
  error?: string;
  engine_decision?: { engine: string; estimated_input_bytes: string };
  results?: { rows: unknown[][] };
  results_page?: { offset: number; limit: number; next_offset?: number };
}

/** Rows per page asked of a finished run: the most `GET /api/v1/runs/{id}` gives. */
const PAGE_ROWS = 10_000;

const headersOf = (stack: StackProcess) => ({ authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' });

/** The pages of a finished run's rows after the first, as a client reading them all asks for them. */
const laterPages = async (stack: StackProcess, runId: string, from: number | undefined): Promise<unknown[][]> => {
  const rows: unknown[][] = [];
  for (let offset = from; offset !== undefined; ) {
    const page = (await (await fetch(`${stack.baseUrl}/api/v1/runs/${runId}?offset=${offset}&limit=${PAGE_ROWS}`, { headers: headersOf(stack) })).json()) as RoutedAnswer;
    rows.push(...(page.results?.rows ?? []));
    offset = page.results_page?.next_offset;
  }
  return rows;
};

/** Polls a run until it leaves QUEUED/RUNNING; its final answer with every row, page by page. */
const waitRun = async (stack: StackProcess, runId: string): Promise<RoutedAnswer> => {
  const deadline = Date.now() + RUN_TIMEOUT_MS;
  for (;;) {
    const run = (await (await fetch(`${stack.baseUrl}/api/v1/runs/${runId}?offset=0&limit=${PAGE_ROWS}`, { headers: headersOf(stack) })).json()) as RoutedAnswer;
    if (run.state !== 'RUNNING' && run.state !== 'QUEUED' && run.state !== 'SUBMITTED') return { ...run, results: { rows: [...(run.results?.rows ?? []), ...(await laterPages(stack, runId, run.results_page?.next_offset))] } };
    if (Date.now() > deadline) throw new Error(`run ${runId} still ${run.state} after ${RUN_TIMEOUT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
};

/**
 * One routed read, request to rows in hand. `body` is the request (`query`, `engine`, …). A 400 is
 * a refusal (a capability error: the figure is "n/a" with its reason); a run ending other than
 * COMPLETE is one too (Spark refusing DuckDB's SQL dialect, say).
 */
export const routedRead = async (stack: StackProcess, body: Record<string, unknown>): Promise<RoutedTiming> => {
  const started = performance.now();
  const response = await fetch(`${stack.baseUrl}/api/v1/query`, { method: 'POST', headers: headersOf(stack), body: JSON.stringify(body) });
  const answer = (await response.json()) as RoutedAnswer;
  if (response.status === 400) return { refused: String(answer.error) };
  // An engine that failed the query (a 500 naming the engine's error) did not run it either.
  if (response.status === 500 && answer.error) return { refused: `failed: ${String(answer.error).slice(0, 200)}` };
  if (response.status !== 200) throw new Error(`${String(body.engine)}: ${response.status} ${JSON.stringify(answer).slice(0, 300)}`);
  const decided = { engine: answer.engine_decision?.engine, estimatedBytes: Number(answer.engine_decision?.estimated_input_bytes) };
  if (answer.state === 'SUBMITTED' && answer.run_id) {
    const run = await waitRun(stack, answer.run_id);
    if (run.state !== 'COMPLETE') return { ...decided, refused: `${String(decided.engine)} run ended ${String(run.state)}: ${String(run.error).slice(0, 160)}` };
    return { ...decided, ms: performance.now() - started, rows: run.results?.rows ?? [] };
  }
  return { ...decided, ms: performance.now() - started, rows: answer.results?.rows ?? [] };
};

/** Makes sure the home's demo org has TPC-H at the scale; loads it with the lake writer when it does not. */
export const ensureTpch = async (stack: StackProcess, home: string, scale: number): Promise<void> => {
  const answer = await fetch(`${stack.baseUrl}/api/v1/tables/tpch/lineitem`, { headers: headersOf(stack) });
  const rows = answer.ok ? Number(((await answer.json()) as { record_count: string }).record_count) : 0;
  const wanted = Math.round(LINEITEM_ROWS_PER_SF * scale);
  if (Math.abs(rows - wanted) / wanted < 0.01) return;
  console.log(`data: loading TPC-H SF ${scale} into ${home} …`);
  const writer = new SubprocessLakeWriter(path.join(REPO_ROOT, '.lakeline', 'venv', 'bin', 'python'), REPO_ROOT, home);
  await writer.demoLoad(stack.orgId, scale, 'tpch');
};

/** Throws the set-up hint when the DuckDB extension files are missing. */
export const requireExtensions = (): void => {
  if (!existsSync(path.join(REPO_ROOT, '.lakeline', 'duckdb-extensions', 'iceberg.duckdb_extension'))) {
    throw new Error('run `npm run setup` first: the DuckDB extension files are missing');
  }
};

/** Rows as comparable text: numbers (and decimals' text) rounded to the cent, sorted. */
export const canonicalRows = (rows: readonly unknown[][]): string =>
  rows
    .map((r) => JSON.stringify(r.map((v) => (typeof v === 'number' || (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)) ? Math.round(Number(v) * 100) / 100 : v))))
    .sort()
    .join('\n');
