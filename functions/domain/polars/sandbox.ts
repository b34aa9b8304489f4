/**
 * @module polars/sandbox
 * What one run of the polars sandbox is given (SQL or a script, the input tables with their
 * current metadata files, the tier) and what comes back; the port itself, `PolarsSandbox`, is in
 * `ports.ts`. Adapters: a pool of warm, bubblewrap-confined Python workers locally
 * (`adapters/local/polars-pool.ts`), a transport per tier in AWS with per-run scoped credentials
 * (`adapters/aws/aws-polars-sandbox.ts`).
 */
import type { TabularResult } from '../lake/engine.ts';

/** The sandbox tiers of the contract, in vCPUs. */
export const POLARS_TIERS = [2, 4, 8, 16, 32] as const;
export type PolarsTier = (typeof POLARS_TIERS)[number];

/** One table a run may read: every name the SQL or script may use for it, and its files. */
export interface SandboxTable {
  /** Names the run knows the table by: its alias and/or `namespace.table`. */
  readonly names: readonly string[];
  /** The current `*.metadata.json` (`file://` or `s3://`). */
  readonly metadataLocation: string;
  /** The table's root (`file://` or `s3://`): the only lake files the run can read are below it. */
  readonly location: string;
}

/** One run of the sandbox. */
export interface SandboxRun {
  readonly orgId: string;
  readonly source: { readonly kind: 'sql'; readonly sql: string } | { readonly kind: 'script'; readonly script: string; readonly params: Readonly<Record<string, string>> };
  readonly tables: readonly SandboxTable[];
  /** The catalog name the script sees as `catalog`. */
  readonly catalog: string;
  readonly vcpus: PolarsTier;
  /** Write the result as a Parquet file the lake writer can read (a fresh local directory; an S3 staging key in AWS). */
  readonly toFile: boolean;
  /** Largest inline result, in bytes of JSON. */
  readonly maxResultBytes: number;
  /** A wall-clock limit shorter than the sandbox's own (the routed endpoint's interactive budget). */
  readonly timeoutMs?: number;
}

/** Where a run ran: the tier it was billed as (a warm larger worker may serve a smaller request). */
export interface SandboxCompute {
  readonly vcpus: number;
  /** The contract's `compute.mode`. */
  readonly mode: string;
  readonly instanceType: string;
}

/** What a run produced. */
export interface SandboxResult {
  /** Rows (empty with `toFile`), columns and polars dtype names. */
  readonly results: TabularResult;
  readonly rowCount: number;
  /** Time polars spent planning and running, in ms. */
  readonly runMs: number;
  readonly compute: SandboxCompute;
  /** With `toFile`: the Parquet file (a local path or an `s3://` key; the caller lets go of it with `release`). */
  readonly file?: { readonly path: string; release(): Promise<void> };
}

/**
 * The request the Python side reads (`lakeline_polars.execute.run_request`), the same for every
 * sandbox: the source, each table name mapped to where its metadata file is *as the sandbox sees
 * it* (`tables`: a local path in a bubblewrap worker, the `s3://` location in AWS), the catalog
 * name, whether to write a result file and the inline result budget.
 */
export function sandboxRequest(run: SandboxRun, tables: Readonly<Record<string, string>>): Record<string, unknown> {
  return {
    mode: run.source.kind === 'sql' ? 'query' : 'script',
    ...(run.source.kind === 'sql' ? { query: run.source.sql } : { script: run.source.script, params: run.source.params }),
    tables,
    catalog: run.catalog,
    output: run.toFile,
    max_result_bytes: run.maxResultBytes,
  };
}
