/**
 * @module ingest
 * The ingestion use cases: one event (`POST /api/v1/lineage`) and a batch
 * (`POST /api/v1/lineage/batch`, answered as OpenLineage.yml describes). Both validate and derive
 * with `prepareEvent` and hand accepted events to the {@link EventStore}; they resolve only once
 * the store has acknowledged the write.
 */
import { DomainError, PayloadTooLargeError, ValidationError } from '../errors.ts';
import { firstProblem, parseStrictJson } from '../strict-json.ts';
import { prepareEvent } from './derive.ts';
import { InvalidEventError } from './errors.ts';
import { scanJsonArray } from './json-array.ts';
import type { EventRecord, EventStore, PutOutcome } from './ports.ts';

/** A request body as read by the handler: the parsed value and its JSON text (decompressed). */
export interface ReceivedBody {
  readonly value: unknown;
  readonly text: string;
  /** UTF-8 byte length of `text`. */
  readonly bytes: number;
}

/** A batch body as read by the handler: its JSON text, not parsed (elements are parsed one by one). */
export type ReceivedBatch = Omit<ReceivedBody, 'value'>;

/**
 * Most events in one batch (`POST /api/v1/lineage/batch`); a larger batch is refused with 413
 * before any element is parsed. OpenLineage clients send batches of tens to hundreds of events.
 */
export const MAX_BATCH_EVENTS = 1_000;

/** Most refused elements a batch answer lists one by one; the summary counts all of them. */
export const MAX_LISTED_FAILURES = 100;

/**
 * Stores one event for an org.
 *
 * `event_size_in_bytes` is the byte length of the body's JSON as received (after gzip decoding),
 * and the stored raw text is that body verbatim.
 *
 * @throws {InvalidEventError} (a 400) naming the offending field when the event is not acceptable
 * @returns whether the event was new or already stored (both mean it is durably stored)
 */
export async function ingestEvent(store: EventStore, orgId: string, body: ReceivedBody, receivedAt: Date): Promise<PutOutcome> {
  const prepared = prepareEvent(body.value, body.bytes, receivedAt);
  if (!prepared.ok) throw new InvalidEventError(prepared.field, prepared.error);
  return store.put(orgId, { event: prepared.event, rawText: body.text });
}

/** One refused element of a batch (OpenLineage.yml `failed_events` items). */
export interface FailedEvent {
  /** Position of the element in the request array. */
  readonly index: number;
  readonly reason: string;
  /** Whether sending the same element again may succeed (store trouble), or never will (invalid). */
  readonly retriable: boolean;
}

/**
 * The answer to a batch (OpenLineage.yml's 200 body, plus `failure` when nothing was stored).
 * `failed_events` lists the first {@link MAX_LISTED_FAILURES} refused elements by index; the
 * summary counts every one.
 */
export interface BatchOutcome {
  /** `success`: all stored; `partial_success`: some stored; `failure`: none stored. */
  readonly status: 'success' | 'partial_success' | 'failure';
  readonly summary: {
    readonly received: number;
    readonly successful: number;
    readonly failed: number;
    readonly retriable: number;
    readonly non_retriable: number;
  };
  readonly failed_events: readonly FailedEvent[];
}

/**
 * Stores a batch: a JSON array of at most {@link MAX_BATCH_EVENTS} events. Valid elements are
 * stored even when others are refused; each refused element is reported with its index, the
 * validation message as reason, and whether retrying could help.
 *
 * Each element's `event_size_in_bytes` and stored raw text are its own slice of the request text
 * (as the producer wrote it, whitespace around it excluded), so an event gets the same size
 * whether it came alone or in a batch with the same formatting. Elements are parsed one by one
 * after the array's shape is checked, so work is bounded by the element limit, not by the body.
 *
 * @throws {ValidationError} when the body is not a JSON array (or not valid JSON)
 * @throws {PayloadTooLargeError} (413) above {@link MAX_BATCH_EVENTS} events
 */
export async function ingestBatch(store: EventStore, orgId: string, body: ReceivedBatch, receivedAt: Date): Promise<BatchOutcome> {
  const scanned = scanJsonArray(body.text, MAX_BATCH_EVENTS);
  if (scanned.kind === 'too-many') {
    throw new PayloadTooLargeError(`body: a batch holds at most ${MAX_BATCH_EVENTS} events; this one has more, so split it into several batches`);
  }
  if (scanned.kind !== 'elements') {
    // Parsed only to say what is wrong: valid JSON that is not an array, or invalid JSON.
    if (scanned.kind === 'not-array') parseStrictJson(body.text);
    throw new ValidationError(scanned.kind === 'not-array' ? 'body: must be a JSON array of OpenLineage events' : 'body: must be valid JSON (a malformed array)');
  }
  const texts = scanned.texts;
  // Every element must parse: otherwise the body is not JSON, and nothing of it is stored.
  const elements = texts.map((text, index) => parseElement(text, index));

  const failed: FailedEvent[] = [];
  const records: EventRecord[] = [];
  const recordIndexes: number[] = [];
  elements.forEach((element, index) => {
    if (element instanceof DomainError) {
      failed.push({ index, reason: element.message, retriable: false });
      return;
    }
    const text = texts[index] as string;
    const prepared = prepareEvent(element, Buffer.byteLength(text, 'utf8'), receivedAt);
    if (!prepared.ok) {
      failed.push({ index, reason: prepared.error, retriable: false });
      return;
    }
    records.push({ event: prepared.event, rawText: text });
    recordIndexes.push(index);
  });

  const outcomes = records.length > 0 ? await store.putMany(orgId, records) : [];
  outcomes.forEach((outcome, i) => {
    if (!outcome.ok) failed.push({ index: recordIndexes[i] as number, reason: outcome.reason, retriable: outcome.retriable });
  });
  failed.sort((a, b) => a.index - b.index);

  const retriable = failed.filter((f) => f.retriable).length;
  const successful = texts.length - failed.length;
  return {
    status: failed.length === 0 ? 'success' : successful > 0 ? 'partial_success' : 'failure',
    summary: { received: texts.length, successful, failed: failed.length, retriable, non_retriable: failed.length - retriable },
    failed_events: failed.slice(0, MAX_LISTED_FAILURES),
  };
}

/**
 * One element, parsed strictly. Invalid JSON syntax fails the whole body (it is not JSON); a
 * value JSON cannot carry faithfully (1e999, a lone surrogate) fails only that element.
 */
function parseElement(text: string, index: number): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ValidationError(`body: must be valid JSON (element ${index}: ${(err as Error).message})`);
  }
  const problem = firstProblem(value, `[${index}]`);
  return problem === undefined ? value : new ValidationError(problem);
}
