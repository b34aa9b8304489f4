/**
 * The lineage stream consumer Lambda, run in the AWS profile against the local DynamoDB (through
 * the SDK's standard endpoint variable) with DynamoDB Streams records of the shape Lambda delivers:
 * NEW_IMAGE of the event items the event store writes, as JSON (binary bodies in base64). The
 * consumer on records the emulator's stream really produced: test/aws/lineage-graph-aws.test.ts. Inserted events reach the model; other
 * items of the Events table (the name directory) and non-inserts are skipped; a batch that cannot
 * be read is reported back whole, so Lambda retries it.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDocumentClient, localDynamoClient } from '#adapters/dynamodb/clients';
import { encodeEvent } from '#adapters/dynamodb/event-item';
import { DynamoLineageModelStore } from '#adapters/dynamodb/lineage-model-store';
import { localTableName } from '#composition/config';
import { prepareEvent } from '#domain/lineage/derive';
import type { EventRecord } from '#domain/lineage/ports';
import { lineageGraph } from '#domain/lineage-graph/graph';
import { EVENTS_TABLE, LINEAGE_TABLE } from '#shared/table-definitions';
import { EXAMPLES_DIR } from '../unit/domain/lineage/examples.ts';
import { APPLES } from '../unit/domain/lineage-graph/events.ts';

const client = localDynamoClient(inject('stack').dynamodbEndpoint);
const model = new DynamoLineageModelStore(createDocumentClient(client), localTableName(LINEAGE_TABLE), { generationCacheMs: 0 });
let handler: (event: DynamoDBStreamEvent) => Promise<{ batchItemFailures: { itemIdentifier: string }[] }>;

beforeAll(async () => {
  // The environment the CDK app gives the consumer (its tables; no blob bucket needed for small events), on the local store.
  Object.assign(process.env, {
    LAKELINE_PROFILE: 'aws',
    [LINEAGE_TABLE.envName]: localTableName(LINEAGE_TABLE),
    // A feed subscriber reads event bodies by key from the Events table (lib/event-feed.ts binds it read-only).
    [EVENTS_TABLE.envName]: localTableName(EVENTS_TABLE),
    AWS_ENDPOINT_URL_DYNAMODB: inject('stack').dynamodbEndpoint,
    AWS_REGION: 'local',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  });
  ({ handler } = await import('#handlers/lineage-model-consumer'));
});
afterAll(() => client.destroy());

let sequence = 1000;
/** An image as Lambda's JSON event carries it: binary values (the gzip bodies) as base64 text. */
const asDelivered = (image: Record<string, unknown>): Record<string, AttributeValue> => {
  const json = (value: unknown): unknown =>
    value instanceof Uint8Array ? Buffer.from(value).toString('base64') : Array.isArray(value) ? value.map(json) : value !== null && typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, json(v)])) : value;
  return json(image) as Record<string, AttributeValue>;
};

/** A stream record as Lambda delivers it, of an item as the table holds it. */
const streamRecord = (item: Record<string, unknown>, eventName: 'INSERT' | 'MODIFY' = 'INSERT'): DynamoDBRecord => ({
  eventID: randomUUID().replaceAll('-', ''),
  eventName,
  eventVersion: '1.1',
  eventSource: 'aws:dynamodb',
  awsRegion: 'eu-west-1',
  dynamodb: {
    ApproximateCreationDateTime: Date.now() / 1000,
    Keys: marshall({ pk: item.pk }) as Record<string, AttributeValue>,
    NewImage: asDelivered(marshall(item, { removeUndefinedValues: true })),
    SequenceNumber: String((sequence += 100)).padStart(21, '0'),
    SizeBytes: 1024,
    StreamViewType: 'NEW_IMAGE',
  },
  eventSourceARN: 'arn:aws:dynamodb:eu-west-1:123456789012:table/Lakeline-Events/stream/2026-11-25T00:00:00.000',
});

const exampleRecord = (name: string): EventRecord => {
  const rawText = readFileSync(path.join(EXAMPLES_DIR, name), 'utf8');
  const prepared = prepareEvent(JSON.parse(rawText), Buffer.byteLength(rawText), new Date());
  if (!prepared.ok) throw new Error(prepared.error);
  return { event: prepared.event, rawText };
};

describe('the lineage model consumer Lambda', () => {
  it('Should apply the inserted events of a stream batch per org and skip what is not a new event', async () => {
    const [orgA, orgB] = [`stream-${randomUUID()}`, `stream-${randomUUID()}`];
    const records = [
      ...APPLES.map((name) => streamRecord(encodeEvent(orgA, exampleRecord(name)).item)),
      streamRecord(encodeEvent(orgB, exampleRecord(APPLES[0] as string)).item),
      // A name-directory item of the same table, and a modification: neither is a new event.
      streamRecord({ pk: `${orgA}#names`, sk: 'x', jobs: ['etl'] }),
      streamRecord(encodeEvent(orgB, exampleRecord(APPLES[1] as string)).item, 'MODIFY'),
    ];
    const response = await handler({ Records: records });
    expect(response).toEqual({ batchItemFailures: [] });
    const graph = await lineageGraph(model, orgA, { nodeId: { type: 'JOB', namespace: 'grandmas.kitchen', name: 'gather_apples' }, depth: 20, direction: 'both' });
    expect(graph.graph.map((n) => n.id)).toContain('dataset:grandmas.kitchen:apples');
    expect(graph.graph.length).toBeGreaterThan(4);
    // orgB got its insert, not the modification.
    const namesB = (await (await model.model(orgB)).searchEntries()).map((e) => e.name);
    expect(namesB.length).toBeGreaterThan(0);
  });

  it("Should read an event whose body the store keeps gzip-compressed, which Lambda's JSON carries in base64", async () => {
    // Prepare: a body above the compression threshold (rawGz, a binary attribute).
    const org = `stream-${randomUUID()}`;
    const event = JSON.parse(readFileSync(path.join(EXAMPLES_DIR, APPLES[0] as string), 'utf8')) as { run: { facets?: Record<string, unknown> } };
    event.run.facets = { ...event.run.facets, note: { _producer: 'https://example.com', _schemaURL: 'https://example.com/f.json', text: 'x'.repeat(4096) } };
    const rawText = JSON.stringify(event);
    const prepared = prepareEvent(event, Buffer.byteLength(rawText), new Date());
    if (!prepared.ok) throw new Error(prepared.error);
    const { item } = encodeEvent(org, { event: prepared.event, rawText });
    expect(item.rawGz).toBeDefined();

    // Act
    const response = await handler({ Records: [streamRecord(item)] });

    // Assess
    expect(response).toEqual({ batchItemFailures: [] });
    expect((await (await model.model(org)).searchEntries()).map((e) => e.name)).toContain('gather_apples');
  });

  it('Should report every record of a batch it cannot read, so Lambda retries it', async () => {
    const org = `stream-${randomUUID()}`;
    // An event whose body lives in the blob store, in a function given no bucket: the read fails.
    const item = { ...encodeEvent(org, exampleRecord(APPLES[0] as string)).item, blob: 'events/x/y.json.gz' };
    const records = [streamRecord(item), streamRecord(encodeEvent(org, exampleRecord(APPLES[1] as string)).item)];
    const response = await handler({ Records: records });
    expect(response.batchItemFailures.map((f) => f.itemIdentifier)).toEqual(records.map((r) => r.dynamodb?.SequenceNumber));
  });
});
