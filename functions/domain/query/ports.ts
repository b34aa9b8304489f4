/**
 * @module query/ports
 * The ports of the routed query's engines beyond the router's own DuckDB: the polars engine (the
 * polars sandbox, `polars/routed-engine.ts`), and the submitters of Spark and bloom runs (the runs
 * use cases `submitPlannedSparkRun` and `submitBloomRun`, wired by the composition root so that a
 * request builds an engine only when it becomes a run). Each submitter is handed the run as the
 * plan made it: nothing about the org, its catalog, the statement or its tables is derived again.
 */
import type { PlannedBloomRead } from '../bloom/runs.ts';
import type { TabularResult } from '../lake/engine.ts';
import type { LoadedTable } from '../lake/query-tables.ts';
import type { Run } from '../runs/run.ts';
import type { PlannedSparkRun } from '../runs/submit.ts';

/**
 * A table a polars run reads: under its alias when the SQL or script registers one, and always
 * under its own `namespace.table` name (a script may scan it by that literal name).
 */
export interface PolarsTable {
  readonly alias?: string;
  readonly table: LoadedTable;
}

/** What a polars run is given. */
export interface PolarsRunRequest {
  readonly orgId: string;
  readonly source: { readonly kind: 'sql'; readonly sql: string } | { readonly kind: 'script'; readonly script: string };
  readonly tables: readonly PolarsTable[];
  readonly vcpus: number;
  readonly timeoutMs: number;
}

/** What a polars run produced. */
export interface PolarsRunResult {
  readonly results: TabularResult;
  /** The sandbox that served it (a warm larger one may serve a smaller request; that one is billed). */
  readonly compute: Readonly<Record<string, unknown>> & { readonly vcpus: number };
  readonly executionMs: number;
}

/** Port: the polars engine (issue 6), as the router uses it. */
export interface PolarsEngine {
  version(): Promise<string>;
  /** @throws {ValidationError} (400) for a script or SQL polars refuses */
  run(request: PolarsRunRequest): Promise<PolarsRunResult>;
}

/** Port: submitting a Spark run the router planned, under the run id chosen here. */
export interface SparkSubmitter {
  submit(run: PlannedSparkRun, runId: string): Promise<Run>;
}

/** Port: submitting a bloom read the router planned, under the run id chosen here. */
export interface BloomSubmitter {
  submit(read: PlannedBloomRead, runId: string): Promise<Run>;
}

/**
 * The engines beyond DuckDB (which runs in the router and is always there) that this deployment
 * runs queries on: an absent member is an engine not configured here, which the plan's decision
 * and the runs refuse with a capability error naming it.
 */
export interface QueryEngines {
  readonly polars?: PolarsEngine;
  readonly spark?: SparkSubmitter;
  readonly bloom?: BloomSubmitter;
}
