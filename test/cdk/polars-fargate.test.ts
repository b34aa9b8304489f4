/**
 * @module polars-fargate.test
 * Assertions on `LakelinePolarsFargate` in a stack of its own (an isolated VPC, the lake bucket, one
 * caller function): per built tier an arm64 task definition of the tier's size running the task
 * runner on a read-only root, a service with the warm task count and no public IP, an encrypted
 * TLS-only queue with a dead-letter queue, queue-depth scaling; the task role's least privilege (its
 * queue, the results prefix, no warehouse read); the caller's grants and environment; the interface
 * endpoints asked of the network; nothing at all for the default of no warm tasks; a clean cdk-nag
 * run. The image is staged, not built.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { App, type CfnElement, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import type * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import {
  POLARS_RESULTS_BUCKET_ENV,
  POLARS_RESULTS_PREFIX_ENV,
  POLARS_TASK_MAX_RUN_ENV,
  POLARS_TASK_MEMORY_ENV,
  POLARS_TASK_QUEUE_URL_ENV,
  POLARS_TASK_SANDBOX_UID_ENV,
  polarsQueueEnv,
} from '#composition/env-names';
import { acknowledge } from '../../lib/nag.ts';
import { FARGATE_TIERS, LakelinePolarsFargate, type LakelinePolarsFargateProps } from '../../lib/polars-fargate.ts';
import { REPO_ROOT } from '../../lib/service-function.ts';
import { LakelineWarehouse } from '../../lib/warehouse.ts';
import { TestFunction } from './test-function.ts';
import { grantsOfRole } from './iam-statements.ts';

type Json = Record<string, unknown>;


const build = (props: Partial<LakelinePolarsFargateProps> = { warmTasks: { 8: 1, 16: 2 } }) => {
  const app = new App();
  const stack = new Stack(app, 'PolarsFargateTest', { env: { account: '123456789012', region: 'eu-west-1' } });
  const logBucket = new s3.Bucket(stack, 'Logs', { enforceSSL: true, blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL, encryption: s3.BucketEncryption.S3_MANAGED });
  acknowledge(logBucket, 'AwsSolutions-S1', 'This bucket is the access-log bucket itself in this test stack.');
  const warehouse = new LakelineWarehouse(stack, 'Warehouse', { accessLogBucket: logBucket });
  const vpc = new ec2.Vpc(stack, 'Vpc', { natGateways: 0, maxAzs: 2, subnetConfiguration: [{ name: 'sandbox', subnetType: ec2.SubnetType.PRIVATE_ISOLATED }] });
  const securityGroup = new ec2.SecurityGroup(stack, 'SandboxSg', { vpc, allowAllOutbound: false });
  const caller = new TestFunction(stack, 'Polars');
  const endpoints: [string, string][] = [];
  const fargate = new LakelinePolarsFargate(stack, 'PolarsFargate', {
    warehouse,
    network: { vpc, subnets: { subnetType: ec2.SubnetType.PRIVATE_ISOLATED }, securityGroup },
    addInterfaceEndpoint: (id, service) => endpoints.push([id, service.shortName]),
    callers: [caller],
    ...props,
  });
  return { stack, template: Template.fromStack(stack), warehouse, vpc, securityGroup, caller, fargate, endpoints };
};

const idOf = (stack: Stack, construct: { node: { defaultChild?: unknown } }): string => stack.resolve(((construct.node.defaultChild ?? construct) as CfnElement).logicalId) as string;
const resources = (template: Template, type: string): Json[] => Object.values(template.findResources(type)).map((r) => (r as { Properties: Json }).Properties);

/** Every Allow statement attached to a role, conditions kept (grantsOfRole refuses conditions). */
const statementsOfRole = (template: Template, roleId: string): Json[] =>
  resources(template, 'AWS::IAM::Policy')
    .filter((p) => (p.Roles as Json[]).some((r) => r.Ref === roleId))
    .flatMap((p) => (p.PolicyDocument as { Statement: Json[] }).Statement);

