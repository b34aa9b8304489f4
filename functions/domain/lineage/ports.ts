/**
 * @module ports
 * The ports of lineage ingestion and listing: where accepted events are stored and how they are
 * listed back, and the object store that holds raw bodies too large for the event store's items.
 * Adapters implement them (`functions/adapters/dynamodb/event-store.ts`, `functions/adapters/blob/`).
 */
import type { DerivedLineageEvent, RunState, StoredLineageEvent } from './types.ts';

/** One accepted event, ready to store. */
export interface EventRecord {
  /** The derived stored event (its `event_raw` is the parsed form of {@link rawText}). */
  readonly event: DerivedLineageEvent;
  /** The event's JSON text exactly as received; the store keeps this text, not a re-serialization. */
  readonly rawText: string;
}

/** What storing one event did. `duplicate`: the same event (same id) was already stored for the org. */
export type PutOutcome = 'stored' | 'duplicate';

/** The outcome of one record of {@link EventStore.putMany}. */
export type PutManyOutcome =
  | { readonly ok: true; readonly outcome: PutOutcome }
  | { readonly ok: false; readonly reason: string; readonly retriable: boolean };

/** Sort orders of the events endpoint. */
export const SORT_FIELDS = ['EVENT_TIME', 'EVENT_SIZE_IN_BYTES'] as const;
/** One of {@link SORT_FIELDS}. */
export type SortField = (typeof SORT_FIELDS)[number];
/** Directions of the events endpoint. */
export const SORT_ORDERS = ['ASC', 'DESC'] as const;
/** One of {@link SORT_ORDERS}. */
export type SortOrder = (typeof SORT_ORDERS)[number];

/**
 * A validated listing request (see `list-query.ts`). Text filters are already folded with
 * `foldForSearch`, times are microseconds, and every optional filter is absent when not asked for.
 */
export interface EventListQuery {
  /** Inclusive lower bound of `event_time`, epoch microseconds, within the storable range. */
  readonly startMicros: bigint;
  /** Exclusive upper bound of `event_time`, epoch microseconds; at or below `startMicros` the window is empty. */
  readonly endMicros: bigint;
  readonly sortBy: SortField;
  readonly order: SortOrder;
  /** Only events of this run (lower-case UUID, the form of `run_id`). */
  readonly runId?: string;
  /** Only events in one of these states (distinct values). */
  readonly states?: readonly RunState[];
  /** Folded substring of `job_namespace`. */
  readonly namespace?: string;
  /** Folded substring of `job_name`. */
  readonly job?: string;
  /** Folded integration names; an event matches when its folded `integration` is one of them. */
  readonly integrations?: readonly string[];
  readonly limit: number;
  /** Events to skip; any non-negative safe integer. */
  readonly offset: number;
}

/** One page of a listing. */
export interface EventPage {
  /**
   * The events, in the requested order: `limit` of them unless the listing ends first. Their
   * `event_raw` serializes (JSON.stringify) to the numbers as sent: a number whose text differs
   * from JavaScript's (`0.0`, `1e3`) is a `JSON.rawJSON` value there, not a number.
   */
  readonly events: readonly StoredLineageEvent[];
}

/** Port: where an organization's lineage events live. Every method is scoped to one org. */
export interface EventStore {
  /**
   * Stores one event unless the org already holds an event with its id, durably, before resolving.
   * The first arrival wins: a duplicate never changes the stored `received_at`, size or raw text.
   * Failures of the store propagate as errors.
   */
  put(orgId: string, record: EventRecord): Promise<PutOutcome>;
  /**
   * Stores many events; one outcome per record, in the order given. Records with the same id are
   * stored once. A record the store could not take now (throttling, outage) is reported as
   * retriable rather than thrown, so the rest of the batch still lands.
   */
  putMany(orgId: string, records: readonly EventRecord[]): Promise<PutManyOutcome[]>;
  /** One page of the org's events, filtered and ordered as asked (ties broken by event id). */
  list(orgId: string, query: EventListQuery): Promise<EventPage>;
  /**
   * How many of the org's events the query's filters and window match, whatever its page
   * (`limit`, `offset` and order are ignored). Reads every matching index entry: its cost grows
   * with the window.
   */
  count(orgId: string, query: EventListQuery): Promise<number>;
}

/** Port: an object store for raw bodies of events above the event store's item size limit. */
export interface BlobStore {
  /** Writes (or overwrites) an object; resolves once it is durable. */
  put(key: string, body: Uint8Array): Promise<void>;
  /** Reads an object whole. Rejects when it does not exist. */
  get(key: string): Promise<Buffer>;
}
