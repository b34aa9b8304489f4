/**
 * @module lineage-graph.test
 * Assertions on the lineage read model's part of the synthesized `Lakeline` template: the Events
 * table's stream, the consumer function as the event feed's first subscriber (its FIFO queue with
 * partial batch responses and its own dead-letter queue; the stream side is in event-feed.test.ts),
 * its grants (the Lineage table read/write, the blob bucket read, the Events table read — no write
 * on Events), and the Lineage table itself with its search index.
 */
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { BLOB_BUCKET_ENV } from '#composition/env-names';
import { EVENTS_TABLE, LINEAGE_TABLE } from '#shared/table-definitions';
import type { LakelineStack } from '../../lib/lakeline-stack.ts';
import { grantsOfRole } from './iam-statements.ts';
import { logicalIdOf, propertiesOf, synthLakeline } from './synth.ts';

type Json = Record<string, unknown>;

let stack: LakelineStack;
let template: Template;

beforeAll(() => {
  ({ stack, template } = synthLakeline('lineage-graph'));
});

describe('the lineage read model in the stack', () => {
  it('Should stream new images of the Events table and keep the Lineage table with its search index', () => {
    const events = propertiesOf(template, logicalIdOf(stack.data.table(EVENTS_TABLE)));
    expect(events.StreamSpecification).toEqual({ StreamViewType: 'NEW_IMAGE' });
    const lineage = propertiesOf(template, logicalIdOf(stack.data.table(LINEAGE_TABLE)));
    expect(lineage.KeySchema).toEqual([
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
    expect((lineage.GlobalSecondaryIndexes as Json[]).map((i) => i.IndexName)).toEqual(['search']);
    expect(lineage.StreamSpecification).toBeUndefined();
  });

  it('Should feed the consumer from its own FIFO queue with partial failures and its own dead-letter queue', () => {
    const consumer = logicalIdOf(stack.lineageGraph.consumer);
    const queue = logicalIdOf(stack.eventFeed.subscription('lineage-model').queue);
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: consumer },
      EventSourceArn: { 'Fn::GetAtt': [queue, 'Arn'] },
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(logicalIdOf(stack.lineageGraph.failureQueue)).toBe(logicalIdOf(stack.eventFeed.subscription('lineage-model').deadLetterQueue));
    const queueProps = propertiesOf(template, queue);
    expect(queueProps.FifoQueue).toBe(true);
    expect(queueProps.VisibilityTimeout).toBe(720);
    expect(queueProps.RedrivePolicy).toEqual({ deadLetterTargetArn: { 'Fn::GetAtt': [logicalIdOf(stack.lineageGraph.failureQueue), 'Arn'] }, maxReceiveCount: 5 });
    template.hasResourceProperties('AWS::Lambda::Function', {
      Handler: 'index.handler',
      Environment: { Variables: Match.objectLike({ [LINEAGE_TABLE.envName]: Match.anyValue(), [BLOB_BUCKET_ENV]: Match.anyValue(), [EVENTS_TABLE.envName]: Match.anyValue() }) },
    });
  });

  it('Should grant the consumer the Lineage table, the blob bucket read, the Events table read and its queue, and no write on Events', () => {
    const grants = grantsOfRole(template, logicalIdOf(stack.lineageGraph.consumer.executionRole));
    const actions = new Set(grants.map((g) => g.action));
    for (const action of ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:BatchWriteItem', 'dynamodb:Query', 'dynamodb:BatchGetItem']) expect(actions).toContain(action);
    for (const action of ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 's3:GetObject']) expect(actions).toContain(action);
    expect(actions).not.toContain('s3:PutObject');
    const events = logicalIdOf(stack.data.table(EVENTS_TABLE));
    const onEvents = grants.filter((g) => g.resource.startsWith(events)).map((g) => g.action);
    expect(onEvents).toContain('dynamodb:BatchGetItem');
    for (const write of ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem']) expect(onEvents).not.toContain(write);
    const lineage = logicalIdOf(stack.data.table(LINEAGE_TABLE));
    expect(grants.filter((g) => g.resource === lineage).map((g) => g.action)).toContain('dynamodb:PutItem');
  });
});