describe('the task definitions', () => {
  it.each([
    [8, 8192, 16384],
    [16, 16384, 32768],
  ])('Should run the %i-vCPU tier on arm64 with %i CPU units and %i MiB, the runner on a read-only root', (tier, cpu, memory) => {
    // Arrange
    const { stack, template, fargate, warehouse } = build();
    const resources = fargate.tiers.get(tier as 8 | 16);
    if (!resources) throw new Error(`tier ${tier} not built`);

    // Act
    const props = template.toJSON().Resources[idOf(stack, resources.taskDefinition)].Properties as Json;

    // Assess
    expect(props).toMatchObject({
      Cpu: String(cpu),
      Memory: String(memory),
      RequiresCompatibilities: ['FARGATE'],
      NetworkMode: 'awsvpc',
      RuntimePlatform: { CpuArchitecture: 'ARM64', OperatingSystemFamily: 'LINUX' },
      Volumes: [{ Name: 'scratch' }],
    });
    const [container] = props.ContainerDefinitions as Json[];
    expect(container).toMatchObject({
      EntryPoint: ['/var/lang/bin/python3', '-m', 'lakeline_polars.task_runner'],
      ReadonlyRootFilesystem: true,
      User: '0',
      StopTimeout: 120,
      LinuxParameters: { InitProcessEnabled: true },
      MountPoints: [{ ContainerPath: '/tmp', SourceVolume: 'scratch', ReadOnly: false }],
      LogConfiguration: { LogDriver: 'awslogs' },
    });
    const env = Object.fromEntries((container?.Environment as { Name: string; Value: unknown }[]).map((e) => [e.Name, e.Value]));
    expect(env).toMatchObject({
      POLARS_MAX_THREADS: String(tier),
      [POLARS_TASK_QUEUE_URL_ENV]: { Ref: idOf(stack, resources.queue) },
      [POLARS_RESULTS_BUCKET_ENV]: { Ref: idOf(stack, warehouse.bucket) },
      [POLARS_RESULTS_PREFIX_ENV]: 'polars-fargate',
      [POLARS_TASK_MAX_RUN_ENV]: '880',
      [POLARS_TASK_MEMORY_ENV]: String(memory),
      [POLARS_TASK_SANDBOX_UID_ENV]: '10001',
      AWS_REGION: 'eu-west-1',
    });
  });

  it('Should set exactly the variables the Python runner reads', () => {
    // Arrange
    const runner = readFileSync(path.join(REPO_ROOT, 'functions/polars/lakeline_polars/task_runner.py'), 'utf8');

    // Assess
    for (const name of [POLARS_TASK_QUEUE_URL_ENV, POLARS_RESULTS_BUCKET_ENV, POLARS_RESULTS_PREFIX_ENV, POLARS_TASK_MAX_RUN_ENV, POLARS_TASK_MEMORY_ENV, POLARS_TASK_SANDBOX_UID_ENV]) {
      expect(runner, name).toContain(`"${name}"`);
    }
  });

  it('Should build the image from functions/polars, the Lambda sandbox\'s directory', () => {
    // Arrange
    const { template } = build();

    // Act
    const images = resources(template, 'AWS::ECS::TaskDefinition').map((p) => JSON.stringify((p.ContainerDefinitions as Json[])[0]?.Image));

    // Assess
    expect(images).toHaveLength(2);
    expect(new Set(images).size).toBe(1);
    expect(images[0]).toContain('container-assets');
  });
});

