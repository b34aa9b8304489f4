/**
 * @module bloom/engine
 * The port of the bloom engine: metered distributed SQL over the lake for reads too large for the
 * router's DuckDB that need no Spark job. Amazon Athena (engine version 3, i.e. Trino) serves it in
 * AWS, a local Trino server in the local profile (`functions/adapters/aws/athena-bloom.ts`,
 * `functions/adapters/trino/bloom-engine.ts`). The use cases see only this port: start a
 * statement, ask for its state, cancel it, or run one to its end and page its rows.
 */
import type { TableName } from '../lake/names.ts';
import type { TabularResult } from '../query/engine.ts';

/** One statement for bloom, already through the SQL firewall in Trino mode. */
export interface BloomQuery {
  /** The org whose lake the statement reads; the engine qualifies every table to its catalog. */
  readonly orgId: string;
  /** The caller's SQL (a single SELECT/WITH query, Trino dialect). */
  readonly sql: string;
  /** Every table the statement reads, as the firewall resolved them. */
  readonly tables: readonly TableName[];
  /** For a run: the results table the rows land in (`CREATE TABLE … AS`), in the org's lake. */
  readonly resultsTable?: TableName;
  /** A label the engine can show (the run id), for operators. */
  readonly label?: string;
}

/** Where a started statement lives on its platform: enough to poll or cancel it after a restart. */
export interface BloomHandle {
  readonly platform: string;
  readonly queryId: string;
  readonly [key: string]: string | number;
}

/** The state of a started statement, as its platform reports it. */
export type BloomStatus =
  | { readonly state: 'RUNNING' }
  | {
      readonly state: 'COMPLETE';
      /** Rows the statement wrote into its results table. */
      readonly rows?: number;
      /** Bytes the platform scanned (Athena bills by them). */
      readonly scannedBytes?: number;
      /** Time the platform spent on it. */
      readonly engineMs?: number;
    }
  | { readonly state: 'FAIL'; readonly error: string }
  | { readonly state: 'ABORT' };

/** Limits of a statement answered in one call. */
export interface BloomQueryLimits {
  readonly timeoutMs: number;
  /** Most rows to return; more is an error rather than a silent cut. */
  readonly maxRows: number;
}

/** What a statement answered in one call produced. */
export interface BloomAnswer {
  readonly results: TabularResult;
  readonly executionMs: number;
  readonly scannedBytes?: number;
}

/** Port: the bloom engine. */
export interface BloomEngine {
  /** `trino-local` or `athena`: where statements go (recorded on each run). */
  readonly platform: string;
  /** The engine name and version for lineage (`processing_engine`). */
  version(): Promise<string>;
  /** Starts a statement (a run's `CREATE TABLE … AS`); resolves once the platform accepted it. */
  start(query: BloomQuery): Promise<BloomHandle>;
  /** The statement's state now. */
  status(handle: BloomHandle): Promise<BloomStatus>;
  /** Stops a statement (idempotent: one that already ended is fine). */
  cancel(handle: BloomHandle): Promise<void>;
  /**
   * Runs a read to its end and returns its rows (benchmarks, and the engine's own checks).
   * @throws {ValidationError} (400) when the engine rejects the SQL
   * @throws {ExecutionError} (500) when it fails running it, or exceeds the limits
   */
  query(query: BloomQuery, limits: BloomQueryLimits): Promise<BloomAnswer>;
}
