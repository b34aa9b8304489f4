/**
 * @module derive
 * Turns an accepted OpenLineage event into the stored lineage event of the contract, plus the
 * fields the event store keys and filters on.
 */
import { InvalidEventError } from './errors.ts';
import { eventId } from './event-id.ts';
import { epochMicrosOfDate, formatUtcMicros, parseEventTime, sortableTime } from './event-time.ts';
import { deriveIntegration } from './integration.ts';
import { schemaVersion } from './schema-url.ts';
import { foldForSearch } from './search-fold.ts';
import { RUN_STATES } from './types.ts';
import type { DatasetRef, DerivedLineageEvent, EventKind, RunState, StoredLineageEvent } from './types.ts';
import { validateEvent } from './validate.ts';

type Json = Readonly<Record<string, unknown>>;

// ajv's `uuid` format also admits the `urn:uuid:` form and upper case; ids are stored in one form
// so that the `run` filter and parent links compare equal.
const UUID = /^(?:urn:uuid:)?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/**
 * Derives every field of the contract's "Stored lineage event" from an event.
 *
 * Decisions (see `docs/reference/events-api.md#the-stored-event`): DatasetEvents and JobEvents have no run, so
 * their `run_id` is `null` and `run_state` is `OTHER`; a DatasetEvent has no job (`job_*` are
 * `null`) and its `dataset` is listed under `outputs`; parent fields come from `run.facets.parent`.
 *
 * @param raw - the parsed event
 * @param rawBytes - byte length of the JSON body as received (`event_size_in_bytes`)
 * @param receivedAt - when the service received it
 * @param verdict - the kind and warnings {@link validateEvent} returned; when omitted the event is validated here
 * @throws {InvalidEventError} when the event is not valid (only possible when `verdict` is omitted)
 * @throws {RangeError} when `rawBytes` is not a non-negative integer or `receivedAt` is invalid
 */
export function deriveStoredEvent(raw: object, rawBytes: number, receivedAt: Date, verdict?: { readonly kind: EventKind; readonly warnings: readonly string[] }): DerivedLineageEvent {
  if (!Number.isSafeInteger(rawBytes) || rawBytes < 0) throw new RangeError(`rawBytes must be a non-negative integer, got ${rawBytes}`);
  const { kind: eventKind, warnings } = verdict ?? validatedKind(raw);
  const event = raw as Json;
  const time = parseEventTime(String(event.eventTime));
  const run = eventKind === 'RunEvent' ? asRecord(event.run) : undefined;
  const job = eventKind === 'DatasetEvent' ? undefined : asRecord(event.job);
  const parent = asRecord(asRecord(run?.facets)?.parent);
  const { integration, integration_version } = deriveIntegration(event.producer, run?.facets);
  const jobName = stringOrNull(job?.name);
  const jobNamespace = stringOrNull(job?.namespace);

  const stored: StoredLineageEvent = {
    id: eventId(raw),
    run_id: uuidOrNull(run?.runId),
    run_state: runState(eventKind, event.eventType),
    received_at: formatUtcMicros(epochMicrosOfDate(receivedAt)),
    job_name: jobName,
    job_namespace: jobNamespace,
    event_time: time.iso,
    event_schema: eventKind,
    event_schema_version: schemaVersion(event.schemaURL),
    event_size_in_bytes: rawBytes,
    event_raw: event,
    produced_by: String(event.producer),
    integration,
    integration_version,
    parent_run_id: uuidOrNull(asRecord(parent?.run)?.runId),
    parent_job_namespace: stringOrNull(asRecord(parent?.job)?.namespace),
    parent_job_name: stringOrNull(asRecord(parent?.job)?.name),
    inputs: eventKind === 'DatasetEvent' ? [] : datasetRefs(event.inputs),
    outputs: eventKind === 'DatasetEvent' ? datasetRefs([event.dataset]) : datasetRefs(event.outputs),
    ...(warnings.length > 0 ? { warnings: [...warnings] } : {}),
  };
  return {
    ...stored,
    epochMicros: time.epochMicros,
    eventTimeKey: sortableTime(time.epochMicros),
    jobNameFolded: foldForSearch(jobName ?? ''),
    jobNamespaceFolded: foldForSearch(jobNamespace ?? ''),
    integrationFolded: foldForSearch(integration),
  };
}

/** The verdict of ingestion for one document. */
export type PreparedEvent =
  | { readonly ok: true; readonly event: DerivedLineageEvent }
  | { readonly ok: false; readonly error: string; readonly field: string };

/**
 * Validates and derives in one step, the call the ingestion handlers make per event.
 *
 * @param raw - the parsed body (or one element of a batch)
 * @param rawBytes - byte length of its JSON as received
 * @param receivedAt - when the service received it
 */
export function prepareEvent(raw: unknown, rawBytes: number, receivedAt: Date): PreparedEvent {
  const verdict = validateEvent(raw);
  if (!verdict.ok) return verdict;
  return { ok: true, event: deriveStoredEvent(raw as object, rawBytes, receivedAt, verdict) };
}

/**
 * The stored event without the index fields, i.e. exactly what the events endpoint returns.
 */
export function toPublicEvent(event: DerivedLineageEvent): StoredLineageEvent {
  const { epochMicros: _m, eventTimeKey: _k, jobNameFolded: _n, jobNamespaceFolded: _ns, integrationFolded: _i, ...stored } = event;
  return stored;
}

function validatedKind(raw: object): { readonly kind: EventKind; readonly warnings: readonly string[] } {
  const verdict = validateEvent(raw);
  if (!verdict.ok) throw new InvalidEventError(verdict.field, verdict.error);
  return verdict;
}

function runState(kind: EventKind, eventType: unknown): RunState {
  // Only a RunEvent reports a run's state. Some producers put eventType on JobEvents too (Marquez's
  // example does); it is not part of JobEvent, and a job has no run to be in that state.
  if (kind !== 'RunEvent') return 'OTHER';
  return RUN_STATES.find((state) => state === eventType) ?? 'OTHER';
}

function datasetRefs(value: unknown): DatasetRef[] {
  if (!Array.isArray(value)) return [];
  const refs: DatasetRef[] = [];
  for (const item of value) {
    const dataset = asRecord(item);
    if (typeof dataset?.namespace === 'string' && typeof dataset.name === 'string') {
      refs.push({ namespace: dataset.namespace, name: dataset.name });
    }
  }
  return refs;
}

function uuidOrNull(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const match = UUID.exec(value);
  return match?.[1] === undefined ? null : match[1].toLowerCase();
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function asRecord(value: unknown): Json | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}
