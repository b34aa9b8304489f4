/**
 * @module bloom.test
 * Assertions on `LakelineBloom` in a stack of its own (the lake bucket and one function that runs
 * bloom): the Athena workgroup (engine version 3, enforced configuration, results in the warehouse
 * bucket encrypted, the bytes-scanned cutoff from props), the function's least-privilege grants
 * (this workgroup only; org Glue databases read, results databases written; table files read,
 * results files written; nothing else), its environment, and a clean cdk-nag run.
 */
import { App, type CfnElement, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { BLOOM_WORKGROUP_ENV } from '#composition/env-names';
import { WAREHOUSE_URI_ENV } from '#composition/env-names';
import { LakelineBloom, MIN_BYTES_SCANNED_CUTOFF } from '../../lib/bloom.ts';
import { acknowledge } from '../../lib/nag.ts';
import { LakelineWarehouse } from '../../lib/warehouse.ts';
import { TestFunction } from './test-function.ts';
import { grantsOfRole, type Grant } from './iam-statements.ts';

const GLUE = 'arn:AWS::Partition:glue:eu-west-1:123456789012:';


const build = (cutoff?: number) => {
  const app = new App();
  const stack = new Stack(app, 'BloomTest', { env: { account: '123456789012', region: 'eu-west-1' } });
  const logs = new s3.Bucket(stack, 'Logs', { enforceSSL: true, blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL, encryption: s3.BucketEncryption.S3_MANAGED });
  acknowledge(logs, 'AwsSolutions-S1', 'This bucket is the access-log bucket itself in this test stack.');
  const warehouse = new LakelineWarehouse(stack, 'Warehouse', { accessLogBucket: logs });
  const fn = new TestFunction(stack, 'Query');
  const bloom = new LakelineBloom(stack, 'Bloom', { warehouse, functions: [fn], ...(cutoff !== undefined ? { bytesScannedCutoffPerQuery: cutoff } : {}) });
  return { stack, warehouse, fn, bloom, template: Template.fromStack(stack) };
};

const logicalIdOf = (stack: Stack, construct: { node: { defaultChild?: unknown } }): string => stack.resolve(((construct.node.defaultChild ?? construct) as CfnElement).logicalId) as string;

describe('the Athena workgroup', () => {
  it('Should run engine version 3 with enforced, encrypted results in the warehouse bucket and the cutoff from props', () => {
    // Arrange + Act
    const { template, stack, warehouse } = build(50 * 1024 ** 3);

    // Assess
    template.resourceCountIs('AWS::Athena::WorkGroup', 1);
    template.hasResourceProperties('AWS::Athena::WorkGroup', {
      Name: 'lakeline-bloom',
      State: 'ENABLED',
      WorkGroupConfiguration: {
        EngineVersion: { SelectedEngineVersion: 'Athena engine version 3' },
        EnforceWorkGroupConfiguration: true,
        BytesScannedCutoffPerQuery: 50 * 1024 ** 3,
        ResultConfiguration: {
          OutputLocation: Match.anyValue(),
          EncryptionConfiguration: { EncryptionOption: 'SSE_S3' },
          ExpectedBucketOwner: '123456789012',
        },
      },
    });
    const output = JSON.stringify((template.toJSON() as { Resources: Record<string, { Type: string; Properties: { WorkGroupConfiguration: { ResultConfiguration: { OutputLocation: unknown } } } }> }).Resources);
    expect(output).toContain(logicalIdOf(stack, warehouse.bucket));
    expect(output).toContain('/athena-results/');
  });

  it('Should refuse a cutoff below Athena\'s minimum', () => {
    // Act + Assess
    expect(() => build(MIN_BYTES_SCANNED_CUTOFF - 1)).toThrow(/at least 10000000/);
  });
});

describe('the bloom function grants', () => {
  it('Should allow Athena on this workgroup only, org Glue reads, results writes, and nothing else', () => {
    // Arrange
    const { template, stack, warehouse, fn } = build();
    const bucket = logicalIdOf(stack, warehouse.bucket);

    // Act
    const grants = grantsOfRole(template, logicalIdOf(stack, fn.executionRole));

    // Assess
    const workgroup = 'arn:AWS::Partition:athena:eu-west-1:123456789012:workgroup/lakeline-bloom';
    const allowed = (g: Grant): boolean =>
      (g.action.startsWith('athena:') && g.resource === workgroup) ||
      (['glue:GetDatabase', 'glue:GetDatabases', 'glue:GetTable', 'glue:GetTables'].includes(g.action) && [`${GLUE}catalog`, `${GLUE}database/org_*`, `${GLUE}table/org_*/*`].includes(g.resource)) ||
      (['glue:CreateDatabase', 'glue:CreateTable', 'glue:UpdateTable'].includes(g.action) && [`${GLUE}catalog`, `${GLUE}database/org_*__lakeline_results`, `${GLUE}table/org_*__lakeline_results/*`].includes(g.resource)) ||
      (g.action === 's3:GetObject' && [`${bucket}/warehouse/*`, `${bucket}/athena-results/*`].includes(g.resource)) ||
      (['s3:PutObject', 's3:AbortMultipartUpload'].includes(g.action) && [`${bucket}/warehouse/org_*/lakeline_results/*`, `${bucket}/athena-results/*`].includes(g.resource)) ||
      (['s3:ListBucket', 's3:GetBucketLocation'].includes(g.action) && g.resource === bucket);
    const own = grants.filter((g) => !g.action.startsWith('logs:'));
    expect(own.filter((g) => !allowed(g))).toEqual([]);
    for (const action of ['athena:StartQueryExecution', 'athena:GetQueryExecution', 'athena:GetQueryResults', 'athena:StopQueryExecution']) expect(own.some((g) => g.action === action && g.resource === workgroup), action).toBe(true);
    expect(own.some((g) => g.action === 's3:PutObject' && g.resource === `${bucket}/warehouse/*`)).toBe(false);
    expect(own.some((g) => g.action === 'glue:CreateTable' && g.resource === `${GLUE}database/org_*`)).toBe(false);
  });

  it('Should tell the function its workgroup and warehouse', () => {
    // Arrange + Act
    const { template } = build();

    // Assess
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: { [BLOOM_WORKGROUP_ENV]: 'lakeline-bloom', [WAREHOUSE_URI_ENV]: Match.anyValue() } },
    });
  });

  it('Should leave no AwsSolutions finding of the bloom construct and its function unacknowledged', () => {
    // Arrange
    const { stack } = build();

    // Act
    const report = new AwsSolutionsChecks(undefined, { verbose: true }).validateScope(stack);

    // Assess
    const ours = report.violations.filter((v) => v.violatingResources.some((r) => /\/(Bloom|Query|QueryRole)(\/|$)/.test(r.constructPath ?? '')));
    expect(ours.map((v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`)).toEqual([]);
  });
});
