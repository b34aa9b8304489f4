/**
 * The event feed in the AWS profile, against the emulated account (ADR 0045): events posted to the
 * ingestion handler land in an Events table with the NEW_IMAGE stream; the stream's own records,
 * read through the emulator's Streams API (stream-mapping.ts), go to the fan-out, which puts each
 * org's share on two subscribers' FIFO queues in the emulator's SQS; each queue is delivered to its
 * subscriber's Lambda handler (sqs-mapping.ts): the lineage model's real consumer, and a second
 * subscriber whose batches of one org are poisoned. The poisoned org's messages are reported and
 * stay on that subscriber's queue only; the model has every event; the health route answers each
 * subscriber's lag; once the second subscriber recovers, its retry delivers the org.
 */
import { randomUUID } from 'node:crypto';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { fanOut } from '#adapters/aws/feed-fanout';
import { subscriberLambda } from '#adapters/aws/feed-subscriber-lambda';
import { createDocumentClient } from '#adapters/dynamodb/clients';
import { DynamoFeedWatermarks, feedMarkKeys } from '#adapters/dynamodb/lineage-feed-watermarks';
import { feedQueueEnv, LAKE_WRITER_FUNCTION_ENV } from '#composition/env-names';
import { replayFeed } from '#domain/feed/replay';
import { EVENTS_TABLE, LINEAGE_TABLE } from '#shared/table-definitions';
import { localTableName } from '#composition/config';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { RecordingSubscriber } from '../helpers/memory-feed.ts';
import { runEventJson } from '../unit/domain/lineage-graph/events.ts';
import { awsGraphApi } from './aws-graph-api.ts';
import { useAwsProfile, type AwsOrgCaller, type AwsProfile } from './aws-profile.ts';
import { awsClientConfig } from './emulator.ts';
import { createEmulatedLake, type EmulatedLake } from './emulated-lake.ts';
import { drainQueue } from './sqs-mapping.ts';
import { StreamMappingStandIn } from './stream-mapping.ts';
import { createEmulatedTableWithStream } from './tables.ts';

let lake: EmulatedLake;
let aws: AwsProfile;
let mapping: StreamMappingStandIn;
let sqs: SQSClient;
let dynamo: DynamoDBClient;
const queues: Record<string, { url: string; arn: string }> = {};
const alerts = new RecordingSubscriber('alerts');

const fifoQueue = async (name: string) => {
  const created = await sqs.send(new CreateQueueCommand({ QueueName: `${name}-${randomUUID().slice(0, 8)}.fifo`, Attributes: { FifoQueue: 'true' } }));
  const attributes = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: created.QueueUrl, AttributeNames: ['QueueArn'] }));
  return { url: created.QueueUrl as string, arn: attributes.Attributes?.QueueArn as string };
};

beforeAll(async () => {
  lake = await createEmulatedLake(inject('aws'));
  sqs = new SQSClient(awsClientConfig(inject('aws')));
  dynamo = new DynamoDBClient(awsClientConfig(inject('aws')));
  queues['lineage-model'] = await fifoQueue('lineage-model');
  queues.alerts = await fifoQueue('alerts');
  const eventsTable = `lakeline-events-${randomUUID().slice(0, 8)}`;
  await createEmulatedTableWithStream(inject('aws'), EVENTS_TABLE, eventsTable);
  // No lake writer bound: the lineage tables' subscriber (ADR 0056; aws/lineage-tables-aws.test.ts) is then not listed, so the model is the one deployed subscriber here.
  aws = await useAwsProfile(inject('aws'), lake, { [EVENTS_TABLE.envName]: eventsTable, [feedQueueEnv('lineage-model')]: queues['lineage-model'].url, [LAKE_WRITER_FUNCTION_ENV]: '' });
  // The stream's one reader: the fan-out to both subscribers' queues (the deployed handler sends to the listed subscribers' queues only, here the model's).
  const doc = createDocumentClient(dynamo);
  const head = new DynamoFeedWatermarks(doc, localTableName(LINEAGE_TABLE), feedMarkKeys.head);
  const urls = Object.fromEntries(Object.entries(queues).map(([name, q]) => [name, q.url]));
  mapping = await StreamMappingStandIn.open(inject('aws'), eventsTable, async (event) => {
    const outcomes = await fanOut({ sqs, queues: urls, head }, event.Records);
    return { batchItemFailures: outcomes.flatMap((o) => (o.error === undefined ? [] : o.sequenceNumbers.map((itemIdentifier) => ({ itemIdentifier })))) };
  });
}, 60_000);

afterAll(async () => {
  sqs?.destroy();
  dynamo?.destroy();
  await lake?.close();
});

const post = async (caller: AwsOrgCaller, events: readonly unknown[]): Promise<void> => {
  for (const event of events) expect((await caller.call('PostLineage', { body: event })).statusCode).toBe(200);
};

