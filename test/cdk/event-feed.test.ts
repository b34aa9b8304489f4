/**
 * @module event-feed.test
 * Assertions on the event feed in AWS (ADR 0045): the Events stream has one reader, the fan-out
 * (batching, partial batch responses, bisection, bounded retries, a failure queue, inserts only),
 * granted the stream, the subscribers' queues (send only) and the Lineage table (the head), and
 * told each queue's URL; each subscriber gets a FIFO queue and a dead-letter queue of its own. A
 * second subscriber is a few lines and adds a queue, not a stream reader.
 */
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { feedQueueEnv } from '#composition/env-names';
import { EVENTS_TABLE, LINEAGE_TABLE } from '#shared/table-definitions';
import { LakelineData } from '../../lib/data.ts';
import { LakelineEventFeed } from '../../lib/event-feed.ts';
import type { LakelineStack } from '../../lib/lakeline-stack.ts';
import { ServiceFunction } from '../../lib/service-function.ts';
import { grantsOfRole } from './iam-statements.ts';
import { logicalIdOf, propertiesOf, synthLakeline } from './synth.ts';

type Json = Record<string, unknown>;

let stack: LakelineStack;
let template: Template;

beforeAll(() => {
  ({ stack, template } = synthLakeline('event-feed'));
});

const streamMappings = (t: Template): Json[] =>
  Object.values(t.findResources('AWS::Lambda::EventSourceMapping')).map((r) => (r as { Properties: Json }).Properties).filter((p) => JSON.stringify(p.EventSourceArn).includes('StreamArn'));

describe('the event feed in the stack', () => {
  it('Should read the Events stream with the fan-out alone, in small batches with partial failures, bisection, bounded retries and a failure queue, inserts only', () => {
    const mappings = streamMappings(template);
    expect(mappings).toHaveLength(1);
    expect(mappings[0]).toEqual({
      FunctionName: { Ref: logicalIdOf(stack.eventFeed.fanOut) },
      EventSourceArn: { 'Fn::GetAtt': [logicalIdOf(stack.data.table(EVENTS_TABLE)), 'StreamArn'] },
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: 100,
      MaximumBatchingWindowInSeconds: 1,
      ParallelizationFactor: 2,
      MaximumRetryAttempts: 8,
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      MaximumRecordAgeInSeconds: 86_400,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [logicalIdOf(stack.eventFeed.failureQueue), 'Arn'] } } },
      FilterCriteria: { Filters: [{ Pattern: JSON.stringify({ eventName: ['INSERT'] }) }] },
    });
  });

  it("Should tell the fan-out each subscriber's queue and grant it the stream, sending to the queues and the Lineage table only", () => {
    const fanOut = propertiesOf(template, logicalIdOf(stack.eventFeed.fanOut));
    const variables = (fanOut.Environment as { Variables: Json }).Variables;
    expect(variables[feedQueueEnv('lineage-model')]).toEqual({ Ref: logicalIdOf(stack.eventFeed.subscription('lineage-model').queue) });
    expect(variables[LINEAGE_TABLE.envName]).toBeDefined();
    const grants = grantsOfRole(template, logicalIdOf(stack.eventFeed.fanOut.executionRole));
    const actions = new Set(grants.map((g) => g.action));
    for (const action of ['dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'sqs:SendMessage', 'dynamodb:UpdateItem']) expect(actions).toContain(action);
    for (const action of ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 's3:GetObject']) expect(actions).not.toContain(action);
    const events = logicalIdOf(stack.data.table(EVENTS_TABLE));
    expect(grants.filter((g) => g.resource.startsWith(events) && !g.resource.startsWith(`${events}.StreamArn`))).toEqual([]);
  });
});

describe('a second subscriber', () => {
  it('Should get a FIFO queue and dead-letter queue of its own and no second stream reader', () => {
    const stack2 = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Feed');
    const data = new LakelineData(stack2, 'Data');
    const feed = new LakelineEventFeed(stack2, 'Feed', { data });
    const model = new ServiceFunction(stack2, 'Model', { handlerModule: 'lineage-model-consumer' });
    const alerts = new ServiceFunction(stack2, 'Alerts', { handlerModule: 'lineage-model-consumer' });
    feed.addSubscriber('lineage-model', model);
    feed.addSubscriber('alerts', alerts, { maxReceiveCount: 3 });
    expect(() => feed.addSubscriber('alerts', alerts)).toThrow(/exists already/);

    const t = Template.fromStack(stack2);
    expect(streamMappings(t)).toHaveLength(1);
    t.resourceCountIs('AWS::SQS::Queue', 5);
    expect(Object.values(t.findResources('AWS::SQS::Queue')).filter((q) => (q as { Properties: Json }).Properties.FifoQueue === true)).toHaveLength(4);
    const alertsQueue = logicalIdOf(feed.subscription('alerts').queue);
    t.hasResourceProperties('AWS::Lambda::EventSourceMapping', { FunctionName: { Ref: logicalIdOf(alerts) }, EventSourceArn: { 'Fn::GetAtt': [alertsQueue, 'Arn'] }, FunctionResponseTypes: ['ReportBatchItemFailures'] });
    expect((propertiesOf(t, alertsQueue).RedrivePolicy as Json).maxReceiveCount).toBe(3);
    const variables = (propertiesOf(t, logicalIdOf(feed.fanOut)).Environment as { Variables: Json }).Variables;
    expect(Object.keys(variables)).toEqual(expect.arrayContaining([feedQueueEnv('lineage-model'), feedQueueEnv('alerts')]));
  });
});
