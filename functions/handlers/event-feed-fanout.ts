/**
 * @module event-feed-fanout
 * Target of the Events table's DynamoDB stream (not an HTTP route; ADR 0045): the stream's one
 * reader, which puts each batch's new events on every feed subscriber's queue, org by org. An org
 * whose events a queue refused is reported as a partial batch failure (its records' sequence
 * numbers), so the stream retries it while the other orgs' progress stands.
 */
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { fanOut } from '#adapters/aws/feed-fanout';
import { feed } from '#composition/index';
import { logger } from '#shared/observability';

/** Lambda entry point. */
export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const ports = feed();
  if (ports.fanOut === undefined) throw new Error('configuration: this function has no feed queues');
  const outcomes = await fanOut(ports.fanOut, event.Records);
  const failures: string[] = [];
  for (const outcome of outcomes) {
    if (outcome.error === undefined) logger.info('feed events fanned out', { orgId: outcome.orgId, events: outcome.events, subscribers: Object.keys(ports.fanOut.queues).length });
    else {
      logger.error('feed events not fanned out; retrying them', { orgId: outcome.orgId, events: outcome.events, error: outcome.error });
      failures.push(...outcome.sequenceNumbers);
    }
  }
  return { batchItemFailures: failures.map((itemIdentifier) => ({ itemIdentifier })) };
};
