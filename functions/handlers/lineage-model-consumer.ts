/**
 * @module lineage-model-consumer
 * Target of the Events table's DynamoDB stream (not an HTTP route): applies each batch of new
 * events to the lineage read model, org by org (ADR 0031). An org whose events could not be
 * applied — or one of whose events could not be read — is reported as a partial batch failure (its
 * records' sequence numbers), so Lambda retries from the lowest of them while the other orgs'
 * progress stands; re-applying is harmless.
 */
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { eventsOfStreamRecords } from '#adapters/aws/lineage-stream';
import { lineageGraph } from '#composition/index';
import { applyEventsToLineageModel } from '#domain/lineage-graph/apply';
import { logger } from '#shared/observability';

/** Lambda entry point. */
export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const ports = lineageGraph();
  const groups = await eventsOfStreamRecords(event.Records, () => ports.blobs);
  const failures: string[] = [];
  for (const group of groups) {
    if (group.unreadable !== undefined) {
      logger.error('lineage events not readable; retrying them', { orgId: group.orgId, records: group.sequenceNumbers.length, error: group.unreadable });
      failures.push(...group.sequenceNumbers);
      continue;
    }
    try {
      const summary = await applyEventsToLineageModel(ports.model, group.orgId, group.events);
      logger.info('lineage events applied', { orgId: group.orgId, ...summary });
    } catch (error) {
      logger.error('lineage events not applied; retrying them', { orgId: group.orgId, events: group.events.length, error });
      failures.push(...group.sequenceNumbers);
    }
  }
  return { batchItemFailures: failures.map((itemIdentifier) => ({ itemIdentifier })) };
};
