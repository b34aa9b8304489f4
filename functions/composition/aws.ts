/**
 * @module aws
 * The AWS profile's wiring, top to bottom: each group of ports built from the AWS adapters
 * (DynamoDB, S3, Secrets Manager, Glue, the lake writer Lambda, DuckDB with httpfs, EMR Serverless,
 * the polars sandbox Lambdas and Fargate queues with STS credentials, Athena). A Lambda function is
 * given only the settings of what it is granted, so a builder names the variable it misses when a
 * handler reaches a port its function was not bound to.
 */
import { AthenaClient } from '@aws-sdk/client-athena';
import { EMRServerlessClient } from '@aws-sdk/client-emr-serverless';
import { GlueClient } from '@aws-sdk/client-glue';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { S3Client } from '@aws-sdk/client-s3';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SQSClient } from '@aws-sdk/client-sqs';
import { STSClient } from '@aws-sdk/client-sts';
import { AthenaBloomEngine } from '#adapters/aws/athena-bloom';
import { AwsPolarsSandbox } from '#adapters/aws/aws-polars-sandbox';
import { EmrRunObserver } from '#adapters/aws/emr-serverless-events';
import { EmrServerlessEngine } from '#adapters/aws/emr-serverless';
import { FargateSandboxTransport } from '#adapters/aws/fargate-polars-transport';
import { GlueCatalog } from '#adapters/aws/glue-catalog';
import { LambdaLakeWriter } from '#adapters/aws/lambda-lake-writer';
import { LambdaSandboxTransport } from '#adapters/aws/lambda-sandbox-transport';
import type { SandboxTransport } from '#adapters/aws/polars-sandbox-transport';
import { S3LakeStorage } from '#adapters/aws/s3-lake-storage';
import { StsSandboxCredentialIssuer } from '#adapters/aws/sts-sandbox-credentials';
import { S3BlobStore } from '#adapters/blob/s3-blob-store';
import { DuckDBQueryEngine, hostCapacity, type DuckDBEngineOptions } from '#adapters/duckdb/engine';
import { DuckDBManifestReader } from '#adapters/duckdb/manifest-reader';
import { s3SecretStatements } from '#adapters/duckdb/s3-secret';
import { awsDynamoClient, createDocumentClient } from '#adapters/dynamodb/clients';
import { DynamoStoredEventSource, eventsOf, ShardedReplayFeed } from '#adapters/dynamodb/event-feed';
import { DynamoAlertStore, ruleStoreOf } from '#adapters/dynamodb/alert-store';
import { systemClock } from '#adapters/clock';
import { DynamoEventStore } from '#adapters/dynamodb/event-store';
import { DynamoKeyStore } from '#adapters/dynamodb/key-store';
import { DynamoFeedWatermarks, feedMarkKeys } from '#adapters/dynamodb/lineage-feed-watermarks';
import { DynamoLineageModelStore } from '#adapters/dynamodb/lineage-model-store';
import { recordCacheEntriesFor } from '#adapters/dynamodb/lineage-record-cache';
import { DynamoOrgStore } from '#adapters/dynamodb/org-store';
import { DynamoRunStore } from '#adapters/dynamodb/run-store';
import { SqsDeliveryQueue } from '#adapters/aws/sqs-delivery-queue';
import { DynamoNotificationStore } from '#adapters/dynamodb/notification-store';
import { GuardedWebhookSender, systemResolver } from '#adapters/http/webhook-sender';
import { EventStoreLineageSink } from '#domain/lineage-capture/event-store-sink';
import type { AddressPolicy } from '#domain/notifications/address-policy';
import { QueueingNotifier } from '#domain/notifications/notifier';
import { logger } from '#shared/observability';
import { ALERTS_TABLE, EVENTS_TABLE, KEYS_TABLE, LINEAGE_TABLE, NOTIFICATIONS_TABLE, ORGS_TABLE, RUNS_TABLE } from '#shared/table-definitions';
import { tableName, type AwsConfig } from './config.ts';
import {
  BLOB_BUCKET_ENV,
  BLOOM_WORKGROUP_ENV,
  EMR_APPLICATION_ID_ENV,
  EMR_EXECUTION_ROLE_ARN_ENV,
  EMR_RELEASE_LABEL_ENV,
  feedQueueEnv,
  LAKE_WRITER_FUNCTION_ENV,
  NOTIFICATIONS_QUEUE_URL_ENV,
  POLARS_DATA_ROLE_ENV,
  POLARS_RESULTS_BUCKET_ENV,
  POLARS_RESULTS_PREFIX_ENV,
  POLARS_STAGING_URI_ENV,
  SESSION_SECRET_ARN_ENV,
  SPARK_JOB_PACKAGE_URI_ENV,
  SPARK_JOB_SCRIPT_URI_ENV,
  SPARK_RUNS_URI_ENV,
  WAREHOUSE_URI_ENV,
} from './env-names.ts';
import { builtOnFirstUse, lazily, lazilyUntilFailed } from './lazy.ts';
import { feedSubscribers } from './subscribers.ts';
import { LakeWriterLineageTables } from '#domain/lineage-tables/lake-writer-store';
import type { AlertNotifier } from '#domain/notifications/ports';
import type { AlertPorts, BloomPorts, FeedGroups, FeedPorts, LakePorts, LineageGraphPorts, NotificationPorts, PlatformHooks, PlatformPorts, PolarsPorts, SparkHooks, SparkPorts } from './ports.ts';

