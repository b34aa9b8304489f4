/**
 * @module lineage-tables.test
 * The lineage lake tables' export in the synthesized `Lakeline` template (ADR 0056): its consumer
 * reads its own FIFO feed queue with partial batch responses and a dead-letter queue, is told the
 * lake writer's name and may invoke it (and nothing lake-wide besides), and keeps its marks in the
 * Lineage table.
 */
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { LAKE_WRITER_FUNCTION_ENV } from '#composition/env-names';
import { LINEAGE_TABLE } from '#shared/table-definitions';
import type { LakelineStack } from '../../lib/lakeline-stack.ts';
import { grantsOfRole } from './iam-statements.ts';
import { logicalIdOf, synthLakeline } from './synth.ts';

let stack: LakelineStack;
let template: Template;

beforeAll(() => {
  ({ stack, template } = synthLakeline('lineage-tables'));
});

describe('the lineage tables export in the stack', () => {
  it('Should feed the consumer from its own FIFO queue with partial failures and its own dead-letter queue', () => {
    const consumer = logicalIdOf(stack.lineageTables.consumer);
    const subscription = stack.eventFeed.subscription('lineage-tables');
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: consumer },
      EventSourceArn: { 'Fn::GetAtt': [logicalIdOf(subscription.queue), 'Arn'] },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(logicalIdOf(stack.lineageTables.failureQueue)).toBe(logicalIdOf(subscription.deadLetterQueue));
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: "lakeline: exports new lineage events to each org's lineage lake tables",
      Environment: { Variables: Match.objectLike({ [LAKE_WRITER_FUNCTION_ENV]: { Ref: logicalIdOf(stack.lake.lakeWriter) } }) },
    });
  });

  it('Should let the consumer invoke the lake writer and write its marks, and nothing in S3', () => {
    const grants = grantsOfRole(template, logicalIdOf(stack.lineageTables.consumer.executionRole));
    const actions = new Set(grants.map((g) => g.action));
    expect(grants.filter((g) => g.action === 'lambda:InvokeFunction').map((g) => g.resource)).toEqual([expect.stringContaining(logicalIdOf(stack.lake.lakeWriter))]);
    expect(grants.filter((g) => g.resource === logicalIdOf(stack.data.table(LINEAGE_TABLE))).map((g) => g.action)).toContain('dynamodb:PutItem');
    expect(actions).not.toContain('s3:PutObject');
    expect(actions).not.toContain('glue:UpdateTable');
  });
});
