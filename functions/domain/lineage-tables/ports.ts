/**
 * @module lineage-tables/ports
 * The lineage lake tables' store (ADR 0056): `lineage.run_events` and `lineage.runs` in an org's
 * own catalog, written only through the lake writer (pyiceberg), a subprocess locally and a Lambda
 * in AWS.
 */
import type { RunEventRow } from './rows.ts';

/** What one export call did. */
export interface ExportOutcome {
  /** Rows added to `run_events` (0 when every row was there already). */
  readonly appended: number;
  /** Rows of `runs` rewritten. */
  readonly runsWritten: number;
  /** The mark `run_events` is now exported up to (kept in its snapshot summary). */
  readonly mark: string;
}

/** What one compaction did. */
export interface CompactionOutcome {
  readonly days: number;
  readonly filesRewritten: number;
  readonly runsRewritten: boolean;
  readonly snapshotsExpired: number;
}

/** Port: an org's lineage tables. */
export interface LineageTablesStore {
  /**
   * Appends the rows exactly once (rows already in the table are skipped) in one commit that also
   * records `mark`, then merges the runs they name.
   */
  export(orgId: string, rows: readonly RunEventRow[], mark: string): Promise<ExportOutcome>;
  /** The mark `run_events` was exported up to (`''`: never). */
  exportedMark(orgId: string): Promise<string>;
  /** Compacts run_events to a file per day and runs to few files, then expires snapshots older than `snapshotAgeHours`. */
  compact(orgId: string, snapshotAgeHours?: number): Promise<CompactionOutcome>;
  /** Deletes the rows of events before `beforeDay` (`YYYY-MM-DD`, whole day partitions) and the runs last seen before it. */
  expire(orgId: string, beforeDay: string): Promise<void>;
  /** Drops and purges both tables (org deletion). */
  drop(orgId: string): Promise<readonly string[]>;
}
