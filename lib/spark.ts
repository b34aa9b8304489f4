/**
 * @module spark
 * `LakelineSpark`: managed Spark on EMR Serverless. The Spark application (a current EMR 7.x
 * release, whose Spark 3.5 and Iceberg runtime match the local profile's), its execution role
 * (the lake's bucket and Glue databases, nothing else; each job run is narrowed further to one
 * org by an inline execution policy, see `functions/adapters/aws/emr-serverless-policy.ts`), the
 * job script and its package as S3 assets, and the EventBridge rule that sends "EMR Serverless
 * Job Run State Change" events of this application to the function that ends runs. Route
 * functions marked `spark` in the route table get exactly the Spark access they name.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import * as emrserverless from 'aws-cdk-lib/aws-emrserverless';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as logs from 'aws-cdk-lib/aws-logs';
import * as s3assets from 'aws-cdk-lib/aws-s3-assets';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import path from 'node:path';
import {
  EMR_APPLICATION_ID_ENV,
  EMR_EXECUTION_ROLE_ARN_ENV,
  EMR_RELEASE_LABEL_ENV,
  SPARK_JOB_PACKAGE_URI_ENV,
  SPARK_JOB_SCRIPT_URI_ENV,
  SPARK_RUNS_URI_ENV,
  WAREHOUSE_URI_ENV,
} from '#composition/env-names';
import { ROUTES, type RouteDefinition } from '#shared/routes';
import { EVENTS_TABLE, ORGS_TABLE, RUNS_TABLE } from '#shared/table-definitions';
import type { LakelineApi } from './api.ts';
import type { LakelineData } from './data.ts';
import { GLUE_READ, GLUE_WRITE, glueLakeResources, grantLakeRead } from './lake-access.ts';
import { acknowledge, acknowledgeWildcardResource } from './nag.ts';
import { REPO_ROOT, ServiceFunction } from './service-function.ts';
import { RUNS_PREFIX, WAREHOUSE_PREFIX, type LakelineWarehouse } from './warehouse.ts';

/** The EMR release: Spark 3.5 (as pyspark locally) with Iceberg 1.10 (format v2, like the local 1.12 runtime). */
export const DEFAULT_RELEASE_LABEL = 'emr-7.12.0';

/** Job run states that end a run. */
export const TERMINAL_JOB_RUN_STATES = ['SUCCESS', 'FAILED', 'CANCELLED'];

/** The changes the rule forwards: a run leaves QUEUED on RUNNING, and ends on a terminal state. */
export const FORWARDED_JOB_RUN_STATES = ['RUNNING', ...TERMINAL_JOB_RUN_STATES];

/** Upper bound of what the application may run at once. */
export interface SparkCapacity {
  /** e.g. `400 vCPU` */
  readonly cpu: string;
  /** e.g. `3000 GB` */
  readonly memory: string;
  /** e.g. `20000 GB` */
  readonly disk: string;
}

/**
 * Workers EMR Serverless keeps initialized while the application is started (ADR 0059), so a job
 * that fits them starts in seconds instead of waiting for workers. They cost while the
 * application is started, jobs or not, until it auto-stops after `idleTimeoutMinutes`.
 */
export interface SparkPreInitializedCapacity {
  /** Driver workers kept ready (one per job that should start at once). @default 1 */
  readonly drivers?: number;
  /** Executor workers kept ready. @default 1 (the contract's default `executor_numbers`) */
  readonly executors?: number;
  /** Each worker's vCPUs, as EMR writes them. @default '1 vCPU' (the default machine type, spark.1.b) */
  readonly cpu?: string;
  /** Each worker's memory. @default '4 GB' (spark.1.b) */
  readonly memory?: string;
}

