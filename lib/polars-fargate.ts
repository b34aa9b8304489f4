/**
 * @module polars-fargate
 * `LakelinePolarsFargate`: the polars sandbox tiers that do not fit Lambda (8 and 16 vCPUs; Lambda
 * stops at 6) as ECS Fargate tasks. API Gateway answers within 30 s and a Fargate task needs 30–60 s
 * to start, so a request cannot start its own task: each tier is a **warm pool**, a service whose
 * tasks long-poll the tier's SQS queue (`lakeline_polars.task_runner`, the Lambda sandbox's image
 * and handler) and leave each answer in S3 under a results prefix, where the caller polls it
 * (`functions/adapters/aws/fargate-polars-transport.ts`). A tier with no warm task is not built and
 * not offered: a warm 16-vCPU task is paid around the clock, so the default is none
 * (docs/adr/0022-polars-sandbox.md, docs/reference/sandbox.md#aws-profile).
 *
 * Grants: a task role may consume its own queue and read requests / write answers under the results
 * prefix — no warehouse read of its own (each run carries credentials scoped to its tables). The
 * callers may send to the queues and read, write and delete under the results prefix.
 */
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type * as ec2 from 'aws-cdk-lib/aws-ec2';
import { InterfaceVpcEndpointAwsService } from 'aws-cdk-lib/aws-ec2';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import path from 'node:path';
import {
  POLARS_FARGATE_TIERS,
  POLARS_RESULTS_BUCKET_ENV,
  POLARS_RESULTS_PREFIX_ENV,
  POLARS_TASK_MAX_RUN_ENV,
  POLARS_TASK_MEMORY_ENV,
  POLARS_TASK_QUEUE_URL_ENV,
  POLARS_TASK_SANDBOX_UID_ENV,
  polarsQueueEnv,
} from '#composition/env-names';
import { acknowledge, acknowledgeWildcardResource } from './nag.ts';
import { REPO_ROOT } from './service-function.ts';
import type { LakelineWarehouse } from './warehouse.ts';

/** The tiers that run on Fargate (its largest task has 16 vCPUs, so 32 runs nowhere in AWS). */
export const FARGATE_TIERS = POLARS_FARGATE_TIERS;
/** One of {@link FARGATE_TIERS}. */
export type FargateTier = (typeof FARGATE_TIERS)[number];
/** Task size per tier: 2 GiB per vCPU, Fargate's smallest memory for these CPU sizes. */
export const FARGATE_TASK_SIZE: Readonly<Record<FargateTier, { cpu: number; memoryLimitMiB: number }>> = {
  8: { cpu: 8192, memoryLimitMiB: 16384 },
  16: { cpu: 16384, memoryLimitMiB: 32768 },
};
/** Key prefix (warehouse bucket) of oversized requests and of every answer. */
export const POLARS_RESULTS_PREFIX = 'polars-fargate';
/** The unprivileged uid the runner starts its sandbox worker as. */
export const SANDBOX_UID = 10001;
/** The image's build options; the same as the Lambda sandbox's, so both resolve to one asset. */
export const POLARS_IMAGE_EXCLUDE = ['tests', '**/__pycache__', 'pytest.ini'];
/** Fargate's longest stop timeout: what a run may still take after SIGTERM. */
const STOP_TIMEOUT = Duration.seconds(120);
/** The runner's visibility timeout margin over a run (`task_runner.VISIBILITY_MARGIN_S`). */
const VISIBILITY_MARGIN_S = 60;

/** Where the tasks run: isolated subnets that reach AWS through VPC endpoints (`SandboxNetwork`). */
export interface PolarsFargateNetwork {
  readonly vpc: ec2.IVpc;
  readonly subnets: ec2.SubnetSelection;
  readonly securityGroup: ec2.ISecurityGroup;
}

/** A function that queues runs (a route marked `polars`). */
export interface PolarsFargateCaller {
  readonly executionRole: iam.Role;
  addEnvironment(name: string, value: string): unknown;
  addToRolePolicy(statement: iam.PolicyStatement): unknown;
}

