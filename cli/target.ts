/**
 * @module target
 * Where the CLI's stores are, per profile. Both profiles build the service's own DynamoDB
 * adapters; only the way to find the tables differs:
 * - local: the running local stack's DynamoDB (endpoint in `<home>/local.json`) when it answers,
 *   else a local DynamoDB started on the home's data for the duration of the command;
 * - aws: the table names and the session secret's ARN from the deployed stack's outputs.
 */
import type { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { KeyStore, OrgStore } from '#domain/orgs/ports';
import type { LineageModelStore, StoredEventSource } from '#domain/lineage-graph/ports';
import { DirectoryBlobStore } from '#adapters/blob/directory-blob-store';
import { S3BlobStore } from '#adapters/blob/s3-blob-store';
import { DynamoEventFeed, DynamoStoredEventSource, ShardedReplayFeed } from '#adapters/dynamodb/event-feed';
import { DynamoLineageModelStore } from '#adapters/dynamodb/lineage-model-store';
import { DynamoFeedWatermarks, feedMarkKeys } from '#adapters/dynamodb/lineage-feed-watermarks';
import { feedSubscribers } from '#composition/subscribers';
import { DynamoAlertStore, ruleStoreOf } from '#adapters/dynamodb/alert-store';
import { FileAlertNotifier } from '#adapters/local/file-alert-notifier';
import { fileClock } from '#adapters/clock';
import { LakeWriterLineageTables } from '#domain/lineage-tables/lake-writer-store';
import type { FeedDirectory } from '#domain/feed/ports';
import { DynamoKeyStore } from '#adapters/dynamodb/key-store';
import { DynamoOrgStore } from '#adapters/dynamodb/org-store';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { S3Client } from '@aws-sdk/client-s3';
import path from 'node:path';
import { LambdaLakeWriter } from '#adapters/aws/lambda-lake-writer';
import { SubprocessLakeWriter } from '#adapters/local/subprocess-lake-writer';
import type { LakeWriter } from '#domain/lake/ports';
import { createDocumentClient, localDynamoClient } from '#adapters/dynamodb/clients';
import { loadConfig, REPO_ROOT, tableName, type LocalConfig } from '#composition/config';
import { DYNAMODB_ENDPOINT_ENV, HOME_ENV, PROFILE_ENV } from '#composition/env-names';
import { ALERTS_TABLE, EVENTS_TABLE, KEYS_TABLE, LINEAGE_TABLE, ORGS_TABLE } from '#shared/table-definitions';
import { startLocalDynamo, type LocalDynamo } from '#local/dynamo';
import { readLocalInfo, sessionSecretFor } from '#local/home';
import { STACK_NAME, STACK_OUTPUTS, tableOutputName } from '../lib/stack-outputs.ts';
import { TargetError } from './target-error.ts';

/** The stores a command works on. */
export interface Target {
  readonly orgs: OrgStore;
  readonly keys: KeyStore;
  /** The secret that signs session cookies; read only when a command needs it. */
  sessionSecret(): Promise<string>;
  /** The lake writer (pyiceberg): a subprocess locally, the stack's Lambda in AWS. */
  lakeWriter(): LakeWriter;
  /** The lineage read model and the stored events it is derived from (`lakeline lineage rebuild`). */
  lineage(): { readonly model: LineageModelStore; readonly storedEvents: StoredEventSource };
  /** The event feed's subscribers, marks and stored order (`lakeline feed replay`). */
  feed(): FeedDirectory;
  /** The organization commands act for when none is given: the local stack's demo org. */
  readonly defaultOrgId?: string;
  /** Releases clients and stops anything the target started. */
  close(): Promise<void>;
}


/** How long the CLI waits for a running stack's DynamoDB before deciding it is not running. */
const PROBE_TIMEOUT_MS = 1_500;

/**
 * Whether a local DynamoDB answers at `endpoint` and holds the orgs table: the endpoint in
 * local.json may be stale (the stack was killed) or, worse, reused by an unrelated server.
 */
const localStoreAnswers = async (endpoint: string, orgsTable: string): Promise<boolean> => {
  const client = new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
    requestHandler: new NodeHttpHandler({ connectionTimeout: PROBE_TIMEOUT_MS, requestTimeout: PROBE_TIMEOUT_MS }),
  });
  try {
    const out = await client.send(new DescribeTableCommand({ TableName: orgsTable }));
    return out.Table?.TableStatus === 'ACTIVE';
  } catch {
    return false;
  } finally {
    client.destroy();
  }
};

/** The local profile's configuration for a home and store, the way the local handlers read it. */
const localConfig = (home: string, endpoint: string): LocalConfig =>
  loadConfig({ ...process.env, [PROFILE_ENV]: 'local', [HOME_ENV]: home, [DYNAMODB_ENDPOINT_ENV]: endpoint }) as LocalConfig;

