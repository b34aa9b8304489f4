/**
 * @module feed-subscriber-lambda
 * A feed subscriber as a Lambda (ADR 0045). Its deployed source is its own SQS FIFO queue, filled
 * by the Events stream's fan-out: each message is one org's new events (their keys; the bodies are
 * read back here); a message whose batch fails is reported (`batchItemFailures`) together with the
 * later messages of the same org in the invocation, so the org's order holds on the retry, while
 * other orgs' messages are deleted as done; after its queue's receive limit a message goes to the
 * subscriber's own dead-letter queue. The same handler also takes a DynamoDB stream batch straight
 * from the Events stream (the wiring before the fan-out, which the AWS suite drives), reporting an
 * org's records by sequence number. Either way only this subscriber is retried: the others read
 * their own queues.
 */
import type { DynamoDBBatchResponse, DynamoDBStreamEvent, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { highestMark, millisOfMark } from '#domain/feed/marks';
import type { FeedEvent, FeedSubscriber, OrgMarks } from '#domain/feed/ports';
import type { BlobStore } from '#domain/lineage/ports';
import { parseFeedMessage } from './feed-messages.ts';
import { eventsOfStreamRecords } from './lineage-stream.ts';

/** What the subscriber's Lambda needs (built on first use by the handler module). */
export interface SubscriberLambdaDeps {
  readonly subscriber: FeedSubscriber;
  /** The highest mark it applied per org (its lag in the health answer). */
  readonly applied: OrgMarks;
  /** The events of Events table keys, read consistently; fewer back than asked when an item is missing. */
  byKeys(keys: readonly string[]): Promise<readonly FeedEvent[]>;
  readonly blobs: () => BlobStore;
  readonly log: { info(message: string, fields: Record<string, unknown>): void; error(message: string, fields: Record<string, unknown>): void };
  readonly now?: () => number;
}

/** Hands one org's batch to the subscriber, then records how far it got and logs its lag. */
const deliver = async (deps: SubscriberLambdaDeps, orgId: string, events: readonly FeedEvent[]): Promise<void> => {
  if (events.length === 0) return;
  await deps.subscriber.handle(orgId, events);
  const high = highestMark(events) as string;
  await deps.applied.advance(orgId, high);
  deps.log.info('feed batch applied', { subscriber: deps.subscriber.name, orgId, events: events.length, lagMs: (deps.now ?? Date.now)() - millisOfMark(high) });
};

/** The SQS path: one message per org batch, in order per org. */
const fromQueue = async (deps: SubscriberLambdaDeps, records: readonly SQSRecord[]): Promise<SQSBatchResponse> => {
  const failed: string[] = [];
  const failedOrgs = new Set<string>();
  for (const record of records) {
    let orgId: string | undefined;
    try {
      const message = parseFeedMessage(record.body);
      orgId = message.orgId;
      // An earlier message of this org failed: this one waits for the retry, behind it.
      if (failedOrgs.has(orgId)) {
        failed.push(record.messageId);
        continue;
      }
      const events = await deps.byKeys(message.keys);
      if (events.length < message.keys.length) throw new Error(`${message.keys.length - events.length} of the batch's events are not readable yet`);
      await deliver(deps, orgId, events);
    } catch (error) {
      deps.log.error('feed batch not applied; retrying it', { subscriber: deps.subscriber.name, orgId, messageId: record.messageId, error });
      failed.push(record.messageId);
      if (orgId !== undefined) failedOrgs.add(orgId);
    }
  }
  return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
};

/** The stream path: the batch's records grouped by org; a failed org's records are reported by sequence number. */
const fromStream = async (deps: SubscriberLambdaDeps, event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const groups = await eventsOfStreamRecords(event.Records, deps.blobs);
  const failures: string[] = [];
  for (const group of groups) {
    if (group.unreadable !== undefined) {
      deps.log.error('lineage events not readable; retrying them', { subscriber: deps.subscriber.name, orgId: group.orgId, records: group.sequenceNumbers.length, error: group.unreadable });
      failures.push(...group.sequenceNumbers);
      continue;
    }
    try {
      await deliver(deps, group.orgId, group.events);
    } catch (error) {
      deps.log.error('lineage events not applied; retrying them', { subscriber: deps.subscriber.name, orgId: group.orgId, events: group.events.length, error });
      failures.push(...group.sequenceNumbers);
    }
  }
  return { batchItemFailures: failures.map((itemIdentifier) => ({ itemIdentifier })) };
};

const fromSqs = (event: SQSEvent | DynamoDBStreamEvent): event is SQSEvent => event.Records[0]?.eventSource === 'aws:sqs';

/** The Lambda entry point of a subscriber. */
export const subscriberLambda =
  (deps: () => SubscriberLambdaDeps) =>
  async (event: SQSEvent | DynamoDBStreamEvent): Promise<SQSBatchResponse | DynamoDBBatchResponse> =>
    fromSqs(event) ? fromQueue(deps(), event.Records) : fromStream(deps(), event as DynamoDBStreamEvent);