/** Properties of {@link LakelinePolarsFargate}. */
export interface LakelinePolarsFargateProps {
  /** The lake's bucket: the results prefix lives there (the runs' own reads use their scoped credentials). */
  readonly warehouse: LakelineWarehouse;
  readonly network: PolarsFargateNetwork;
  /**
   * Adds an interface endpoint to the network; called for ECR (API and Docker), CloudWatch Logs and
   * SQS, which tasks in isolated subnets need (S3 is the network's gateway endpoint).
   * @default none: the network must already provide them
   */
  readonly addInterfaceEndpoint?: (id: string, service: ec2.InterfaceVpcEndpointAwsService) => unknown;
  /** The functions that may queue runs; each gets the queue URLs and results location in its environment. */
  readonly callers: readonly PolarsFargateCaller[];
  /** Warm tasks per tier; a tier with 0 is not built or offered. @default 0 for both (a warm task is paid around the clock) */
  readonly warmTasks?: Partial<Record<FargateTier, number>>;
  /** Most tasks per tier when the queue backs up. @default 4 */
  readonly maxTasks?: number;
  /** Longest run a task accepts, in seconds. @default 880 (the Lambda tiers' limit) */
  readonly maxRunSeconds?: number;
  /** The image's build context. @default functions/polars */
  readonly codeDir?: string;
  /** The image; overrides `codeDir` (tests pass a registry image so nothing is staged). */
  readonly image?: ecs.ContainerImage;
  /** Retention of the tasks' log groups. @default logs.RetentionDays.ONE_MONTH */
  readonly logRetention?: logs.RetentionDays;
}

/** One built tier. */
export interface PolarsFargateTierResources {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;
  readonly taskDefinition: ecs.FargateTaskDefinition;
  readonly service: ecs.FargateService;
}

const checkCount = (scope: Construct, name: string, value: number, min: number): void => {
  if (!Number.isInteger(value) || value < min) throw new Error(`${scope.node.path}: ${name} must be an integer of at least ${min}, not ${value}`);
};

/** The Fargate tiers of the polars sandbox and the callers' access to them. */
export class LakelinePolarsFargate extends Construct {
  /** The built tiers (those with warm tasks). */
  public readonly tiers: ReadonlyMap<FargateTier, PolarsFargateTierResources>;
  /** The cluster of the services; undefined when no tier is built. */
  public readonly cluster?: ecs.Cluster;

  constructor(scope: Construct, id: string, props: LakelinePolarsFargateProps) {
    super(scope, id);
    const maxTasks = props.maxTasks ?? 4;
    const maxRun = props.maxRunSeconds ?? 880;
    checkCount(this, 'maxTasks', maxTasks, 1);
    checkCount(this, 'maxRunSeconds', maxRun, 1);
    const warm = FARGATE_TIERS.map((tier) => [tier, props.warmTasks?.[tier] ?? 0] as const);
    for (const [tier, count] of warm) {
      checkCount(this, `warmTasks[${tier}]`, count, 0);
      if (count > maxTasks) throw new Error(`${this.node.path}: warmTasks[${tier}] (${count}) exceeds maxTasks (${maxTasks})`);
    }
    const built = warm.filter(([, count]) => count > 0);
    const tiers = new Map<FargateTier, PolarsFargateTierResources>();
    this.tiers = tiers;
    if (built.length === 0) return;

    for (const service of [InterfaceVpcEndpointAwsService.ECR, InterfaceVpcEndpointAwsService.ECR_DOCKER, InterfaceVpcEndpointAwsService.CLOUDWATCH_LOGS, InterfaceVpcEndpointAwsService.SQS]) {
      props.addInterfaceEndpoint?.(endpointId(service), service);
    }
    this.cluster = new ecs.Cluster(this, 'Cluster', { vpc: props.network.vpc, containerInsightsV2: ecs.ContainerInsights.ENABLED });
    const image = props.image ?? ecs.ContainerImage.fromAsset(props.codeDir ?? path.join(REPO_ROOT, 'functions', 'polars'), { exclude: POLARS_IMAGE_EXCLUDE });
    const results = `${props.warehouse.bucket.bucketArn}/${POLARS_RESULTS_PREFIX}/*`;
    props.warehouse.bucket.addLifecycleRule({ id: 'PolarsFargateResults', prefix: `${POLARS_RESULTS_PREFIX}/`, expiration: Duration.days(1) });

    for (const [tier, count] of built) {
      const resources = this.buildTier(tier, count, { ...props, maxTasks, maxRun, image, results, cluster: this.cluster });
      tiers.set(tier, resources);
      for (const caller of props.callers) {
        caller.addToRolePolicy(new iam.PolicyStatement({ actions: ['sqs:SendMessage'], resources: [resources.queue.queueArn] }));
        caller.addEnvironment(polarsQueueEnv(tier), resources.queue.queueUrl);
      }
    }
    for (const caller of props.callers) this.grantResults(caller, props.warehouse, results);
  }

