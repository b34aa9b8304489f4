/**
 * @module lake/ports
 * Ports of the lake: the catalog that maps an org's table names to Iceberg metadata files, the
 * storage those files live in, the lake writer through which every write goes, the SQL engine that
 * reads lake tables (DuckDB), and the scratch space results pass through on their way into the lake.
 */
import type { EngineRequest, EngineResult } from './engine.ts';
import type { TableName } from '../core/names.ts';

/** A table the catalog knows, with its current metadata file. */
export interface CatalogTable extends TableName {
  /** Location of the current `*.metadata.json` (a `file://` or `s3://` URI). */
  readonly metadataLocation: string;
}

/** Port: an org's view of the Iceberg catalog. */
export interface Catalog {
  /** The org's tables, optionally of one namespace, sorted by namespace then name. */
  listTables(orgId: string, namespace?: string): Promise<CatalogTable[]>;
  /** One table, or undefined when the org has no such table. */
  loadTable(orgId: string, name: TableName): Promise<CatalogTable | undefined>;
}

/** Port: reads files of the lake (metadata JSON). */
export interface LakeStorage {
  readText(uri: string): Promise<string>;
}

/** A write request for the lake writer: Parquet files an engine produced, landed in a table. */
export interface LakeWrite extends TableName {
  readonly orgId: string;
  readonly parquet: readonly string[];
  readonly mode: 'overwrite' | 'append';
}

/** What a write produced. */
export interface LakeWriteResult {
  readonly table: string;
  readonly rowsWritten: number;
  readonly mode: 'overwrite' | 'append';
  readonly snapshotId: string | null;
  readonly metadataLocation: string;
}

/** Port: the lake writer (pyiceberg), a subprocess locally and a Python Lambda in AWS. */
export interface LakeWriter {
  write(request: LakeWrite): Promise<LakeWriteResult>;
  /**
   * Drops a table; with `purge` its data, manifest and metadata files are deleted too (otherwise
   * only the catalog forgets it). Resolves false when there was no such table.
   */
  drop(orgId: string, name: TableName, options?: { readonly purge?: boolean }): Promise<boolean>;
  /** Writes the TPC-H tables at a scale factor into a namespace. */
  demoLoad(orgId: string, scale: number, namespace?: string): Promise<Record<string, number>>;
}

/** Port: a SQL engine over lake tables. */
export interface QueryEngine {
  /** Engine name for lineage (`processing_engine.name`). */
  readonly name: string;
  /** Engine version for lineage (`processing_engine.version`); engines may load lazily. */
  version(): Promise<string>;
  /**
   * Runs one statement.
   *
   * @throws {QuerySqlError} (400) when the engine rejects the statement or fails executing it
   * @throws {QueryLimitError} (400) when the statement exceeds the time or result-size limit
   */
  run(request: EngineRequest): Promise<EngineResult>;
}

/** Port: local directories for result files on their way into the lake (autosave's staging). */
export interface ScratchSpace {
  create(): Promise<string>;
  remove(directory: string): Promise<void>;
}