/** A setting the deployment binds only to some functions; reaching for it elsewhere names the variable. */
const bound = (value: string | undefined, variable: string): string => {
  if (!value) throw new Error(`configuration: ${variable} is not set for this function (it is not granted what needs it)`);
  return value;
};

// SDK clients shared by the groups of one function (the SDK resolves region, credentials and any
// emulator endpoint from the standard environment).
const s3 = /* @__PURE__ */ lazily(() => new S3Client({}));
const lambda = /* @__PURE__ */ lazily(() => new LambdaClient({}));
const emr = /* @__PURE__ */ lazily(() => new EMRServerlessClient({}));
const documents = /* @__PURE__ */ lazily(() => createDocumentClient(awsDynamoClient()));
/** For single-event writes (`cacheMiddleware`; adapters/dynamodb/clients.ts). */
const putClient = /* @__PURE__ */ lazily(() => awsDynamoClient({ cacheMiddleware: true }));

/** The blob bucket of large event bodies (one per function). */
const eventBlobs = (config: AwsConfig) => lazily(() => new S3BlobStore(s3(), bound(config.blobBucket, BLOB_BUCKET_ENV)));

/** Orgs, keys, sessions and events on DynamoDB; large event bodies in the blob bucket. The events table's stream feeds the lineage model, so no hook is called. */
export const platform = (config: AwsConfig, _hooks: PlatformHooks): PlatformPorts => {
  const blobs = eventBlobs(config);
  const events = lazily(() => new DynamoEventStore(documents(), tableName(config, EVENTS_TABLE), blobs, { putClient: putClient() }));
  return builtOnFirstUse<PlatformPorts>({
    orgs: () => new DynamoOrgStore(documents(), tableName(config, ORGS_TABLE)),
    keys: () => new DynamoKeyStore(documents(), tableName(config, KEYS_TABLE)),
    events,
    lineage: () => new EventStoreLineageSink(events()),
    sessionSecret: () =>
      lazilyUntilFailed(async () => {
        const out = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: bound(config.sessionSecretArn, SESSION_SECRET_ARN_ENV) }));
        if (!out.SecretString) throw new Error('configuration: the session secret is empty');
        return out.SecretString;
      }),
  });
};

/** The lineage read model on DynamoDB; the feed keeps it up to date (its subscriber Lambda: `handlers/lineage-model-consumer.ts`). */
export const lineageGraph = (config: AwsConfig, _platform: () => PlatformPorts): LineageGraphPorts => {
  const blobs = eventBlobs(config);
  return builtOnFirstUse<LineageGraphPorts>({
    model: () =>
      new DynamoLineageModelStore(documents(), tableName(config, LINEAGE_TABLE), config.lambdaMemoryMb === undefined ? {} : { records: { maxEntries: recordCacheEntriesFor(config.lambdaMemoryMb) } }),
    storedEvents: () => new DynamoStoredEventSource(documents(), tableName(config, EVENTS_TABLE), blobs),
    blobs,
  });
};

/**
 * The event feed in AWS (ADR 0045): the Events stream's fan-out sends to a queue per subscriber
 * and writes the head; marks live in the Lineage table's META partitions; a replay reads the org's
 * events shard by shard (the table has no receipt index in AWS).
 */
