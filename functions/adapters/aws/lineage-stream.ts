/**
 * @module lineage-stream
 * Reads a DynamoDB Streams batch of the Events table (NEW_IMAGE records) as stored lineage events,
 * grouped by organization, for the lineage model's consumer Lambda. Records that are not events
 * (the name directory's items share the table) or not inserts are skipped; an event whose body
 * lives in the blob store is read from it. An org with an event that cannot be read is returned
 * unreadable, its records kept for reporting, so the batch's other orgs still go ahead.
 */
import type { AttributeValue as SdkAttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { blobKeyOf, decodeEvent } from '#adapters/dynamodb/event-item';
import type { BlobStore } from '#domain/lineage/ports';
import type { StoredLineageEvent } from '#domain/lineage/types';

/** One organization's events of a batch, with the records they came from (to report failures by). */
export interface OrgEvents {
  readonly orgId: string;
  readonly events: StoredLineageEvent[];
  /** The stream sequence numbers of the org's records, in batch order. */
  readonly sequenceNumbers: string[];
  /** Why one of the org's events could not be read (a body missing from, or unreadable in, the blob store); its events are then not returned. */
  unreadable?: unknown;
}

/** The org of an event item's key (`<org>#<event id>`); `undefined` for any other item. */
const orgOfEventItem = (item: Record<string, unknown>): string | undefined => {
  if (item.timeKey === undefined || typeof item.pk !== 'string') return undefined;
  const hash = item.pk.lastIndexOf('#');
  return hash > 0 ? item.pk.slice(0, hash) : undefined;
};

/**
 * An image's value with its binary members as bytes. Lambda hands the function a stream batch as
 * JSON, so a binary attribute (`B`, `BS`: the event store's gzip bodies) arrives as base64 text,
 * which the SDK's `unmarshall` would keep as text rather than decode.
 */
const withBytes = (value: AttributeValue): SdkAttributeValue => {
  const bytes = (b: string | Uint8Array): Uint8Array => (typeof b === 'string' ? Buffer.from(b, 'base64') : b);
  if (value.B !== undefined) return { B: bytes(value.B as string | Uint8Array) };
  if (value.BS !== undefined) return { BS: (value.BS as (string | Uint8Array)[]).map(bytes) };
  if (value.M !== undefined) return { M: imageWithBytes(value.M) };
  if (value.L !== undefined) return { L: value.L.map(withBytes) };
  // aws-lambda's AttributeValue and the SDK's are the same wire shape under two declarations.
  return value as SdkAttributeValue;
};

const imageWithBytes = (image: Record<string, AttributeValue>): Record<string, SdkAttributeValue> => Object.fromEntries(Object.entries(image).map(([name, value]) => [name, withBytes(value)]));

/** Groups a stream batch's new events by org; an org whose event cannot be read is marked {@link OrgEvents.unreadable}. */
export async function eventsOfStreamRecords(records: readonly DynamoDBRecord[], blobs: () => BlobStore): Promise<OrgEvents[]> {
  const byOrg = new Map<string, OrgEvents>();
  for (const record of records) {
    const image = record.dynamodb?.NewImage;
    if (record.eventName !== 'INSERT' || !image) continue;
    const item = unmarshall(imageWithBytes(image));
    const orgId = orgOfEventItem(item);
    if (orgId === undefined) continue;
    const group: OrgEvents = byOrg.get(orgId) ?? { orgId, events: [], sequenceNumbers: [] };
    byOrg.set(orgId, group);
    group.sequenceNumbers.push(record.dynamodb?.SequenceNumber ?? '');
    // Once one of an org's events is unreadable, its later ones wait for the retry with it.
    if (group.unreadable !== undefined) continue;
    try {
      const key = blobKeyOf(item);
      group.events.push(decodeEvent(item, key === undefined ? undefined : await blobs().get(key)));
    } catch (error) {
      group.unreadable = error;
      group.events.length = 0;
    }
  }
  return [...byOrg.values()];
}
