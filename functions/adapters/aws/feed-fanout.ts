/**
 * @module feed-fanout
 * The Events stream's one reader (ADR 0045): each stream batch is split by org and sent to every
 * subscriber's SQS FIFO queue, one message per org (`MessageGroupId` = org, so each subscriber gets
 * an org's batches in stream order; the deduplication id is the batch's first and last sequence
 * numbers, so a retried stream batch is not queued twice within SQS's five minutes). The feed's
 * head per org (the newest mark seen) is advanced for the lag. The stream itself is read by this
 * one function only, whatever the number of subscribers: DynamoDB Streams serves about two
 * readers per shard.
 */
import { createHash } from 'node:crypto';
import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBRecord } from 'aws-lambda';
import type { OrgMarks } from '#domain/feed/ports';
import { formatUtcMicros } from '#domain/lineage/event-time';
import { MAX_KEYS_PER_MESSAGE, type FeedMessage } from './feed-messages.ts';

/** One org's new events in a stream batch: their keys and stream sequence numbers, and the highest mark. */
export interface OrgSlice {
  readonly orgId: string;
  readonly keys: string[];
  readonly sequenceNumbers: string[];
  highest: string;
}

/** The org of an event item's key (`<org>#<event id>`); `undefined` for any other item. */
const orgOfEventItem = (item: Record<string, unknown>): string | undefined => {
  if (item.timeKey === undefined || typeof item.pk !== 'string') return undefined;
  const hash = item.pk.lastIndexOf('#');
  return hash > 0 ? item.pk.slice(0, hash) : undefined;
};

/**
 * An event's receipt time: from its derived fields (`doc`, which the item holds unless the body is
 * in the blob store), else the stream's approximate creation time (seconds; at most a second late,
 * only for the head the lag is measured from). Only the one field is read, not the whole document.
 */
const receivedAtOf = (doc: string | undefined, approximateSeconds: number | undefined): string | undefined => {
  const found = doc === undefined ? undefined : /"received_at":"([^"]+)"/.exec(doc)?.[1];
  if (found !== undefined) return found;
  return approximateSeconds === undefined ? undefined : formatUtcMicros(BigInt(Math.round(approximateSeconds * 1_000_000)));
};

/**
 * The stream batch's new events by org (other items of the table and non-inserts skipped). Only the
 * keys and receipt times are read: the bodies stay in the table.
 */
export const slicesOfStreamRecords = (records: readonly DynamoDBRecord[]): OrgSlice[] => {
  const byOrg = new Map<string, OrgSlice>();
  for (const record of records) {
    const image = record.dynamodb?.NewImage;
    if (record.eventName !== 'INSERT' || !image) continue;
    // Only the key is read (a string attribute); the name directory's items have no `timeKey`.
    const item = { pk: image.pk?.S, timeKey: image.timeKey?.S };
    const orgId = orgOfEventItem(item);
    if (orgId === undefined) continue;
    const slice = byOrg.get(orgId) ?? { orgId, keys: [], sequenceNumbers: [], highest: '' };
    byOrg.set(orgId, slice);
    slice.keys.push(String(item.pk));
    slice.sequenceNumbers.push(record.dynamodb?.SequenceNumber ?? '');
    const receivedAt = receivedAtOf(image.doc?.S, record.dynamodb?.ApproximateCreationDateTime);
    const mark = receivedAt === undefined ? undefined : `${receivedAt}#${String(item.pk).slice(orgId.length + 1)}`;
    if (mark !== undefined && mark > slice.highest) slice.highest = mark;
  }
  return [...byOrg.values()];
};

/** What the fan-out needs. */
export interface FanOutDeps {
  readonly sqs: SQSClient;
  /** Queue URL per subscriber name. */
  readonly queues: Readonly<Record<string, string>>;
  /** The feed's head per org (advanced once the org's slice is on every queue). */
  readonly head: OrgMarks;
}

const dedupIdOf = (subscriber: string, slice: OrgSlice, part: number): string =>
  createHash('sha256').update(`${subscriber}\n${slice.orgId}\n${slice.sequenceNumbers[0]}\n${slice.sequenceNumbers.at(-1)}\n${part}`).digest('hex');

/** An org slice's messages (more than one only past {@link MAX_KEYS_PER_MESSAGE} events). */
const messagesOf = (slice: OrgSlice): FeedMessage[] => {
  const messages: FeedMessage[] = [];
  for (let i = 0; i < slice.keys.length; i += MAX_KEYS_PER_MESSAGE) messages.push({ v: 1, orgId: slice.orgId, keys: slice.keys.slice(i, i + MAX_KEYS_PER_MESSAGE) });
  return messages;
};

/** Sends one org's slice to one queue; throws when any message was refused. */
const sendSlice = async (deps: FanOutDeps, subscriber: string, queueUrl: string, slice: OrgSlice): Promise<void> => {
  const entries = messagesOf(slice).map((message, part) => ({
    Id: String(part),
    MessageBody: JSON.stringify(message),
    MessageGroupId: slice.orgId,
    MessageDeduplicationId: dedupIdOf(subscriber, slice, part),
  }));
  // SendMessageBatch takes 10 entries; in order, so the org's messages stay in stream order.
  for (let i = 0; i < entries.length; i += 10) {
    const out = await deps.sqs.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries.slice(i, i + 10) }));
    if ((out.Failed ?? []).length > 0) throw new Error(`feed fan-out: ${out.Failed?.length} message(s) refused by the ${subscriber} queue: ${out.Failed?.[0]?.Message ?? ''}`);
  }
};

/** What became of each org's slice: sent to every queue, or not (its records are then reported for a retry). */
export interface FanOutOutcome {
  readonly orgId: string;
  readonly events: number;
  readonly error?: unknown;
  readonly sequenceNumbers: readonly string[];
}

/**
 * Sends each org's slice to every subscriber's queue. An org whose slice a queue refused is
 * reported failed (the stream retries from its lowest record, and every queue gets it again: the
 * deduplication id and the subscribers' idempotence absorb the repeat); the other orgs go ahead.
 */
export const fanOut = async (deps: FanOutDeps, records: readonly DynamoDBRecord[]): Promise<FanOutOutcome[]> =>
  Promise.all(
    slicesOfStreamRecords(records).map(async (slice): Promise<FanOutOutcome> => {
      try {
        await Promise.all(Object.entries(deps.queues).map(([subscriber, url]) => sendSlice(deps, subscriber, url, slice)));
        if (slice.highest !== '') await deps.head.advance(slice.orgId, slice.highest);
        return { orgId: slice.orgId, events: slice.keys.length, sequenceNumbers: slice.sequenceNumbers };
      } catch (error) {
        return { orgId: slice.orgId, events: slice.keys.length, error, sequenceNumbers: slice.sequenceNumbers };
      }
    }),
  );