describe('the services', () => {
  it('Should keep the warm task count of each tier, with no public IP, in the given subnets and security group', () => {
    // Arrange
    const { stack, template, fargate, vpc, securityGroup } = build();

    // Act
    const services = FARGATE_TIERS.map((tier) => template.toJSON().Resources[idOf(stack, fargate.tiers.get(tier)!.service)].Properties as Json);

    // Assess
    const subnets = vpc.isolatedSubnets.map((s) => ({ Ref: idOf(stack, s as ec2.Subnet) }));
    expect(services.map((s) => s.DesiredCount)).toEqual([1, 2]);
    for (const service of services) {
      expect(service).toMatchObject({
        LaunchType: 'FARGATE',
        EnableExecuteCommand: false,
        NetworkConfiguration: { AwsvpcConfiguration: { AssignPublicIp: 'DISABLED', SecurityGroups: [{ 'Fn::GetAtt': [idOf(stack, securityGroup), 'GroupId'] }], Subnets: subnets } },
      });
    }
  });

  it('Should scale each tier on its queue depth between its warm tasks and the maximum', () => {
    // Arrange
    const { stack, template, fargate } = build({ warmTasks: { 8: 1, 16: 2 }, maxTasks: 6 });

    // Assess
    expect(resources(template, 'AWS::ApplicationAutoScaling::ScalableTarget').map((t) => [t.MinCapacity, t.MaxCapacity])).toEqual([
      [1, 6],
      [2, 6],
    ]);
    for (const tier of FARGATE_TIERS) {
      template.hasResourceProperties('AWS::ApplicationAutoScaling::ScalingPolicy', {
        PolicyType: 'TargetTrackingScaling',
        TargetTrackingScalingPolicyConfiguration: {
          TargetValue: 1,
          CustomizedMetricSpecification: {
            Namespace: 'AWS/SQS',
            MetricName: 'ApproximateNumberOfMessagesVisible',
            Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [idOf(stack, fargate.tiers.get(tier)!.queue), 'QueueName'] } }],
          },
        },
      });
    }
  });

  it('Should build nothing, grant nothing and ask for no endpoint with the default of no warm tasks', () => {
    // Arrange + Act
    const { template, fargate, endpoints, caller, stack } = build({});

    // Assess
    expect(fargate.tiers.size).toBe(0);
    for (const type of ['AWS::ECS::Cluster', 'AWS::ECS::Service', 'AWS::ECS::TaskDefinition', 'AWS::SQS::Queue']) template.resourceCountIs(type, 0);
    expect(endpoints).toEqual([]);
    expect(grantsOfRole(template, idOf(stack, caller.executionRole)).filter((g) => !g.action.startsWith('logs:'))).toEqual([]);
  });

  it('Should build only the tiers with warm tasks', () => {
    // Act
    const { template, fargate } = build({ warmTasks: { 8: 1 } });

    // Assess
    expect([...fargate.tiers.keys()]).toEqual([8]);
    template.resourceCountIs('AWS::ECS::Service', 1);
  });

  it.each([
    [{ warmTasks: { 8: 5 } }, /warmTasks\[8\] \(5\) exceeds maxTasks \(4\)/],
    [{ warmTasks: { 16: -1 } }, /warmTasks\[16\] must be an integer of at least 0/],
    [{ warmTasks: { 8: 1 }, maxTasks: 0 }, /maxTasks must be an integer of at least 1/],
    [{ warmTasks: { 8: 1.5 } }, /warmTasks\[8\] must be an integer/],
  ])('Should refuse invalid sizes (%j)', (props, message) => {
    // Act + Assess
    expect(() => build(props as Partial<LakelinePolarsFargateProps>)).toThrow(message);
  });
});

describe('the queues', () => {
  it('Should encrypt every queue, refuse plain HTTP, and send twice-failed messages to a dead-letter queue', () => {
    // Arrange
    const { stack, template, fargate } = build();

    // Assess
    template.resourceCountIs('AWS::SQS::Queue', 4);
    for (const props of resources(template, 'AWS::SQS::Queue')) expect(props.SqsManagedSseEnabled).toBe(true);
    for (const tier of FARGATE_TIERS) {
      const { queue, deadLetterQueue } = fargate.tiers.get(tier)!;
      expect(template.toJSON().Resources[idOf(stack, queue)].Properties).toMatchObject({
        VisibilityTimeout: 940,
        ReceiveMessageWaitTimeSeconds: 20,
        RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [idOf(stack, deadLetterQueue), 'Arn'] }, maxReceiveCount: 2 },
      });
      for (const q of [queue, deadLetterQueue]) {
        template.hasResourceProperties('AWS::SQS::QueuePolicy', {
          Queues: [{ Ref: idOf(stack, q) }],
          PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
        });
      }
    }
  });

  it('Should expire the results prefix after one day', () => {
    // Arrange
    const { stack, template, warehouse } = build();

    // Assess
    const rules = ((template.toJSON().Resources[idOf(stack, warehouse.bucket)].Properties as Json).LifecycleConfiguration as { Rules: Json[] }).Rules;
    expect(rules).toEqual(expect.arrayContaining([expect.objectContaining({ Prefix: 'polars-fargate/', ExpirationInDays: 1, Status: 'Enabled' })]));
  });
});

