/**
 * @module bloom/engine
 * What the bloom engine (its port, `BloomEngine`, is in `ports.ts`) is given and answers: one
 * statement, where a started one lives, its state, and the rows of a statement run to its end.
 */
import type { TableName } from '../core/names.ts';
import type { TabularResult } from '../lake/engine.ts';

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
