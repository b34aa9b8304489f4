/**
 * @module lineage-graph.test
 * Assertions on the lineage read model's part of the synthesized `Lakeline` template: the Events
 * table's stream, the consumer function and its event source mapping (batching, partial batch
 * responses, bisection, bounded retries, the failure queue, inserts only), its grants (the Lineage
 * table read/write, the blob bucket read, the Events stream read — nothing else on Events), and the
 * Lineage table itself with its search index.
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

  it('Should feed the consumer in small batches with partial failures, bisection, bounded retries and a failure queue, inserts only', () => {
    const consumer = logicalIdOf(stack.lineageGraph.consumer);
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: consumer },
      EventSourceArn: { 'Fn::GetAtt': [logicalIdOf(stack.data.table(EVENTS_TABLE)), 'StreamArn'] },
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: 100,
      MaximumBatchingWindowInSeconds: 1,
      ParallelizationFactor: 2,
      MaximumRetryAttempts: 8,
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      MaximumRecordAgeInSeconds: 86_400,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [logicalIdOf(stack.lineageGraph.failureQueue), 'Arn'] } } },
      FilterCriteria: { Filters: [{ Pattern: JSON.stringify({ eventName: ['INSERT'] }) }] },
    });
    template.hasResourceProperties('AWS::SQS::Queue', { SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 86_400 });
    template.hasResourceProperties('AWS::Lambda::Function', {
      Handler: 'index.handler',
      Environment: { Variables: Match.objectLike({ [LINEAGE_TABLE.envName]: Match.anyValue(), [BLOB_BUCKET_ENV]: Match.anyValue() }) },
    });
  });

  it('Should grant the consumer the Lineage table, the blob bucket read, the stream read, and no write on Events', () => {
    const grants = grantsOfRole(template, logicalIdOf(stack.lineageGraph.consumer.executionRole));
    const actions = new Set(grants.map((g) => g.action));
    for (const action of ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:BatchWriteItem', 'dynamodb:Query', 'dynamodb:BatchGetItem']) expect(actions).toContain(action);
    for (const action of ['dynamodb:GetRecords', 'dynamodb:GetShardIterator', 's3:GetObject', 'sqs:SendMessage']) expect(actions).toContain(action);
    expect(actions).not.toContain('s3:PutObject');
    const events = logicalIdOf(stack.data.table(EVENTS_TABLE));
    expect(grants.filter((g) => g.resource === `${events}.StreamArn`).map((g) => g.action)).toContain('dynamodb:GetRecords');
    expect(grants.filter((g) => g.resource.startsWith(events) && !g.resource.startsWith(`${events}.StreamArn`))).toEqual([]);
    const lineage = logicalIdOf(stack.data.table(LINEAGE_TABLE));
    expect(grants.filter((g) => g.resource === lineage).map((g) => g.action)).toContain('dynamodb:PutItem');
  });
});
