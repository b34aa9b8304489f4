/**
 * @module runs/results
 * The rows of a finished batch read (a routed query too large to answer in the request): the Spark
 * or bloom run landed them in its own results table, and `GET /api/v1/runs/{run_id}` returns them a page at
 * a time, read by DuckDB in the row order of the table's files.
 */
import { ValidationError } from '../errors.ts';
import { readSavedSql } from '../lake/autosave.ts';
import type { TabularResult } from '../lake/engine.ts';
import { RESULTS_NAMESPACE, type TableName } from '../core/names.ts';
import type { Catalog, LakeStorage, QueryEngine } from '../lake/ports.ts';
import { findTable, loadTable } from '../lake/query-tables.ts';
import { sandboxOf } from '../lake/sandbox.ts';
import type { Run } from './run.ts';

/** The results table of a batch read's run, named after it in the namespace lakeline reserves (`lakeline_results.r_<run>`). */
export const resultsTableOf = (runId: string): TableName => ({ namespace: RESULTS_NAMESPACE, table: `r_${runId.replaceAll('-', '').toLowerCase()}` });

/** Page sizes of the results: the default, and the largest (it keeps a page well under 5 MB of JSON for typical rows). */
export const RESULTS_PAGE = { defaultLimit: 1_000, maxLimit: 10_000 } as const;

/** A page request. */
export interface ResultsPage {
  readonly offset: number;
  readonly limit: number;
}

/** What the runs API adds for a finished batch read. */
export interface RunResults {
  readonly results: TabularResult;
  /** Where this page is, and where the next one starts (absent on the last page). */
  readonly results_page: { readonly offset: number; readonly limit: number; readonly next_offset?: number };
}

const whole = (name: string, value: string | undefined, fallback: number, min: number, max: number): number => {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new ValidationError(`${name}: must be a whole number from ${min} to ${max}, got '${value}'`);
  }
  return n;
};

/**
 * Parses the `offset` and `limit` query parameters of the runs API.
 * @throws {ValidationError} (400) naming the parameter
 */
export const parseResultsPage = (params: Readonly<Record<string, string | undefined>>): ResultsPage => ({
  offset: whole('offset', params.offset, 0, 0, Number.MAX_SAFE_INTEGER),
  limit: whole('limit', params.limit, RESULTS_PAGE.defaultLimit, 1, RESULTS_PAGE.maxLimit),
});

/** What reading the results needs. */
export interface RunResultsDeps {
  readonly catalog: Pick<Catalog, 'listTables'>;
  readonly storage: LakeStorage;
  /** Reads the page (the router's DuckDB). */
  readonly duckdb: QueryEngine;
}

/** Time for reading one page (API Gateway gives the request 29 s). */
const PAGE_TIMEOUT_MS = 20_000;
/** Largest page, in bytes of JSON (Lambda answers at most 6 MB). */
const PAGE_MAX_BYTES = 5 * 1024 * 1024;

/**
 * One page of a finished batch read's rows, or undefined when the run is not such a run or has not
 * completed. The run's `rowsWritten` is the total, so the next offset is known without counting.
 */
export async function readRunResults(deps: RunResultsDeps, run: Run, page: ResultsPage): Promise<RunResults | undefined> {
  if (!run.results || run.state !== 'COMPLETE' || !run.outputTable) return undefined;
  const found = findTable(await deps.catalog.listTables(run.orgId), run.outputTable);
  if (!found) return undefined;
  const table = await loadTable(deps.storage, found);
  const ran = await deps.duckdb.run({
    owner: run.orgId,
    // Both numbers are checked whole numbers; the engine runs only a single SELECT.
    sql: `${readSavedSql(table.engine.name)} LIMIT ${page.limit} OFFSET ${page.offset}`,
    tables: [table.engine],
    sandbox: sandboxOf(2),
    timeoutMs: PAGE_TIMEOUT_MS,
    maxResultBytes: PAGE_MAX_BYTES,
  });
  const next = page.offset + ran.results.rows.length;
  const total = run.rowsWritten ?? Number(table.description.record_count);
  return {
    results: ran.results,
    results_page: { offset: page.offset, limit: page.limit, ...(next < total ? { next_offset: next } : {}) },
  };
}
