/**
 * @module ingest
 * The ingestion use cases: one event (`POST /api/v1/lineage`) and a batch
 * (`POST /api/v1/lineage/batch`, answered as OpenLineage.yml describes). Both validate and derive
 * with `prepareEvent` and hand accepted events to the {@link EventStore}; they resolve only once
 * the store has acknowledged the write.
 */
import { ValidationError } from '../errors.ts';
import { prepareEvent } from './derive.ts';
import { InvalidEventError } from './errors.ts';
import { splitJsonArray } from './json-array.ts';
import type { EventRecord, EventStore, PutOutcome } from './ports.ts';

/** A request body as read by the handler: the parsed value and its JSON text (decompressed). */
export interface ReceivedBody {
  readonly value: unknown;
  readonly text: string;
  /** UTF-8 byte length of `text`. */
  readonly bytes: number;
}

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

/** The answer to a batch (OpenLineage.yml's 200 body, plus `failure` when nothing was stored). */
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
 * Stores a batch: a JSON array of events. Valid elements are stored even when others are refused;
 * each refused element is reported with its index, the validation message as reason, and whether
 * retrying could help.
 *
 * Each element's `event_size_in_bytes` and stored raw text are its own slice of the request text
 * (as the producer wrote it, whitespace around it excluded), so an event gets the same size
 * whether it came alone or in a batch with the same formatting.
 *
 * @throws {ValidationError} when the body is not a JSON array
 */
export async function ingestBatch(store: EventStore, orgId: string, body: ReceivedBody, receivedAt: Date): Promise<BatchOutcome> {
  if (!Array.isArray(body.value)) throw new ValidationError('body: must be a JSON array of OpenLineage events');
  const elements: readonly unknown[] = body.value;
  const texts = splitJsonArray(body.text);
  // Cannot differ for text that JSON.parse accepted; checked so a scanner bug cannot mis-attribute text.
  if (texts === undefined || texts.length !== elements.length) throw new Error('batch: element boundaries do not match the parsed array');

  const failed: FailedEvent[] = [];
  const records: EventRecord[] = [];
  const recordIndexes: number[] = [];
  elements.forEach((element, index) => {
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
  const successful = elements.length - failed.length;
  return {
    status: failed.length === 0 ? 'success' : successful > 0 ? 'partial_success' : 'failure',
    summary: { received: elements.length, successful, failed: failed.length, retriable, non_retriable: failed.length - retriable },
    failed_events: failed,
  };
}