/** Properties of {@link LakelineSpark}. */
export interface LakelineSparkProps {
  /** The API whose route functions submit and cancel runs. */
  readonly api: LakelineApi;
  /** Tables the state-change function writes (runs, events, orgs). */
  readonly data: LakelineData;
  /** The lake's bucket. */
  readonly warehouse: LakelineWarehouse;
  /** The routes, to find the functions marked `spark`. @default ROUTES */
  readonly routes?: readonly RouteDefinition[];
  /** EMR release label. @default DEFAULT_RELEASE_LABEL */
  readonly releaseLabel?: string;
  /**
   * Most the application may run at once. The largest single request (a spark.16.m driver and 20
   * spark.16.m executors) needs 336 vCPUs and 2520 GB.
   * @default { cpu: '400 vCPU', memory: '3000 GB', disk: '20000 GB' }
   */
  readonly maximumCapacity?: SparkCapacity;
  /**
   * Workers kept initialized while the application is started: jobs of the default machine type
   * then start without waiting for workers. @default none (every job waits for its workers)
   */
  readonly preInitializedCapacity?: SparkPreInitializedCapacity;
  /** Idle minutes before the application stops (and stops costing). @default 15 */
  readonly idleTimeoutMinutes?: number;
  /** Retention of the state-change function's log group. @default logs.RetentionDays.ONE_MONTH */
  readonly logRetention?: logs.RetentionDays;
}

