/**
 * @module duckdb/manifest-reader
 * Reads a snapshot's live files from its Iceberg manifest list and manifests (Avro) with DuckDB's
 * avro extension, for the router's planned-files estimate. It runs in an internal instance that
 * never sees caller SQL: the only inputs are locations taken from the table's own metadata, each
 * passed as a quoted string literal. Locally the files are on disk; in AWS `httpfs` and the S3
 * secret statements reach S3 with the function's role.
 */
import type { ManifestFile, ManifestReader } from '#domain/routing/ports';
import { openDuckDB, sqlString } from './instance.ts';

/** Options of {@link DuckDBManifestReader}. */
export interface ManifestReaderOptions {
  readonly extensionDir: string;
  /** Extensions beyond avro (AWS: `httpfs`). @default [] */
  readonly extraExtensions?: readonly string[];
  /** Statements run after the extensions load (AWS: the S3 secret). */
  readonly setupStatements?: () => readonly string[];
}

/** Manifest entry status 2: the file was deleted by this snapshot and is no longer live. */
const DELETED = 2;

/** Reads manifests with DuckDB. */
export class DuckDBManifestReader implements ManifestReader {
  constructor(private readonly options: ManifestReaderOptions) {}

  async files(manifestListLocation: string): Promise<ManifestFile[]> {
    const { instance, connection } = await openDuckDB(this.options.extensionDir, ['avro', ...(this.options.extraExtensions ?? [])]);
    try {
      for (const statement of this.options.setupStatements?.() ?? []) await connection.run(statement);
      const manifests = (await connection.runAndReadAll(`SELECT manifest_path FROM read_avro('${sqlString(manifestListLocation)}')`)).getRows();
      const files: ManifestFile[] = [];
      for (const [manifest] of manifests) {
        // Each manifest has one partition spec, so its partition struct has one shape: read one at a time.
        const rows = (
          await connection.runAndReadAll(
            `SELECT data_file.file_size_in_bytes, to_json(data_file.partition)::VARCHAR FROM read_avro('${sqlString(String(manifest))}') WHERE status <> ${DELETED}`,
          )
        ).getRows();
        for (const [size, partition] of rows) files.push({ sizeBytes: Number(size), partition: JSON.parse(String(partition ?? '{}')) as Record<string, unknown> });
      }
      return files;
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  }
}