export const feed = (config: AwsConfig, groups: FeedGroups): FeedPorts => {
  const marks = (sortKey: string) => new DynamoFeedWatermarks(documents(), tableName(config, LINEAGE_TABLE), sortKey);
  const subscribers = lazily(() =>
    feedSubscribers(
      {
        lineageModel: () => groups.lineageGraph().model,
        alerts: () => ({ ...groups.alerts(), lineage: groups.lineageGraph().model }),
        // Only where the lake writer is bound (the lineage tables' subscriber Lambda, the fan-out and the CLI read the list).
        lineageTables: config.lake.lakeWriterFunction === undefined ? undefined : lazily(() => new LakeWriterLineageTables(new LambdaLakeWriter(lambda(), config.lake.lakeWriterFunction as string))),
      },
      {
        onLineageApplied: (orgId, summary) => logger.info('lineage events applied', { orgId, ...summary }),
        onLineageExported: (orgId, outcome) => logger.info('lineage tables exported', { orgId, ...outcome }),
      },
    ),
  );
  const blobs = eventBlobs(config);
  return builtOnFirstUse<FeedPorts>({
    directory: () => {
      const head = marks(feedMarkKeys.head);
      return {
        subscribers: subscribers(),
        head: { newest: (orgId) => head.read(orgId) },
        applied: (name) => marks(feedMarkKeys.applied(name)),
        events: new ShardedReplayFeed(new DynamoStoredEventSource(documents(), tableName(config, EVENTS_TABLE), blobs)),
      };
    },
    inProcess: () => undefined,
    byKeys: () => (keys) => eventsOf(documents(), tableName(config, EVENTS_TABLE), blobs, keys, true),
    fanOut: () => {
      const queues = Object.fromEntries(subscribers().flatMap((s) => (config.feedQueues[feedQueueEnv(s.name)] === undefined ? [] : [[s.name, config.feedQueues[feedQueueEnv(s.name)] as string]])));
      return { sqs: new SQSClient({}), queues, head: marks(feedMarkKeys.head) };
    },
  });
};

/**
 * Alerts on DynamoDB. The notifier writes each notice to the log until notifications (webhooks,
 * Slack through SQS) take its place; the clock is the machine's.
 */
export const alerts = (config: AwsConfig, notifier: () => AlertNotifier): AlertPorts => {
  const store = lazily(() => new DynamoAlertStore(documents(), tableName(config, ALERTS_TABLE)));
  return builtOnFirstUse<AlertPorts>({
    alerts: store,
    memory: store,
    rules: () => ruleStoreOf(store()),
    notifier: () => {
      const queued = notifier();
      return {
        notify: async (notice) => {
          await queued.notify(notice);
          logger.info('alert notice', { orgId: notice.orgId, alertId: notice.alertId, kind: notice.kind, transition: notice.transition, sequence: notice.sequence });
        },
      };
    },
    clock: () => systemClock,
  });
};

/** DuckDB in the function: the layer's extensions plus httpfs, reading S3 with the function's role. */
const duckdbOptions = (config: AwsConfig): DuckDBEngineOptions => ({
  extensionDir: config.lake.duckdbExtensionDir,
  extraExtensions: ['httpfs'],
  setupStatements: () => s3SecretStatements(config.awsEndpoints.s3),
  host: hostCapacity(config.lambdaMemoryMb),
});

/** Glue catalog, S3 warehouse, the lake writer Lambda, DuckDB. */
export const lake = (config: AwsConfig): LakePorts =>
  builtOnFirstUse<LakePorts>({
    catalog: () => new GlueCatalog(new GlueClient({})),
    storage: () => new S3LakeStorage(s3()),
    writer: () => new LambdaLakeWriter(lambda(), bound(config.lake.lakeWriterFunction, LAKE_WRITER_FUNCTION_ENV)),
    lineageTables: () => new LakeWriterLineageTables(new LambdaLakeWriter(lambda(), bound(config.lake.lakeWriterFunction, LAKE_WRITER_FUNCTION_ENV))),
    hasWriter: () => config.lake.lakeWriterFunction !== undefined,
    duckdb: () => new DuckDBQueryEngine(duckdbOptions(config)),
    manifests: () => new DuckDBManifestReader(duckdbOptions(config)),
    // The lake writer Lambda cannot read this function's /tmp, so autosave has no scratch space.
    scratch: () => undefined,
    catalogKind: () => 'glue',
  });

