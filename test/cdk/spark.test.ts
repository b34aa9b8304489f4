/**
 * @module spark.test
 * Assertions on the managed Spark part of the synthesized `Lakeline` template: the EMR Serverless
 * application, its execution role (the lake's bucket and org Glue databases, nothing else), the
 * job script and package assets, the state-change rule and its function, the warehouse bucket,
 * the Spark access of the routes marked `spark`, and a clean cdk-nag run. Bundling is off: these
 * assertions are about the template, not the function code.
 */
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  EMR_APPLICATION_ID_ENV,
  EMR_EXECUTION_ROLE_ARN_ENV,
  EMR_RELEASE_LABEL_ENV,
  SPARK_JOB_PACKAGE_URI_ENV,
  SPARK_JOB_SCRIPT_URI_ENV,
  SPARK_RUNS_URI_ENV,
  WAREHOUSE_URI_ENV,
} from '#composition/env-names';
import { ROUTES } from '#shared/routes';
import { EVENTS_TABLE, ORGS_TABLE, RUNS_TABLE } from '#shared/table-definitions';
import { LakelineStack } from '../../lib/lakeline-stack.ts';
import { LakelineSpark } from '../../lib/spark.ts';
import { logicalIdOf, propertiesOf, synthLakeline } from './synth.ts';
import { grantsOfRole, type Grant } from './iam-statements.ts';

type Json = Record<string, unknown>;

/** Glue ARNs as the grant helper names them (the partition is a pseudo-parameter). */
const GLUE = 'arn:AWS::Partition:glue:eu-west-1:123456789012:';

let stack: LakelineStack;
let template: Template;

const props = (logicalId: string): Json => propertiesOf(template, logicalId);
const fnOf = (routeId: string) => {
  const fn = stack.api.functions.get(routeId);
  if (!fn) throw new Error(`no function ${routeId}`);
  return fn;
};
const grantsOf = (role: IConstruct): Grant[] => grantsOfRole(template, logicalIdOf(role));
const has = (grants: readonly Grant[], action: string, resource: string): boolean => grants.some((g) => g.action === action && g.resource === resource);

beforeAll(() => {
  ({ stack, template } = synthLakeline('spark'));
});

describe('the EMR Serverless application', () => {
  it('Should be one Spark application on a current EMR 7 release, ARM64, auto-starting and auto-stopping, jobs only', () => {
    template.resourceCountIs('AWS::EMRServerless::Application', 1);
    template.hasResourceProperties('AWS::EMRServerless::Application', {
      Type: 'Spark',
      ReleaseLabel: Match.stringLikeRegexp('^emr-7\\.\\d+\\.\\d+$'),
      Architecture: 'ARM64',
      AutoStartConfiguration: { Enabled: true },
      AutoStopConfiguration: { Enabled: true, IdleTimeoutMinutes: 15 },
      InteractiveConfiguration: { StudioEnabled: false, LivyEndpointEnabled: false },
      MaximumCapacity: { Cpu: '400 vCPU', Memory: '3000 GB', Disk: '20000 GB' },
    });
  });

  it('Should keep no pre-initialized workers unless asked', () => {
    expect(props(logicalIdOf(stack.spark.application)).InitialCapacity).toBeUndefined();
  });

  it('Should keep the asked pre-initialized driver and executor workers of the default machine type (spark.1.b), and still auto-stop', () => {
    const { stack: warm, template: warmTemplate } = synthLakeline('spark-warm', { spark: { preInitializedCapacity: { drivers: 2, executors: 1 } } });
    const application = propertiesOf(warmTemplate, logicalIdOf(warm.spark.application));
    expect(application.InitialCapacity).toEqual([
      { Key: 'DRIVER', Value: { WorkerCount: 2, WorkerConfiguration: { Cpu: '1 vCPU', Memory: '4 GB' } } },
      { Key: 'EXECUTOR', Value: { WorkerCount: 1, WorkerConfiguration: { Cpu: '1 vCPU', Memory: '4 GB' } } },
    ]);
    expect(application.AutoStopConfiguration).toEqual({ Enabled: true, IdleTimeoutMinutes: 15 });
  });

  it('Should refuse pre-initialized capacity without a driver, or with a count that is not a whole number', () => {
    const build = (capacity: object) => () => new LakelineStack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Warm', { spark: { preInitializedCapacity: capacity } });
    expect(build({ drivers: 0 })).toThrow(/drivers must be at least 1/);
    expect(build({ drivers: 1, executors: 1.5 })).toThrow(/executors must be 0\.\.100/);
  });

  it('Should refuse a release that is not EMR 7.x', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    expect(() => new LakelineStack(app, 'Old', { spark: { releaseLabel: 'emr-6.15.0' } })).toThrow(/EMR 7.x release/);
    expect(LakelineSpark).toBeDefined();
  });
});

