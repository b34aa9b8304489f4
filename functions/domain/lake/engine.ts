/**
 * @module lake/engine
 * What a SQL engine over lake tables is given and answers (its port, `QueryEngine`, is in
 * `ports.ts`): the statement, the Iceberg tables it may read, the sandbox size, and a tabular
 * result with JSON-safe values. The DuckDB adapter implements the port
 * (`functions/adapters/duckdb/engine.ts`); the use cases never see an engine's own API.
 */
import type { TableName } from '../core/names.ts';

/** Rows with their column names and engine type names, every value already JSON-safe. */
export interface TabularResult {
  readonly columns: string[];
  /** The engine's own type names (DuckDB: `BIGINT`, `DECIMAL(15,2)`, `STRUCT(a INTEGER)`, ...). */
  readonly column_types: string[];
  readonly rows: unknown[][];
}

/** An Iceberg table a statement may read, as the engine needs it. */
export interface EngineTable {
  readonly name: TableName;
  /** The table's current `*.metadata.json` (`file://…` or `s3://…`). */
  readonly metadataLocation: string;
  /** The table's root location from its metadata (`location`): the only place its files may be read from. */
  readonly location: string;
}

/** Compute a statement may use. */
export interface SandboxSize {
  readonly vcpus: number;
  readonly memoryGb: number;
}

/** What to run. */
export interface EngineRequest {
  /**
   * Who runs it (the organization id). An engine may reuse set-up work between statements of the
   * same owner over the same tables, never across owners.
   */
  readonly owner: string;
  /** One SQL statement that already passed the SQL firewall. */
  readonly sql: string;
  /** Every table the statement reads; nothing else is readable. */
  readonly tables: readonly EngineTable[];
  readonly sandbox: SandboxSize;
  /** Also return the engine's plan of the statement (EXPLAIN) as key/value rows. */
  readonly explain?: boolean;
  /**
   * Also write the result to a Parquet file in this local directory (for the lake writer to land).
   * The engine writes it with its own internal connection, never the locked one running the SQL.
   */
  readonly exportDirectory?: string;
  /** Abandon the statement after this long. */
  readonly timeoutMs: number;
  /** Largest result (approximate JSON bytes) to return inline; a larger one is refused. */
  readonly maxResultBytes: number;
}

/** The Parquet file an export produced. */
export interface ExportedResult {
  readonly file: string;
  readonly bytes: number;
  readonly rows: number;
}

/** What a run produced. */
export interface EngineResult {
  readonly results: TabularResult;
  /** The plan, when asked for: `explain_key`/`explain_value` rows, and how long planning took. */
  readonly explain?: { readonly results: TabularResult; readonly executionMs: number };
  /** The Parquet export, when asked for. */
  readonly exported?: ExportedResult;
  /** Wall time of the statement itself (plan, execute, read), without set-up. */
  readonly executionMs: number;
  /** Wall time of setting up the engine for the statement (sandbox, views, lock). */
  readonly setupMs: number;
}