/** Runs on DynamoDB, Spark on EMR Serverless; EMR bills runs and reports their ends through EventBridge. */
export const spark = (config: AwsConfig, _hooks: SparkHooks): SparkPorts =>
  builtOnFirstUse<SparkPorts>({
    runs: () => new DynamoRunStore(documents(), tableName(config, RUNS_TABLE)),
    engine: () =>
      new EmrServerlessEngine(emr(), s3(), {
        applicationId: bound(config.spark.applicationId, EMR_APPLICATION_ID_ENV),
        executionRoleArn: bound(config.spark.executionRoleArn, EMR_EXECUTION_ROLE_ARN_ENV),
        releaseLabel: bound(config.spark.releaseLabel, EMR_RELEASE_LABEL_ENV),
        jobScriptUri: bound(config.spark.jobScriptUri, SPARK_JOB_SCRIPT_URI_ENV),
        jobPackageUri: bound(config.spark.jobPackageUri, SPARK_JOB_PACKAGE_URI_ENV),
        runsUri: bound(config.spark.runsUri, SPARK_RUNS_URI_ENV),
        warehouseUri: bound(config.lake.warehouse, WAREHOUSE_URI_ENV),
      }),
    meteredByPlatform: () => true,
    stateReports: () => new EmrRunObserver(emr(), s3(), bound(config.spark.applicationId, EMR_APPLICATION_ID_ENV)),
  });

/**
 * The per-tier sandboxes: Lambdas for 2 and 4 vCPUs, Fargate queues for 8 and 16 where provisioned,
 * each run given credentials STS issues on the sandbox data role, scoped to the run's tables.
 */
export const polars = (config: AwsConfig): PolarsPorts =>
  builtOnFirstUse<PolarsPorts>({
    sandbox: () => {
      const transports: Record<number, SandboxTransport> = {};
      for (const [tier, name] of Object.entries(config.polars.lambdaFunctions)) transports[Number(tier)] = new LambdaSandboxTransport(lambda(), name, Number(tier));
      const sqs = new SQSClient({});
      for (const [tier, queueUrl] of Object.entries(config.polars.fargateQueues)) {
        transports[Number(tier)] = new FargateSandboxTransport(sqs, s3(), {
          vcpus: Number(tier),
          queueUrl,
          bucket: bound(config.polars.resultsBucket, POLARS_RESULTS_BUCKET_ENV),
          prefix: bound(config.polars.resultsPrefix, POLARS_RESULTS_PREFIX_ENV),
        });
      }
      const stagingUri = bound(config.polars.stagingUri, POLARS_STAGING_URI_ENV);
      const issuer = new StsSandboxCredentialIssuer(new STSClient({}), {
        roleArn: bound(config.polars.dataRoleArn, POLARS_DATA_ROLE_ENV),
        warehouseUri: bound(config.lake.warehouse, WAREHOUSE_URI_ENV),
        stagingUri,
      });
      return new AwsPolarsSandbox(transports, issuer, { stagingUri });
    },
  });

/** bloom is Athena, configured where the function is bound to its workgroup; it has no server to start or stop. */
export const bloom = (config: AwsConfig): BloomPorts =>
  builtOnFirstUse<BloomPorts>({
    availability: () => (config.bloom.workgroup ? { configured: true } : { configured: false, why: 'no Athena workgroup is bound to this function' }),
    engine: () =>
      new AthenaBloomEngine(new AthenaClient({}), {
        workGroup: bound(config.bloom.workgroup, BLOOM_WORKGROUP_ENV),
        warehouseUri: bound(config.lake.warehouse, WAREHOUSE_URI_ENV),
      }),
    // Members that are functions: each builder returns the function.
    warm: () => () => undefined,
    stop: () => async () => undefined,
  });

/** In AWS no destination may be a private, loopback, link-local or metadata address (ADR 0054). */
const AWS_ADDRESS_POLICY: AddressPolicy = { allowLoopback: false };

/**
 * Alert notifications: destinations and the delivery log in the Notifications table; deliveries on
 * the SQS FIFO queue, delivered by its Lambda (`handlers/deliver-notifications.ts`, ADR 0054).
 */
export const notifications = (config: AwsConfig): NotificationPorts => {
  const store = lazily(() => new DynamoNotificationStore(documents(), tableName(config, NOTIFICATIONS_TABLE)));
  const queue = lazily(() => new SqsDeliveryQueue(new SQSClient({}), bound(config.notifications.queueUrl, NOTIFICATIONS_QUEUE_URL_ENV)));
  return builtOnFirstUse<NotificationPorts>({
    store,
    queue,
    sender: () => new GuardedWebhookSender(AWS_ADDRESS_POLICY, systemResolver),
    resolver: () => systemResolver,
    policy: () => AWS_ADDRESS_POLICY,
    notifier: () => new QueueingNotifier({ store: store(), queue: queue(), now: () => new Date() }),
    worker: () => undefined,
    postpone: () => (receiptHandle, seconds) => queue().postpone(receiptHandle, seconds),
  });
};
