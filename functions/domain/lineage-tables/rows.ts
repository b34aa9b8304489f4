/**
 * @module lineage-tables/rows
 * A stored lineage event as a row of `lineage.run_events` (docs/reference/lineage-tables.md): the
 * stored fields as they are, the datasets as lists of structs with the statistics facets the
 * OpenLineage spec fixes as typed columns, the error message facet, and the raw event as JSON.
 */
import { feedMarkOf } from '../feed/marks.ts';
import type { StoredLineageEvent } from '../lineage/types.ts';

/** A dataset in a row: its identity and the statistics its facets report (`null` where none). */
export interface DatasetColumns {
  readonly namespace: string;
  readonly name: string;
  /** `outputStatistics.rowCount` (outputs) or `inputStatistics.rowCount` (inputs). */
  readonly row_count: number | null;
  /** `outputStatistics.size` / `inputStatistics.size`, in bytes. */
  readonly bytes: number | null;
  /** `outputStatistics.fileCount` / `inputStatistics.fileCount`. */
  readonly file_count: number | null;
}

/** One row of `lineage.run_events`, plus `mark` (the event's place in the feed; not a column). */
export interface RunEventRow {
  readonly mark: string;
  readonly event_id: string;
  readonly event_type: string;
  readonly event_time: string;
  readonly received_at: string;
  readonly event_kind: string;
  readonly run_id: string | null;
  readonly job_namespace: string | null;
  readonly job_name: string | null;
  readonly parent_run_id: string | null;
  readonly parent_job_namespace: string | null;
  readonly parent_job_name: string | null;
  readonly inputs: readonly DatasetColumns[];
  readonly outputs: readonly DatasetColumns[];
  readonly error_message: string | null;
  readonly producer: string;
  readonly integration: string;
  readonly integration_version: string;
  readonly schema_url: string | null;
  readonly event_size_bytes: number;
  /** The event as ingested, as JSON text. */
  readonly event: string;
}

type Json = Readonly<Record<string, unknown>>;

const objectAt = (value: unknown, key: string): Json | undefined => {
  const inner = typeof value === 'object' && value !== null ? (value as Json)[key] : undefined;
  return typeof inner === 'object' && inner !== null && !Array.isArray(inner) ? (inner as Json) : undefined;
};

/** A non-negative whole number as the facet gave it, else null (a wrong type is not guessed at). */
const count = (value: unknown): number | null => (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null);

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The datasets of one side of the raw event, with the statistics facet of that side. */
const datasets = (raw: Json, side: 'inputs' | 'outputs'): DatasetColumns[] => {
  const list = raw[side];
  if (!Array.isArray(list)) return [];
  const [facetGroup, facet] = side === 'inputs' ? ['inputFacets', 'inputStatistics'] : ['outputFacets', 'outputStatistics'];
  return list.flatMap((d: unknown) => {
    if (typeof d !== 'object' || d === null) return [];
    const namespace = text((d as Json).namespace);
    const name = text((d as Json).name);
    if (namespace === null || name === null) return [];
    const stats = objectAt(objectAt(d, facetGroup), facet);
    return [{ namespace, name, row_count: count(stats?.rowCount), bytes: count(stats?.size), file_count: count(stats?.fileCount) }];
  });
};

/** The row of one stored event. */
export const runEventRow = (event: StoredLineageEvent): RunEventRow => {
  const raw = event.event_raw;
  return {
    mark: feedMarkOf(event),
    event_id: event.id,
    event_type: event.run_state,
    event_time: event.event_time,
    received_at: event.received_at,
    event_kind: event.event_schema,
    run_id: event.run_id,
    job_namespace: event.job_namespace,
    job_name: event.job_name,
    parent_run_id: event.parent_run_id,
    parent_job_namespace: event.parent_job_namespace,
    parent_job_name: event.parent_job_name,
    inputs: datasets(raw, 'inputs'),
    outputs: datasets(raw, 'outputs'),
    error_message: text(objectAt(objectAt(objectAt(raw, 'run'), 'facets'), 'errorMessage')?.message),
    producer: event.produced_by,
    integration: event.integration,
    integration_version: event.integration_version,
    schema_url: text(raw.schemaURL),
    event_size_bytes: event.event_size_in_bytes,
    event: JSON.stringify(raw),
  };
};
