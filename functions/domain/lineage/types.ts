/**
 * @module types
 * The shapes of a lineage event once accepted: the contract's "Stored lineage event" and the
 * extra fields the event store indexes on.
 */

/** The three top-level definitions of the OpenLineage core schema. */
export type EventKind = 'RunEvent' | 'DatasetEvent' | 'JobEvent';

/** The run states of the contract, the values of OpenLineage's `eventType`. */
export const RUN_STATES = ['START', 'RUNNING', 'COMPLETE', 'ABORT', 'FAIL', 'OTHER'] as const;

/** One of {@link RUN_STATES}. */
export type RunState = (typeof RUN_STATES)[number];

/** A dataset named by its OpenLineage identity. */
export interface DatasetRef {
  readonly namespace: string;
  readonly name: string;
}

/**
 * A stored lineage event exactly as the events endpoint returns it (the contract's table, field
 * for field). Every key is always present; a field that does not apply to the event is `null`.
 */
export interface StoredLineageEvent {
  /** Deterministic id of the event's content (see `event-id.ts`). */
  readonly id: string;
  /** `run.runId`, lower-cased; `null` for DatasetEvents without a run and for JobEvents. */
  readonly run_id: string | null;
  /** `eventType` of a RunEvent (`OTHER` when absent); `OTHER` for DatasetEvents and JobEvents. */
  readonly run_state: RunState;
  /** When the service received the event, `YYYY-MM-DDTHH:MM:SS.ffffff+00:00`. */
  readonly received_at: string;
  /** `job.name`; `null` for DatasetEvents. */
  readonly job_name: string | null;
  /** `job.namespace`; `null` for DatasetEvents. */
  readonly job_namespace: string | null;
  /** `eventTime` normalized to UTC, `YYYY-MM-DDTHH:MM:SS.ffffff+00:00`. */
  readonly event_time: string;
  /** The core-schema definition the event validated against. */
  readonly event_schema: EventKind;
  /** Version segment of `schemaURL` (`2-0-2`); `''` when the event has none. */
  readonly event_schema_version: string;
  /** Byte length of the raw JSON as received. */
  readonly event_size_in_bytes: number;
  /** The event as ingested. */
  readonly event_raw: Readonly<Record<string, unknown>>;
  /** `producer`, verbatim. */
  readonly produced_by: string;
  /** Name of the producing integration (`spark`, `airflow`, ...); `unknown` when not derivable. */
  readonly integration: string;
  /** Version of the producing integration; `''` when not derivable. */
  readonly integration_version: string;
  /** `run.facets.parent.run.runId`, lower-cased; `null` without a parent facet. */
  readonly parent_run_id: string | null;
  /** `run.facets.parent.job.namespace`; `null` without a parent facet. */
  readonly parent_job_namespace: string | null;
  /** `run.facets.parent.job.name`; `null` without a parent facet. */
  readonly parent_job_name: string | null;
  readonly inputs: readonly DatasetRef[];
  readonly outputs: readonly DatasetRef[];
  /**
   * Problems the service tolerated in the event's facets (a facet without `_producer`, say), each
   * naming the facet; absent when there were none. The facets themselves are stored as sent.
   */
  readonly warnings?: readonly string[];
}

/** Fields the event store keys and filters on; never returned to callers. */
export interface LineageEventIndexFields {
  /** `event_time` as microseconds since the epoch. */
  readonly epochMicros: bigint;
  /** `epochMicros` as a fixed-width string that sorts lexicographically (`sortableTime`). */
  readonly eventTimeKey: string;
  /** `job_name` folded for case-insensitive substring filters (`''` when absent). */
  readonly jobNameFolded: string;
  /** `job_namespace` folded for case-insensitive substring filters (`''` when absent). */
  readonly jobNamespaceFolded: string;
  /** `integration` folded for the `integrations` filter. */
  readonly integrationFolded: string;
}

/** What ingestion derives from one accepted event: the stored event plus its index fields. */
export type DerivedLineageEvent = StoredLineageEvent & LineageEventIndexFields;