/** Table names the way the local handlers compute them (same config code, same env overrides). */
const localTableNames = (home: string, endpoint: string) => {
  const config = localConfig(home, endpoint);
  return { orgs: tableName(config, ORGS_TABLE), keys: tableName(config, KEYS_TABLE), events: tableName(config, EVENTS_TABLE), lineage: tableName(config, LINEAGE_TABLE), alerts: tableName(config, ALERTS_TABLE) };
};

/** Opens the local profile's stores for a home directory. */
export const openLocalTarget = async (home: string): Promise<Target> => {
  const running = readLocalInfo(home)?.dynamodbEndpoint;
  let started: LocalDynamo | undefined;
  let endpoint: string;
  if (running && (await localStoreAnswers(running, localTableNames(home, running).orgs))) {
    endpoint = running;
  } else {
    try {
      started = await startLocalDynamo(home);
    } catch (err) {
      throw new TargetError(`cannot open the local store in ${home}: ${(err as Error).message}`, { cause: err });
    }
    endpoint = started.endpoint;
  }
  const names = localTableNames(home, endpoint);
  const client = localDynamoClient(endpoint);
  const doc = createDocumentClient(client);
  const config = localConfig(home, endpoint);
  const defaultOrgId = readLocalInfo(home)?.orgId;
  return {
    orgs: new DynamoOrgStore(doc, names.orgs),
    keys: new DynamoKeyStore(doc, names.keys),
    sessionSecret: async () => sessionSecretFor(home),
    lakeWriter: () => new SubprocessLakeWriter(config.lake.pythonBin, REPO_ROOT, home),
    lineage: () => ({
      model: new DynamoLineageModelStore(doc, names.lineage),
      storedEvents: new DynamoStoredEventSource(doc, names.events, () => new DirectoryBlobStore(path.join(home, 'blobs'))),
    }),
    feed: () => {
      // The receipt index is the stored order locally, and its last entry the head.
      const events = new DynamoEventFeed(doc, names.events, () => new DirectoryBlobStore(path.join(home, 'blobs')));
      const model = new DynamoLineageModelStore(doc, names.lineage);
      // Alert evaluation as the local stack wires it (`composition/local.ts`): its notices go to the same file.
      const alertStore = new DynamoAlertStore(doc, names.alerts);
      const alerts = () => ({
        alerts: alertStore,
        memory: alertStore,
        rules: ruleStoreOf(alertStore),
        notifier: new FileAlertNotifier(path.join(home, 'alert-notices.jsonl')),
        clock: fileClock(config.alerts.clockFile),
        lineage: model,
      });
      const lineageTables = () => new LakeWriterLineageTables(new SubprocessLakeWriter(config.lake.pythonBin, REPO_ROOT, home));
      return { subscribers: feedSubscribers({ lineageModel: () => model, alerts, lineageTables }), head: events, events, applied: (name) => new DynamoFeedWatermarks(doc, names.lineage, feedMarkKeys.applied(name)) };
    },
    ...(defaultOrgId ? { defaultOrgId } : {}),
    close: async () => {
      client.destroy();
      await started?.stop();
    },
  };
};

/** What the CLI needs from the deployed stack's outputs. */
export interface StackTables {
  readonly orgsTable: string;
  readonly keysTable: string;
  readonly sessionSecretArn: string;
  /** The tables and bucket `lineage rebuild` reads (stacks deployed before issue 14 have no Lineage table). */
  readonly lineage?: { readonly eventsTable: string; readonly lineageTable: string; readonly blobBucket: string };
  /** The lake writer function (stacks deployed before the lake construct have none). */
  readonly lakeWriterFunction?: string;
}

/** Reads the table names and secret ARN from a stack's CloudFormation outputs. */
export const readStackOutputs = async (cloudFormation: CloudFormationClient, stackName: string): Promise<StackTables> => {
  const { DescribeStacksCommand } = await import('@aws-sdk/client-cloudformation');
  let outputs: Record<string, string>;
  try {
    const out = await cloudFormation.send(new DescribeStacksCommand({ StackName: stackName }));
    const stack = out.Stacks?.[0];
    if (!stack) throw new TargetError(`stack ${stackName} was not found`);
    outputs = Object.fromEntries((stack.Outputs ?? []).flatMap((o) => (o.OutputKey && o.OutputValue ? [[o.OutputKey, o.OutputValue]] : [])));
  } catch (err) {
    if (err instanceof TargetError) throw err;
    const region = await cloudFormation.config.region().catch(() => undefined);
    const where = region ? ` in region ${region}` : '';
    if ((err as { name?: string }).name === 'ValidationError' && /does not exist/i.test((err as Error).message)) {
      throw new TargetError(`stack ${stackName} does not exist${where}; deploy it with \`npx cdk deploy\`, or pass --stack / --region`, { cause: err });
    }
    if (/region is missing/i.test((err as Error).message)) {
      throw new TargetError('no AWS region configured; pass --region or set AWS_REGION', { cause: err });
    }
    throw new TargetError(`cannot read stack ${stackName}${where}: ${(err as Error).message}`, { cause: err });
  }
  const need = (name: string): string => {
    const value = outputs[name];
    if (!value) throw new TargetError(`stack ${stackName} has no output ${name}; is it a lakeline stack deployed by this version?`);
    return value;
  };
  return {
    orgsTable: need(tableOutputName(ORGS_TABLE)),
    keysTable: need(tableOutputName(KEYS_TABLE)),
    sessionSecretArn: need(STACK_OUTPUTS.sessionSecretArn),
    ...(outputs[STACK_OUTPUTS.lakeWriterFunctionName] ? { lakeWriterFunction: outputs[STACK_OUTPUTS.lakeWriterFunctionName] } : {}),
    ...(outputs[tableOutputName(LINEAGE_TABLE)]
      ? { lineage: { eventsTable: need(tableOutputName(EVENTS_TABLE)), lineageTable: need(tableOutputName(LINEAGE_TABLE)), blobBucket: need(STACK_OUTPUTS.blobBucketName) } }
      : {}),
  };
};

