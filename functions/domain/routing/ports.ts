/**
 * @module routing/ports
 * The port of the routing decision's planned-files estimate: reading the live files of a snapshot
 * from its manifest list (DuckDB's Avro reader, `functions/adapters/duckdb/manifest-reader.ts`).
 */

/** One live file of the current snapshot, as the manifests list it. */
export interface ManifestFile {
  readonly sizeBytes: number;
  /** Partition values by partition field name (dates as ISO text, as Avro's logical types read). */
  readonly partition: Readonly<Record<string, unknown>>;
}

/** Port: reads the live files of a snapshot from its manifest list (Avro). */
export interface ManifestReader {
  files(manifestListLocation: string): Promise<ManifestFile[]>;
}