describe('the execution role', () => {
  it('Should be assumable only by EMR Serverless for this account\'s applications', () => {
    const role = props(logicalIdOf(stack.spark.executionRole));
    expect(role.ManagedPolicyArns).toBeUndefined();
    const statements = (role.AssumeRolePolicyDocument as { Statement: Json[] }).Statement;
    expect(statements).toEqual([
      {
        Action: 'sts:AssumeRole',
        Effect: 'Allow',
        Principal: { Service: 'emr-serverless.amazonaws.com' },
        Condition: { StringEquals: { 'aws:SourceAccount': '123456789012' }, ArnLike: { 'aws:SourceArn': expect.anything() } },
      },
    ]);
    expect(JSON.stringify(statements[0]?.Condition)).toContain(':emr-serverless:eu-west-1:123456789012:/applications/*');
  });

  it('Should reach the warehouse and run files, the job code, and org Glue databases — nothing else', () => {
    const bucket = logicalIdOf(stack.warehouse.bucket);
    const grants = grantsOf(stack.spark.executionRole);
    const glue = [`${GLUE}catalog`, `${GLUE}database/org_*`, `${GLUE}table/org_*/*`];
    for (const action of ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload']) expect(has(grants, action, `${bucket}/warehouse/*`), action).toBe(true);
    expect(has(grants, 's3:ListBucket', bucket)).toBe(true);
    expect(has(grants, 's3:PutObject', `${bucket}/runs/*`)).toBe(true);
    for (const resource of glue) for (const action of ['glue:GetTable', 'glue:CreateTable', 'glue:UpdateTable', 'glue:CreateDatabase']) expect(has(grants, action, resource), `${action} ${resource}`).toBe(true);
    const allowed = (g: Grant): boolean =>
      g.resource.startsWith(`${bucket}/warehouse/`) ||
      g.resource.startsWith(`${bucket}/runs/`) ||
      g.resource === bucket ||
      glue.includes(g.resource) ||
      (g.action === 'glue:GetDatabase' && g.resource === `${GLUE}database/default`) ||
      (g.action === 's3:GetObject' && /^arn:AWS::Partition:s3:::cdk-[^/]+\/[0-9a-f]{64}\.(py|zip)$/.test(g.resource));
    expect(grants.filter((g) => !allowed(g))).toEqual([]);
    expect(grants.filter((g) => g.action === 's3:GetObject' && g.resource.includes(':s3:::cdk-')).map((g) => path.extname(g.resource)).sort()).toEqual(['.py', '.zip']);
  });
});

describe('the job code', () => {
  it('Should ship the entry script and the lakeline_spark package as assets the Spark routes are told about', () => {
    const env = ((props(logicalIdOf(fnOf('PostSparkQuery'))).Environment as Json).Variables ?? {}) as Json;
    expect(JSON.stringify(env[SPARK_JOB_SCRIPT_URI_ENV])).toMatch(/[0-9a-f]{64}\.py/);
    expect(JSON.stringify(env[SPARK_JOB_PACKAGE_URI_ENV])).toMatch(/[0-9a-f]{64}\.zip/);
    expect(env[EMR_APPLICATION_ID_ENV]).toEqual({ 'Fn::GetAtt': [logicalIdOf(stack.spark.application), 'ApplicationId'] });
    expect(env[EMR_EXECUTION_ROLE_ARN_ENV]).toEqual({ 'Fn::GetAtt': [logicalIdOf(stack.spark.executionRole), 'Arn'] });
    expect(env[EMR_RELEASE_LABEL_ENV]).toMatch(/^emr-7\./);
    expect(JSON.stringify(env[SPARK_RUNS_URI_ENV])).toContain('/runs');
    expect(JSON.stringify(env[WAREHOUSE_URI_ENV])).toContain('/warehouse');
  });
});

describe('Spark access of the routes', () => {
  const jobRuns = (): string => JSON.stringify(stack.resolve(`${stack.spark.application.attrArn}/jobruns/*`));
  const applicationArn = (): string => logicalIdOf(stack.spark.application);

  it('Should let the spark endpoint start job runs, pass the execution role, write specs and read the lake', () => {
    const fn = fnOf('PostSparkQuery');
    const grants = grantsOf(fn.executionRole);
    const bucket = logicalIdOf(stack.warehouse.bucket);
    expect(has(grants, 'emr-serverless:StartJobRun', applicationArn())).toBe(true);
    expect(has(grants, 'iam:PassRole', logicalIdOf(stack.spark.executionRole))).toBe(true);
    expect(has(grants, 's3:PutObject', `${bucket}/runs/*`)).toBe(true);
    expect(has(grants, 's3:GetObject', `${bucket}/warehouse/*`)).toBe(true);
    expect(has(grants, 'glue:GetTables', `${GLUE}database/org_*`)).toBe(true);
    expect(grants.some((g) => g.action === 'emr-serverless:CancelJobRun')).toBe(false);
    expect(grants.some((g) => g.action.startsWith('glue:') && !g.action.startsWith('glue:Get'))).toBe(false);
    expect(jobRuns()).toContain('jobruns');
  });

  it('Should let the abort endpoint cancel job runs and do nothing else with Spark', () => {
    const grants = grantsOf(fnOf('PostRunAbort').executionRole);
    const spark = grants.filter((g) => g.action.startsWith('emr-serverless:') || g.action === 'iam:PassRole');
    expect(spark.map((g) => g.action)).toEqual(['emr-serverless:CancelJobRun']);
    // The lake access it has is the bloom construct's, for stopping bloom runs (test/cdk/bloom.test.ts).
    expect(ROUTES.find((r) => r.id === 'PostRunAbort')?.bloom).toBe(true);
  });

  it('Should give no Spark access to routes not marked spark', () => {
    for (const route of ROUTES.filter((r) => !r.spark)) {
      const grants = grantsOf(fnOf(route.id).executionRole);
      expect(grants.filter((g) => g.action.startsWith('emr-serverless:') || g.action === 'iam:PassRole'), route.id).toEqual([]);
    }
  });
});

describe('run state changes', () => {
  it('Should send this application\'s started and ended job runs to the state-change function, with retries and a dead-letter queue', () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: {
        source: ['aws.emr-serverless'],
        'detail-type': ['EMR Serverless Job Run State Change'],
        detail: { applicationId: [{ 'Fn::GetAtt': [logicalIdOf(stack.spark.application), 'ApplicationId'] }], state: ['RUNNING', 'SUCCESS', 'FAILED', 'CANCELLED'] },
      },
      Targets: [
        Match.objectLike({
          Arn: { 'Fn::GetAtt': [logicalIdOf(stack.spark.stateChangeFunction), 'Arn'] },
          DeadLetterConfig: { Arn: { 'Fn::GetAtt': [logicalIdOf(stack.spark.deadLetterQueue), 'Arn'] } },
          RetryPolicy: { MaximumRetryAttempts: 8, MaximumEventAgeInSeconds: 21600 },
        }),
      ],
    });
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'events.amazonaws.com',
      FunctionName: { 'Fn::GetAtt': [logicalIdOf(stack.spark.stateChangeFunction), 'Arn'] },
      SourceArn: { 'Fn::GetAtt': [logicalIdOf(stack.spark.stateChangeRule), 'Arn'] },
    });
    template.hasResourceProperties('AWS::SQS::Queue', { SqsManagedSseEnabled: true });
  });

  it('Should let the state-change function read job runs and run results and write runs, events and usage', () => {
    const fn = stack.spark.stateChangeFunction;
    const grants = grantsOf(fn.executionRole);
    const bucket = logicalIdOf(stack.warehouse.bucket);
    expect(grants.filter((g) => g.action.startsWith('emr-serverless:')).map((g) => g.action)).toEqual(['emr-serverless:GetJobRun']);
    expect(has(grants, 's3:GetObject', `${bucket}/runs/*`)).toBe(true);
    expect(grants.some((g) => g.action === 's3:PutObject')).toBe(false);
    for (const table of [RUNS_TABLE, EVENTS_TABLE, ORGS_TABLE]) expect(has(grants, 'dynamodb:UpdateItem', logicalIdOf(stack.data.table(table))), table.id).toBe(true);
    const fnProps = props(logicalIdOf(fn));
    expect(fnProps).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], Timeout: 60 });
    expect(((fnProps.Environment as Json).Variables as Json)[EMR_APPLICATION_ID_ENV]).toEqual({ 'Fn::GetAtt': [logicalIdOf(stack.spark.application), 'ApplicationId'] });
  });
});

describe('the warehouse bucket', () => {
  it('Should be encrypted, private, TLS-only, access-logged, expiring run files', () => {
    const bucket = props(logicalIdOf(stack.warehouse.bucket));
    expect(bucket).toMatchObject({
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      LoggingConfiguration: { DestinationBucketName: { Ref: logicalIdOf(stack.data.accessLogBucket) }, LogFilePrefix: 'warehouse-bucket/' },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
    });
    expect((bucket.LifecycleConfiguration as { Rules: Json[] }).Rules).toEqual(expect.arrayContaining([expect.objectContaining({ Prefix: 'runs/', ExpirationInDays: 90, Status: 'Enabled' })]));
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: logicalIdOf(stack.warehouse.bucket) },
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
  });
});

describe('cdk-nag', () => {
  it('Should leave no AwsSolutions finding of the Spark and warehouse constructs unacknowledged', () => {
    const report = new AwsSolutionsChecks(undefined, { verbose: true }).validateScope(stack);
    const ours = report.violations.filter((v) => v.violatingResources.some((r) => /\/(Spark|Warehouse)\/|\/PostSparkQuery|\/PostRunAbort/.test(r.constructPath ?? '')));
    expect(ours.map((v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`)).toEqual([]);
  });
});