/** Managed Spark: EMR Serverless application, execution role, job code and run state changes. */
export class LakelineSpark extends Construct {
  public readonly application: emrserverless.CfnApplication;
  /** The role every job run assumes (narrowed per run to one org). */
  public readonly executionRole: iam.Role;
  /** `run_job.py`, the job's entry script. */
  public readonly jobScript: s3assets.Asset;
  /** The zipped `lakeline_spark` package the script imports (`--py-files`). */
  public readonly jobPackage: s3assets.Asset;
  /** Ends runs when their job runs end. */
  public readonly stateChangeFunction: ServiceFunction;
  /** "EMR Serverless Job Run State Change" of this application → the function. */
  public readonly stateChangeRule: events.Rule;
  /** State changes EventBridge could not deliver. */
  public readonly deadLetterQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: LakelineSparkProps) {
    super(scope, id);
    const idle = props.idleTimeoutMinutes ?? 15;
    if (!Number.isInteger(idle) || idle < 1 || idle > 10_080) throw new Error(`${this.node.path}: idleTimeoutMinutes must be 1..10080, got ${idle}`);
    const releaseLabel = props.releaseLabel ?? DEFAULT_RELEASE_LABEL;
    if (!/^emr-7\.\d+\.\d+$/.test(releaseLabel)) throw new Error(`${this.node.path}: releaseLabel must be an EMR 7.x release (Spark 3.5), got ${releaseLabel}`);
    const routes = props.routes ?? ROUTES;
    const bucket = props.warehouse.bucket;

    this.application = new emrserverless.CfnApplication(this, 'Application', {
      name: 'lakeline-spark',
      type: 'Spark',
      releaseLabel,
      architecture: 'ARM64',
      autoStartConfiguration: { enabled: true },
      autoStopConfiguration: { enabled: true, idleTimeoutMinutes: idle },
      maximumCapacity: props.maximumCapacity ?? { cpu: '400 vCPU', memory: '3000 GB', disk: '20000 GB' },
      ...(props.preInitializedCapacity ? { initialCapacity: this.initialCapacity(props.preInitializedCapacity) } : {}),
      // Jobs only: no EMR Studio or Livy endpoint into the application.
      interactiveConfiguration: { studioEnabled: false, livyEndpointEnabled: false },
    });

    const jobsDir = path.join(REPO_ROOT, 'jobs', 'spark');
    this.jobScript = new s3assets.Asset(this, 'JobScript', { path: path.join(jobsDir, 'run_job.py') });
    // The zip's root holds `lakeline_spark/`, so `--py-files` makes the package importable.
    this.jobPackage = new s3assets.Asset(this, 'JobPackage', {
      path: jobsDir,
      exclude: ['*', '!lakeline_spark', '!lakeline_spark/*.py'],
    });

    this.executionRole = this.createExecutionRole(bucket.bucketArn);

    const environment: Record<string, string> = {
      [EMR_APPLICATION_ID_ENV]: this.application.attrApplicationId,
      [EMR_EXECUTION_ROLE_ARN_ENV]: this.executionRole.roleArn,
      [EMR_RELEASE_LABEL_ENV]: releaseLabel,
      [SPARK_JOB_SCRIPT_URI_ENV]: this.jobScript.s3ObjectUrl,
      [SPARK_JOB_PACKAGE_URI_ENV]: this.jobPackage.s3ObjectUrl,
      [SPARK_RUNS_URI_ENV]: props.warehouse.runsUri,
      [WAREHOUSE_URI_ENV]: props.warehouse.warehouseUri,
    };
    const jobRuns = `${this.application.attrArn}/jobruns/*`;

    for (const route of routes.filter((r) => r.spark)) {
      const fn = props.api.functions.get(route.id);
      if (!fn) throw new Error(`${this.node.path}: route ${route.id} is marked spark but has no function`);
      for (const [name, value] of Object.entries(environment)) fn.addEnvironment(name, value);
      if (route.spark === 'submit') {
        fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['emr-serverless:StartJobRun'], resources: [this.application.attrArn] }));
        // Job runs are tagged with their run id when they start.
        fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['emr-serverless:TagResource'], resources: [jobRuns] }));
        this.executionRole.grantPassRole(fn.executionRole);
        fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:PutObject'], resources: [`${bucket.bucketArn}/${RUNS_PREFIX}/*`] }));
        grantLakeRead(fn, bucket.bucketArn, 'reads the input tables\' metadata to check the query and name them in lineage');
        acknowledgeWildcardResource(fn.executionRole, `${bucket.bucketArn}/${RUNS_PREFIX}/*`, 'Each run writes its job spec under runs/<org>/<run id>/, known only at run time; the prefix holds run files only.');
      } else {
        fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['emr-serverless:CancelJobRun'], resources: [jobRuns] }));
      }
      acknowledgeWildcardResource(fn.executionRole, jobRuns, 'Job run ids are assigned by EMR at run time; the wildcard covers the job runs of this one application.');
    }

    this.stateChangeFunction = new ServiceFunction(this, 'StateChange', {
      handlerModule: 'emr-job-state-change',
      timeout: Duration.seconds(60),
      description: 'lakeline: ends runs when their EMR Serverless job runs end',
      environment,
      ...(props.logRetention ? { logRetention: props.logRetention } : {}),
    });
    this.stateChangeFunction
      .bindTable(props.data.table(RUNS_TABLE), 'RW')
      .bindTable(props.data.table(EVENTS_TABLE), 'RW')
      .bindTable(props.data.table(ORGS_TABLE), 'RW'); // metered usage
    this.stateChangeFunction.addToRolePolicy(new iam.PolicyStatement({ actions: ['emr-serverless:GetJobRun'], resources: [jobRuns] }));
    this.stateChangeFunction.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [`${bucket.bucketArn}/${RUNS_PREFIX}/*`] }));
    grantLakeRead(this.stateChangeFunction, bucket.bucketArn, 'describes the output table a run wrote in its COMPLETE lineage event');
    acknowledgeWildcardResource(this.stateChangeFunction.executionRole, jobRuns, 'Job run ids are assigned by EMR at run time; the wildcard covers the job runs of this one application.');
    acknowledgeWildcardResource(this.stateChangeFunction.executionRole, `${bucket.bucketArn}/${RUNS_PREFIX}/*`, 'Reads the result document a run wrote under runs/<org>/<run id>/, known only at run time.');

    this.deadLetterQueue = new sqs.Queue(this, 'StateChangeDeadLetters', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    acknowledge(this.deadLetterQueue, 'AwsSolutions-SQS3', 'This queue is itself the dead-letter queue of the state-change rule; a queue behind it would only move the same undeliverable events again.');

    this.stateChangeRule = new events.Rule(this, 'StateChangeRule', {
      description: 'lakeline: EMR Serverless job runs of the Spark application that ended',
      eventPattern: {
        source: ['aws.emr-serverless'],
        detailType: ['EMR Serverless Job Run State Change'],
        detail: { applicationId: [this.application.attrApplicationId], state: FORWARDED_JOB_RUN_STATES },
      },
      targets: [new targets.LambdaFunction(this.stateChangeFunction, { retryAttempts: 8, maxEventAge: Duration.hours(6), deadLetterQueue: this.deadLetterQueue })],
    });
  }

  /** The role job runs assume: trusted by EMR Serverless for this account's applications only. */
  /** EMR's `InitialCapacity` of the pre-initialized workers, checked. */
  private initialCapacity(capacity: SparkPreInitializedCapacity): emrserverless.CfnApplication.InitialCapacityConfigKeyValuePairProperty[] {
    const drivers = capacity.drivers ?? 1;
    const executors = capacity.executors ?? 1;
    for (const [name, count] of [['drivers', drivers], ['executors', executors]] as const) {
      if (!Number.isInteger(count) || count < 0 || count > 100) throw new Error(`${this.node.path}: preInitializedCapacity.${name} must be 0..100, got ${count}`);
    }
    if (drivers < 1) throw new Error(`${this.node.path}: preInitializedCapacity.drivers must be at least 1: no job starts without a driver`);
    const workerConfiguration = { cpu: capacity.cpu ?? '1 vCPU', memory: capacity.memory ?? '4 GB' };
    return [
      { key: 'DRIVER', value: { workerCount: drivers, workerConfiguration } },
      ...(executors > 0 ? [{ key: 'EXECUTOR', value: { workerCount: executors, workerConfiguration } }] : []),
    ];
  }

  private createExecutionRole(bucketArn: string): iam.Role {
    const stack = Stack.of(this);
    const role = new iam.Role(this, 'ExecutionRole', {
      description: 'lakeline: role of EMR Serverless job runs (narrowed per run to one org by an execution policy)',
      assumedBy: new iam.ServicePrincipal('emr-serverless.amazonaws.com').withConditions({
        StringEquals: { 'aws:SourceAccount': stack.account },
        ArnLike: { 'aws:SourceArn': `arn:${stack.partition}:emr-serverless:${stack.region}:${stack.account}:/applications/*` },
      }),
    });
    const warehouseObjects = `${bucketArn}/${WAREHOUSE_PREFIX}/*`;
    const runObjects = `${bucketArn}/${RUNS_PREFIX}/*`;
    role.addToPolicy(new iam.PolicyStatement({ actions: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload'], resources: [warehouseObjects] }));
    // Listing lets a missing file read as "not found" rather than "access denied" (Iceberg relies on it).
    role.addToPolicy(new iam.PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucketArn] }));
    role.addToPolicy(new iam.PolicyStatement({ actions: ['s3:GetObject', 's3:PutObject'], resources: [runObjects] }));
    role.addToPolicy(
      new iam.PolicyStatement({
        actions: ['s3:GetObject'],
        resources: [this.jobScript, this.jobPackage].map((a) => `arn:${stack.partition}:s3:::${a.s3BucketName}/${a.s3ObjectKey}`),
      }),
    );
    const glue = glueLakeResources(this);
    role.addToPolicy(new iam.PolicyStatement({ actions: [...GLUE_READ, ...GLUE_WRITE], resources: glue.orgs }));
    // Spark looks the `default` database up when a session starts.
    role.addToPolicy(new iam.PolicyStatement({ actions: ['glue:GetDatabase'], resources: [glue.defaultDatabase] }));

    acknowledgeWildcardResource(role, warehouseObjects, 'Job runs read and write Iceberg files of any org under warehouse/; each run is narrowed to its own org\'s prefix by its execution policy.');
    acknowledgeWildcardResource(role, runObjects, 'Job runs read their spec and write their result under runs/<org>/<run id>/; each run is narrowed to its own prefix by its execution policy.');
    for (const resource of glue.orgs.filter((r) => r.includes('*'))) {
      acknowledgeWildcardResource(role, resource, 'Org namespaces are Glue databases org_<id>__<namespace>, created at run time; each run is narrowed to its own org by its execution policy.');
    }
    return role;
  }
}