describe('the event feed fan-out on the emulated account', () => {
  it("Should keep one subscriber's poisoned org from stopping the other subscriber or its other orgs, answer each one's lag, and deliver the org once it recovers", async () => {
    // Prepare
    const { handler: modelHandler } = await import('#handlers/lineage-model-consumer');
    const { feed, lineageGraph } = await import('#composition/index');
    const alertsHandler = subscriberLambda(() => ({
      subscriber: alerts,
      applied: feed().directory.applied('alerts'),
      byKeys: feed().byKeys,
      blobs: () => lineageGraph().blobs,
      log: { info: () => undefined, error: () => undefined },
    }));
    const [orgA, orgB] = [await aws.newOrg(), await aws.newOrg()];
    alerts.failFor.add(orgB.orgId);
    const [runA, runB] = [randomUUID(), randomUUID()];
    await post(orgA, [runEventJson({ eventType: 'COMPLETE', time: '2030-06-01T00:00:00Z', runId: runA, job: { namespace: 'etl', name: 'a_job' } })]);
    await post(orgB, [
      runEventJson({ eventType: 'START', time: '2030-06-01T00:00:00Z', runId: runB, job: { namespace: 'etl', name: 'b_job' } }),
      runEventJson({ eventType: 'COMPLETE', time: '2030-06-01T00:01:00Z', runId: runB, job: { namespace: 'etl', name: 'b_job' } }),
    ]);

    // Act: the stream to the queues, each queue to its subscriber.
    const fanned = await mapping.drain();
    const model = await drainQueue(sqs, queues['lineage-model']?.url as string, queues['lineage-model']?.arn as string, modelHandler as (e: SQSEvent) => Promise<SQSBatchResponse>);
    const second = await drainQueue(sqs, queues.alerts?.url as string, queues.alerts?.arn as string, alertsHandler as (e: SQSEvent) => Promise<SQSBatchResponse>);

    // Assess: the model has both orgs; the second subscriber has A, reports B's message and only it.
    expect(fanned.flatMap((d) => d.failed)).toEqual([]);
    expect(model.flatMap((d) => d.failed)).toEqual([]);
    for (const [caller, runId] of [[orgA, runA], [orgB, runB]] as const) {
      const run = await awsGraphApi(caller).get<{ id: string; state: string }>('GetLineageRun', { runId });
      expect([run.status, run.body.state]).toEqual([200, 'COMPLETED']);
    }
    expect(alerts.ids(orgA.orgId)).toHaveLength(1);
    expect(alerts.ids(orgB.orgId)).toEqual([]);
    expect(second.flatMap((d) => d.failed)).toHaveLength(1);

    // Assess: the health answer per org (the model caught up in both; alerts, now one of the deployment's subscribers, applied none of B's).
    const health = await orgB.call('GetHealth');
    expect(health.statusCode).toBe(200);
    expect(health.body).toMatchObject({ status: 'lagging', feed: { subscribers: [{ subscriber: 'lineage-model', lagMs: 0 }, { subscriber: 'alerts', appliedUpTo: null, lagMs: null }] } });
    expect((await feed().directory.applied('alerts').read(orgB.orgId)) ?? null).toBeNull();

    // Act: the second subscriber recovers; its queue still holds B's message.
    alerts.failFor.delete(orgB.orgId);
    const retried = await drainQueue(sqs, queues.alerts?.url as string, queues.alerts?.arn as string, alertsHandler as (e: SQSEvent) => Promise<SQSBatchResponse>);

    // Assess
    expect(retried.flatMap((d) => d.failed)).toEqual([]);
    expect(alerts.ids(orgB.orgId)).toHaveLength(2);
    expect(await feed().directory.applied('alerts').read(orgB.orgId)).toBeDefined();
  }, 90_000);

  it('Should replay to one subscriber the events received since a time, read shard by shard (no receipt index in AWS)', async () => {
    // Prepare: two events received about 50 ms apart.
    const { feed } = await import('#composition/index');
    const org = await aws.newOrg();
    const [first, second] = [randomUUID(), randomUUID()];
    await post(org, [runEventJson({ eventType: 'COMPLETE', time: '2030-06-01T00:00:00Z', runId: first, job: { namespace: 'etl', name: 'first' } })]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const between = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await post(org, [runEventJson({ eventType: 'COMPLETE', time: '2030-06-01T00:00:00Z', runId: second, job: { namespace: 'etl', name: 'second' } })]);
    await mapping.drain();
    const replayed = new RecordingSubscriber('replayed');
    // Act
    const all = await replayFeed(feed().directory, replayed, org.orgId, 0);
    const since = await replayFeed(feed().directory, replayed, org.orgId, between);
    // Assess
    expect([all.events, since.events]).toEqual([2, 1]);
    // Across shards the first replay's two batches come in shard order, not receipt order.
    const ids = replayed.ids(org.orgId);
    expect(new Set(ids.slice(0, 2)).size).toBe(2);
    expect(ids.slice(0, 2)).toContain(ids[2]);
    expect(await feed().directory.applied('replayed').read(org.orgId)).toBeDefined();
  }, 60_000);
});
