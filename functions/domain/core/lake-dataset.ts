/**
 * @module core/lake-dataset
 * A lake table as lineage describes it: its name, where it lives and its columns. The lake
 * resolves tables into it and lineage capture names them from it, so it sits below both.
 */
import type { TableName } from './names.ts';

/** A column as the schema facet lists it. */
export interface DatasetField {
  readonly name: string;
  readonly type: string;
}

/** A lake table, as lineage describes it. */
export interface LakeDataset {
  readonly table: TableName;
  /** The table's root location (`file:///…` or `s3://bucket/…`). */
  readonly location: string;
  readonly fields: readonly DatasetField[];
}