describe('the grants', () => {
  it.each(FARGATE_TIERS.map((t) => [t]))('Should let the %i-vCPU task consume its own queue and read requests / write answers, and read no warehouse file', (tier) => {
    // Arrange
    const { stack, template, fargate, warehouse } = build();
    const { taskDefinition, queue } = fargate.tiers.get(tier)!;

    // Act
    const grants = grantsOfRole(template, idOf(stack, taskDefinition.taskRole as iam.Role));

    // Assess
    const bucket = idOf(stack, warehouse.bucket);
    const queueId = idOf(stack, queue);
    expect(grants.sort((a, b) => a.action.localeCompare(b.action))).toEqual([
      { action: 's3:GetObject', resource: `${bucket}/polars-fargate/*` },
      { action: 's3:PutObject', resource: `${bucket}/polars-fargate/*` },
      { action: 'sqs:ChangeMessageVisibility', resource: queueId },
      { action: 'sqs:DeleteMessage', resource: queueId },
      { action: 'sqs:ReceiveMessage', resource: queueId },
    ]);
  });

  it('Should let the execution role pull the image and write the logs only', () => {
    // Arrange
    const { stack, template, fargate } = build();

    // Act
    const role = fargate.tiers.get(8)!.taskDefinition.executionRole as iam.Role;
    const actions = new Set(grantsOfRole(template, idOf(stack, role)).map((g) => g.action));

    // Assess
    expect([...actions].sort()).toEqual(['ecr:BatchCheckLayerAvailability', 'ecr:BatchGetImage', 'ecr:GetAuthorizationToken', 'ecr:GetDownloadUrlForLayer', 'logs:CreateLogStream', 'logs:PutLogEvents']);
  });

  it('Should let the caller send to exactly the tiers\' queues and use the results prefix, named in its environment', () => {
    // Arrange
    const { stack, template, fargate, caller, warehouse } = build();
    const bucket = idOf(stack, warehouse.bucket);
    const queues = FARGATE_TIERS.map((t) => idOf(stack, fargate.tiers.get(t)!.queue));

    // Act
    const statements = statementsOfRole(template, idOf(stack, caller.executionRole));

    // Assess
    const conditioned = statements.filter((s) => s.Condition !== undefined);
    expect(conditioned).toEqual([
      { Effect: 'Allow', Action: 's3:ListBucket', Resource: { 'Fn::GetAtt': [bucket, 'Arn'] }, Condition: { StringLike: { 's3:prefix': ['polars-fargate/*'] } } },
    ]);
    const grants = grantsOfRole(
      Template.fromJSON({ Resources: { ...template.findResources('AWS::IAM::Role'), P: { Type: 'AWS::IAM::Policy', Properties: { Roles: [{ Ref: idOf(stack, caller.executionRole) }], PolicyDocument: { Statement: statements.filter((s) => s.Condition === undefined) } } } } }),
      idOf(stack, caller.executionRole),
    ).filter((g) => !g.action.startsWith('logs:'));
    expect(grants.filter((g) => g.action.startsWith('sqs:'))).toEqual(queues.map((q) => ({ action: 'sqs:SendMessage', resource: q })));
    expect(grants.filter((g) => g.action.startsWith('s3:')).sort((a, b) => a.action.localeCompare(b.action))).toEqual(
      ['s3:DeleteObject', 's3:GetObject', 's3:PutObject'].map((action) => ({ action, resource: `${bucket}/polars-fargate/*` })),
    );
    expect(grants.filter((g) => !g.action.startsWith('sqs:') && !g.action.startsWith('s3:'))).toEqual([]);
    const env = ((template.toJSON().Resources[idOf(stack, caller)].Properties as Json).Environment as { Variables: Json }).Variables;
    expect(env).toEqual({
      [polarsQueueEnv(8)]: { Ref: queues[0] },
      [polarsQueueEnv(16)]: { Ref: queues[1] },
      [POLARS_RESULTS_BUCKET_ENV]: { Ref: bucket },
      [POLARS_RESULTS_PREFIX_ENV]: 'polars-fargate',
    });
  });
});

describe('the network', () => {
  it('Should ask the network for the ECR, CloudWatch Logs and SQS interface endpoints, once', () => {
    // Act
    const { endpoints } = build();

    // Assess
    expect(endpoints).toEqual([
      ['EcrApi', 'ecr.api'],
      ['EcrDocker', 'ecr.dkr'],
      ['Logs', 'logs'],
      ['Sqs', 'sqs'],
    ]);
  });
});

describe('cdk-nag', () => {
  it('Should leave no AwsSolutions finding of the construct and its caller unacknowledged', () => {
    // Arrange
    const { stack } = build();

    // Act
    const report = new AwsSolutionsChecks(undefined, { verbose: true }).validateScope(stack);

    // Assess
    const ours = report.violations.filter((v) => v.violatingResources.some((r) => /\/(PolarsFargate|Polars|PolarsRole|Warehouse)(\/|$)/.test(r.constructPath ?? '')));
    expect(ours.map((v) => `${v.ruleName}: ${v.violatingResources.map((r) => `${r.constructPath ?? ''} ${r.resourceLogicalId ?? ''}`).join(', ')}`)).toEqual([]);
  });
});