/** Options of {@link openAwsTarget}. */
export interface AwsTargetOptions {
  /** @default STACK_NAME (`Lakeline`) */
  readonly stack?: string;
  /** @default the SDK's default region */
  readonly region?: string;
}

/** Opens the deployed stack's stores. */
export const openAwsTarget = async (options: AwsTargetOptions): Promise<Target> => {
  // Loaded on demand: the local profile never needs these clients.
  const { CloudFormationClient } = await import('@aws-sdk/client-cloudformation');
  const regionOption = options.region ? { region: options.region } : {};
  const cloudFormation = new CloudFormationClient({ ...regionOption, maxAttempts: 3 });
  let tables: StackTables;
  let region: string;
  try {
    tables = await readStackOutputs(cloudFormation, options.stack ?? STACK_NAME);
    // The tables live where the stack is, whatever the default region of later clients would be.
    region = await cloudFormation.config.region();
  } finally {
    cloudFormation.destroy();
  }
  const client = new DynamoDBClient({ region, maxAttempts: 3 });
  const doc = createDocumentClient(client);
  let secret: Promise<string> | undefined;
  return {
    orgs: new DynamoOrgStore(doc, tables.orgsTable),
    keys: new DynamoKeyStore(doc, tables.keysTable),
    sessionSecret: () => (secret ??= fetchSecret(region, tables.sessionSecretArn)),
    lakeWriter: () => {
      if (!tables.lakeWriterFunction) throw new TargetError(`stack ${options.stack ?? STACK_NAME} has no output ${STACK_OUTPUTS.lakeWriterFunctionName}; redeploy it with this version`);
      return new LambdaLakeWriter(new LambdaClient({ region, maxAttempts: 3 }), tables.lakeWriterFunction);
    },
    lineage: () => {
      const names = tables.lineage;
      if (!names) throw new TargetError(`stack ${options.stack ?? STACK_NAME} has no output ${tableOutputName(LINEAGE_TABLE)}; redeploy it with this version`);
      return {
        model: new DynamoLineageModelStore(doc, names.lineageTable),
        storedEvents: new DynamoStoredEventSource(doc, names.eventsTable, () => new S3BlobStore(new S3Client({ region, maxAttempts: 3 }), names.blobBucket)),
      };
    },
    feed: () => {
      const names = tables.lineage;
      if (!names) throw new TargetError(`stack ${options.stack ?? STACK_NAME} has no output ${tableOutputName(LINEAGE_TABLE)}; redeploy it with this version`);
      const model = new DynamoLineageModelStore(doc, names.lineageTable);
      const head = new DynamoFeedWatermarks(doc, names.lineageTable, feedMarkKeys.head);
      // No receipt index in AWS: a replay reads the org's events shard by shard (ADR 0045).
      const source = new DynamoStoredEventSource(doc, names.eventsTable, () => new S3BlobStore(new S3Client({ region, maxAttempts: 3 }), names.blobBucket));
      return {
        subscribers: feedSubscribers({ lineageModel: () => model }),
        head: { newest: (orgId) => head.read(orgId) },
        events: new ShardedReplayFeed(source),
        applied: (name) => new DynamoFeedWatermarks(doc, names.lineageTable, feedMarkKeys.applied(name)),
      };
    },
    close: async () => client.destroy(),
  };
};

const fetchSecret = async (region: string, arn: string): Promise<string> => {
  const { GetSecretValueCommand, SecretsManagerClient } = await import('@aws-sdk/client-secrets-manager');
  const client = new SecretsManagerClient({ region, maxAttempts: 3 });
  try {
    const out = await client.send(new GetSecretValueCommand({ SecretId: arn }));
    if (!out.SecretString) throw new TargetError(`the session secret ${arn} is empty`);
    return out.SecretString;
  } catch (err) {
    if (err instanceof TargetError) throw err;
    throw new TargetError(`cannot read the session secret ${arn}: ${(err as Error).message}`, { cause: err });
  } finally {
    client.destroy();
  }
};
