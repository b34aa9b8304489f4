/**
 * The lineage graph in the AWS profile, against the emulated account: events posted to the
 * ingestion endpoint's handler land in an Events table with the NEW_IMAGE stream the template
 * gives it; the stream's own records, read through the emulator's DynamoDB Streams API by the
 * event source mapping's stand-in (stream-mapping.ts), are delivered to the consumer Lambda's
 * handler, which maintains the model in the emulator's Lineage table; every graph route's handler
 * answers from it. The graph's cases are the local gateway's (lineage-graph-cases.ts), the same
 * assertions. Then the stream's failure handling: a batch holding a record that cannot be read (an
 * event whose body is missing from the blob bucket) applies every other org's events and reports
 * that org's records alone; the mapping retries from the lowest of them, and once the body is
 * readable the retry applies it.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { EVENTS_TABLE } from '#shared/table-definitions';
import { APPLES_CURRENT } from '../unit/domain/lineage-graph/fixtures.ts';
import { EXAMPLES_DIR } from '../unit/domain/lineage/examples.ts';
import { APPLES, runEventJson } from '../unit/domain/lineage-graph/events.ts';
import { lineageGraphCases, type GraphOrg } from '../http/lineage-graph-cases.ts';
import { shape } from '../http/lineage-graph-api.ts';
import { awsGraphApi } from './aws-graph-api.ts';
import { useAwsProfile, type AwsOrgCaller, type AwsProfile } from './aws-profile.ts';
import { createEmulatedLake, type EmulatedLake } from './emulated-lake.ts';
import { StreamMappingStandIn } from './stream-mapping.ts';
import { createEmulatedTableWithStream } from './tables.ts';

let lake: EmulatedLake;
let aws: AwsProfile;
let mapping: StreamMappingStandIn;

beforeAll(async () => {
  lake = await createEmulatedLake(inject('aws'));
  // An Events table of this suite's own, so its stream holds only this suite's writes.
  const eventsTable = `lakeline-events-${randomUUID().slice(0, 8)}`;
  await createEmulatedTableWithStream(inject('aws'), EVENTS_TABLE, eventsTable);
  aws = await useAwsProfile(inject('aws'), lake, { [EVENTS_TABLE.envName]: eventsTable });
  const { handler } = await import('#handlers/lineage-model-consumer');
  mapping = await StreamMappingStandIn.open(inject('aws'), eventsTable, handler);
}, 60_000);

afterAll(async () => {
  await lake.close();
});

/** Posts events one by one through the ingestion handler (each answered 200). */
const post = async (caller: AwsOrgCaller, events: readonly unknown[]): Promise<void> => {
  for (const event of events) {
    const answer = await caller.call('PostLineage', { body: event });
    expect(answer.statusCode, JSON.stringify(answer.body)).toBe(200);
  }
};

lineageGraphCases({
  name: "the AWS profile's handlers on the emulated DynamoDB, fed by the Events table's stream",
  newOrg: async (): Promise<GraphOrg> => {
    const caller = await aws.newOrg();
    return {
      orgId: caller.orgId,
      // Lambda polls the stream on its own; here the mapping delivers what the posts wrote before the sender reads.
      send: async (events) => {
        await post(caller, events);
        const deliveries = await mapping.drain();
        expect(deliveries.flatMap((d) => d.failed)).toEqual([]);
        return Date.now();
      },
      graph: awsGraphApi(caller),
    };
  },
});

describe("the lineage stream's failure handling", () => {
  it('Should apply the other orgs of a batch holding an unreadable record, report only that org\'s records, and apply it on the retry once it is readable', async () => {
    // Prepare: org B's event is large enough for the blob bucket (random text gzip cannot shrink), and its blob goes missing.
    const [orgA, orgB] = [await aws.newOrg(), await aws.newOrg()];
    const big = { _producer: 'https://example.com', _schemaURL: 'https://example.com/f.json', blob: randomBytes(600 * 1024).toString('base64') };
    const poisonRun = randomUUID();
    await post(orgB, [runEventJson({ eventType: 'COMPLETE', time: '2030-06-01T00:00:00Z', runId: poisonRun, job: { namespace: 'etl', name: 'big_job' }, runFacets: { big } })]);
    const [blobKey] = await lake.keys(`events/${orgB.orgId}/`);
    expect(blobKey, 'the large event has a blob').toBeDefined();
    const blob = await (await lake.s3.send(new GetObjectCommand({ Bucket: lake.bucket, Key: blobKey }))).Body?.transformToByteArray();
    await lake.s3.send(new DeleteObjectCommand({ Bucket: lake.bucket, Key: blobKey }));
    await post(orgA, APPLES.map((name) => JSON.parse(readFileSync(path.join(EXAMPLES_DIR, name), 'utf8')) as unknown));
    const graphA = awsGraphApi(orgA);
    const graphB = awsGraphApi(orgB);

    // Act: the first delivery.
    const first = await mapping.drain();

    // Assess: A's events are in the model; B's one record is reported; nothing else.
    expect(first).toHaveLength(1);
    expect(first[0]?.failed).toHaveLength(1);
    const poisonSequence = first[0]?.failed[0] as string;
    const delivered = first[0]?.sequenceNumbers ?? [];
    // The batch held A's events and both orgs' name-directory inserts besides.
    expect(delivered.length).toBeGreaterThan(APPLES.length + 1);
    expect(shape((await graphA.lineage({ nodeId: 'job:grandmas.kitchen:prepare_apple_filling' })).body)).toEqual(APPLES_CURRENT);
    expect((await graphB.get('GetLineageRun', { runId: poisonRun })).status).toBe(404);

    // Act: the retry, the body still missing.
    const retried = await mapping.drain();

    // Assess: redelivered from the reported record on (A's later events again, harmlessly), reported again.
    expect(retried).toHaveLength(1);
    expect(retried[0]?.sequenceNumbers).toEqual(delivered.slice(delivered.indexOf(poisonSequence)));
    expect(retried[0]?.failed).toEqual([poisonSequence]);
    expect(shape((await graphA.lineage({ nodeId: 'job:grandmas.kitchen:prepare_apple_filling' })).body)).toEqual(APPLES_CURRENT);

    // Act: the body is readable again; the next retry.
    await lake.s3.send(new PutObjectCommand({ Bucket: lake.bucket, Key: blobKey, Body: blob }));
    const recovered = await mapping.drain();

    // Assess
    expect(recovered.flatMap((d) => d.failed)).toEqual([]);
    expect(recovered[0]?.sequenceNumbers[0]).toBe(poisonSequence);
    const run = await graphB.get<{ id: string; state: string }>('GetLineageRun', { runId: poisonRun });
    expect([run.status, run.body.id, run.body.state]).toEqual([200, poisonRun, 'COMPLETED']);
  }, 60_000);
});
