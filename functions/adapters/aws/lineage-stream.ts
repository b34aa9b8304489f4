/**
 * @module lineage-stream
 * Reads a DynamoDB Streams batch of the Events table (NEW_IMAGE records) as stored lineage events,
 * grouped by organization, for the lineage model's consumer Lambda. Records that are not events
 * (the name directory's items share the table) or not inserts are skipped; an event whose body
 * lives in the blob store is read from it.
 */
import type { AttributeValue as SdkAttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { blobKeyOf, decodeEvent } from '#adapters/dynamodb/event-item';
import type { BlobStore } from '#domain/lineage/ports';
import type { StoredLineageEvent } from '#domain/lineage/types';

/** One organization's events of a batch, with the records they came from (to report failures by). */
export interface OrgEvents {
  readonly orgId: string;
  readonly events: StoredLineageEvent[];
  /** The stream sequence numbers of the org's records, in batch order. */
  readonly sequenceNumbers: string[];
}

/** The org of an event item's key (`<org>#<event id>`); `undefined` for any other item. */
const orgOfEventItem = (item: Record<string, unknown>): string | undefined => {
  if (item.timeKey === undefined || typeof item.pk !== 'string') return undefined;
  const hash = item.pk.lastIndexOf('#');
  return hash > 0 ? item.pk.slice(0, hash) : undefined;
};

/**
 * Groups a stream batch's new events by org.
 * @throws when a body cannot be read from the blob store (the whole batch is then retried by the caller's reporting)
 */
export async function eventsOfStreamRecords(records: readonly DynamoDBRecord[], blobs: () => BlobStore): Promise<OrgEvents[]> {
  const byOrg = new Map<string, OrgEvents>();
  for (const record of records) {
    const image = record.dynamodb?.NewImage;
    if (record.eventName !== 'INSERT' || !image) continue;
    // aws-lambda's AttributeValue and the SDK's are the same wire shape under two declarations.
    const item = unmarshall(image as Record<string, SdkAttributeValue>);
    const orgId = orgOfEventItem(item);
    if (orgId === undefined) continue;
    const key = blobKeyOf(item);
    const event = decodeEvent(item, key === undefined ? undefined : await blobs().get(key));
    const group = byOrg.get(orgId) ?? { orgId, events: [], sequenceNumbers: [] };
    group.events.push(event);
    group.sequenceNumbers.push(record.dynamodb?.SequenceNumber ?? '');
    byOrg.set(orgId, group);
  }
  return [...byOrg.values()];
}
