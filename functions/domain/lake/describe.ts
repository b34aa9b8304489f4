/**
 * @module describe
 * Reads an Iceberg table-metadata document (format v1 or v2) into the description the tables API
 * returns. Sizes and counts come from the current snapshot's summary, which every Iceberg writer
 * maintains; byte and record counts are strings because they can exceed JSON's safe integers.
 */
import type { TableName } from '../core/names.ts';

/** One column of the current schema. */
export interface ColumnDescription {
  readonly id: number;
  readonly name: string;
  readonly type: string;
  readonly required: boolean;
}

/** A table as `GET /api/v1/tables/{namespace}/{table}` returns it. */
export interface TableDescription {
  readonly namespace: string;
  readonly name: string;
  readonly location: string;
  readonly format_version: number;
  readonly schema: ColumnDescription[];
  readonly partition_spec: { source_id: number; field_id: number; name: string; transform: string; source_column: string | null }[];
  readonly current_snapshot_id: string | null;
  readonly current_snapshot_time: string | null;
  readonly size_bytes: string;
  readonly record_count: string;
  readonly data_file_count: number;
  readonly delete_file_count: number;
  readonly snapshots: { snapshot_id: string; parent_snapshot_id: string | null; timestamp: string; operation: string | null; summary: Record<string, string> }[];
}

type Json = Record<string, unknown>;

/** Renders an Iceberg type (a primitive string or a nested struct/list/map object) as text. */
export const renderType = (type: unknown): string => {
  if (typeof type === 'string') return type;
  const t = type as Json;
  switch (t.type) {
    case 'struct':
      return `struct<${((t.fields as Json[]) ?? []).map((f) => `${String(f.name)}: ${renderType(f.type)}`).join(', ')}>`;
    case 'list':
      return `list<${renderType(t.element)}>`;
    case 'map':
      return `map<${renderType(t.key)}, ${renderType(t.value)}>`;
    default:
      return JSON.stringify(type);
  }
};

/**
 * Snapshot ids are 64-bit integers; JSON.parse would round them, so they are read from the raw
 * text. Returns the text with every snapshot id quoted.
 */
export const quoteSnapshotIds = (text: string): string =>
  text.replace(/("(?:current-snapshot-id|snapshot-id|parent-snapshot-id)"\s*:\s*)(-?\d+)/g, '$1"$2"');

/** Describes a table from its metadata document text. */
export const describeTable = (name: TableName, metadataText: string): TableDescription => {
  const m = JSON.parse(quoteSnapshotIds(metadataText)) as Json;
  const schemas = (m.schemas as Json[] | undefined) ?? (m.schema ? [m.schema as Json] : []);
  const schema = schemas.find((s) => s['schema-id'] === m['current-schema-id']) ?? schemas[schemas.length - 1] ?? { fields: [] };
  const fields = (schema.fields as Json[]) ?? [];
  const columnName = new Map(fields.map((f) => [Number(f.id), String(f.name)]));
  const specs = (m['partition-specs'] as Json[] | undefined) ?? [];
  const spec = specs.find((s) => s['spec-id'] === m['default-spec-id']) ?? { fields: (m['partition-spec'] as Json[]) ?? [] };
  const snapshots = ((m.snapshots as Json[]) ?? []).map((s) => ({
    snapshot_id: String(s['snapshot-id']),
    parent_snapshot_id: s['parent-snapshot-id'] === undefined ? null : String(s['parent-snapshot-id']),
    timestamp: new Date(Number(s['timestamp-ms'])).toISOString(),
    operation: ((s.summary as Json | undefined)?.operation as string | undefined) ?? null,
    summary: Object.fromEntries(Object.entries((s.summary as Json | undefined) ?? {}).map(([k, v]) => [k, String(v)])),
  }));
  const currentId = m['current-snapshot-id'] === undefined || m['current-snapshot-id'] === '-1' ? null : String(m['current-snapshot-id']);
  const current = snapshots.find((s) => s.snapshot_id === currentId);
  const summary = current?.summary ?? {};
  return {
    namespace: name.namespace,
    name: name.table,
    location: String(m.location ?? ''),
    format_version: Number(m['format-version'] ?? 1),
    schema: fields.map((f) => ({ id: Number(f.id), name: String(f.name), type: renderType(f.type), required: f.required === true })),
    partition_spec: ((spec.fields as Json[]) ?? []).map((f) => ({
      source_id: Number(f['source-id']),
      field_id: Number(f['field-id'] ?? 0),
      name: String(f.name),
      transform: String(f.transform),
      source_column: columnName.get(Number(f['source-id'])) ?? null,
    })),
    current_snapshot_id: currentId,
    current_snapshot_time: current?.timestamp ?? null,
    size_bytes: summary['total-files-size'] ?? '0',
    record_count: summary['total-records'] ?? '0',
    data_file_count: Number(summary['total-data-files'] ?? 0),
    delete_file_count: Number(summary['total-delete-files'] ?? 0),
    snapshots,
  };
};