  /** Queues, task definition, service and scaling of one tier. */
  private buildTier(
    tier: FargateTier,
    warmTasks: number,
    o: LakelinePolarsFargateProps & { maxTasks: number; maxRun: number; image: ecs.ContainerImage; results: string; cluster: ecs.Cluster },
  ): PolarsFargateTierResources {
    const deadLetterQueue = new sqs.Queue(this, `Tier${tier}DeadLetters`, { encryption: sqs.QueueEncryption.SQS_MANAGED, enforceSSL: true, retentionPeriod: Duration.days(14) });
    acknowledge(deadLetterQueue, 'AwsSolutions-SQS3', 'This queue is itself the dead-letter queue of a sandbox tier; a queue behind it would only move the same unrunnable messages again.');
    const queue = new sqs.Queue(this, `Tier${tier}Queue`, {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: Duration.seconds(o.maxRun + VISIBILITY_MARGIN_S),
      // A message is useless once its caller's deadline passed; the runner drops such messages unrun.
      retentionPeriod: Duration.seconds(o.maxRun + 300),
      receiveMessageWaitTime: Duration.seconds(20),
      // A message whose task died twice (out of memory of the whole task) is not tried a third time.
      deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: 2 },
    });

    const taskRole = new iam.Role(this, `Tier${tier}TaskRole`, { assumedBy: new iam.ServicePrincipal('ecs-tasks.amazonaws.com'), description: `Task role of the ${tier}-vCPU polars sandbox pool` });
    taskRole.addToPolicy(new iam.PolicyStatement({ actions: ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility'], resources: [queue.queueArn] }));
    taskRole.addToPolicy(new iam.PolicyStatement({ actions: ['s3:GetObject', 's3:PutObject'], resources: [o.results] }));
    acknowledgeWildcardResource(taskRole, o.results, 'The runner reads requests and writes answers named by request ids chosen at run time, under the results prefix only; table files are read with each run\'s own scoped credentials.');

    const size = FARGATE_TASK_SIZE[tier];
    const taskDefinition = new ecs.FargateTaskDefinition(this, `Tier${tier}Task`, {
      ...size,
      runtimePlatform: { cpuArchitecture: ecs.CpuArchitecture.ARM64, operatingSystemFamily: ecs.OperatingSystemFamily.LINUX },
      taskRole,
      // The root file system is read-only; the handler's inbox and scratch live in /tmp, on the task's ephemeral storage.
      volumes: [{ name: 'scratch' }],
    });
    const logGroup = new logs.LogGroup(this, `Tier${tier}LogGroup`, { retention: o.logRetention ?? logs.RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    const container = taskDefinition.addContainer('Runner', {
      image: o.image,
      // The Lambda base image's entry point is the Lambda runtime; the task runs the runner instead.
      entryPoint: ['/var/lang/bin/python3', '-m', 'lakeline_polars.task_runner'],
      command: [],
      workingDirectory: '/var/task',
      // Root, to start each run's worker as SANDBOX_UID and kill what it leaves (task_runner.py).
      user: '0',
      readonlyRootFilesystem: true,
      // An init process reaps the processes a run leaves behind once they are killed.
      linuxParameters: new ecs.LinuxParameters(this, `Tier${tier}Linux`, { initProcessEnabled: true }),
      stopTimeout: STOP_TIMEOUT,
      logging: ecs.LogDrivers.awsLogs({ logGroup, streamPrefix: 'polars' }),
      environment: {
        [POLARS_TASK_QUEUE_URL_ENV]: queue.queueUrl,
        [POLARS_RESULTS_BUCKET_ENV]: o.warehouse.bucket.bucketName,
        [POLARS_RESULTS_PREFIX_ENV]: POLARS_RESULTS_PREFIX,
        [POLARS_TASK_MAX_RUN_ENV]: String(o.maxRun),
        [POLARS_TASK_MEMORY_ENV]: String(size.memoryLimitMiB),
        [POLARS_TASK_SANDBOX_UID_ENV]: String(SANDBOX_UID),
        POLARS_MAX_THREADS: String(tier),
        AWS_REGION: Stack.of(this).region,
        PYTHONPATH: '/var/task',
        PYTHONDONTWRITEBYTECODE: '1',
      },
    });
    container.addMountPoints({ containerPath: '/tmp', sourceVolume: 'scratch', readOnly: false });
    acknowledge(taskDefinition, 'AwsSolutions-ECS2', 'The variables are the queue URL, bucket name, prefix, limits and a uid: configuration, no secret (a run\'s credentials come in its message).');
    const executionRole = taskDefinition.obtainExecutionRole();
    acknowledge(executionRole, 'AwsSolutions-IAM5[Resource::*]', 'ecr:GetAuthorizationToken, which the execution role needs to pull the image, does not support resource-level permissions.');

    const service = new ecs.FargateService(this, `Tier${tier}Service`, {
      cluster: o.cluster,
      taskDefinition,
      desiredCount: warmTasks,
      assignPublicIp: false,
      vpcSubnets: o.network.subnets,
      securityGroups: [o.network.securityGroup],
      minHealthyPercent: 100,
      maxHealthyPercent: 200,
      circuitBreaker: { rollback: true },
      enableExecuteCommand: false,
    });
    const scaling = service.autoScaleTaskCount({ minCapacity: warmTasks, maxCapacity: o.maxTasks });
    // Each task runs one message at a time, so visible messages are requests waiting for a free task.
    scaling.scaleToTrackCustomMetric('QueueDepth', {
      metric: queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      targetValue: 1,
      scaleOutCooldown: Duration.seconds(60),
      scaleInCooldown: Duration.minutes(10),
    });
    return { queue, deadLetterQueue, taskDefinition, service };
  }

  /** A caller's access to the results prefix and its location in the caller's environment. */
  private grantResults(caller: PolarsFargateCaller, warehouse: LakelineWarehouse, results: string): void {
    caller.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'], resources: [results] }));
    // Without ListBucket, S3 answers 403 instead of 404 for an answer not written yet.
    caller.addToRolePolicy(
      new iam.PolicyStatement({ actions: ['s3:ListBucket'], resources: [warehouse.bucket.bucketArn], conditions: { StringLike: { 's3:prefix': [`${POLARS_RESULTS_PREFIX}/*`] } } }),
    );
    acknowledgeWildcardResource(caller.executionRole, results, 'The caller writes oversized requests and reads and deletes answers named by request ids chosen at run time, under the polars results prefix only.');
    caller.addEnvironment(POLARS_RESULTS_BUCKET_ENV, warehouse.bucket.bucketName);
    caller.addEnvironment(POLARS_RESULTS_PREFIX_ENV, POLARS_RESULTS_PREFIX);
  }
}

/** `EcrApi`, `EcrDocker`, `Logs`, `Sqs`: stable ids for the network's endpoints. */
const endpointId = (service: ec2.InterfaceVpcEndpointAwsService): string => {
  if (service === InterfaceVpcEndpointAwsService.ECR) return 'EcrApi';
  if (service === InterfaceVpcEndpointAwsService.ECR_DOCKER) return 'EcrDocker';
  if (service === InterfaceVpcEndpointAwsService.CLOUDWATCH_LOGS) return 'Logs';
  return 'Sqs';
};
