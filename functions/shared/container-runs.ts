/**
 * @module container-runs
 * The composition root of runs (managed Spark and the runs API), beside `container.ts`: the run
 * store, the Spark engine (a supervised local `spark-submit`, or EMR Serverless), and the
 * dependencies of the run use cases. Every part is built on first use, so a function touches only
 * what its use case reads (the runs API never builds an engine).
 */
import { EMRServerlessClient } from '@aws-sdk/client-emr-serverless';
import { S3Client } from '@aws-sdk/client-s3';
import { randomUUID } from 'node:crypto';
import { EmrRunObserver } from '#adapters/aws/emr-serverless-events';
import { EmrServerlessEngine } from '#adapters/aws/emr-serverless';
import { DynamoRunStore } from '#adapters/dynamodb/run-store';
import { LocalSparkEngine } from '#adapters/local/spark-submit';
import { ServiceUnavailableError } from '#domain/errors';
import { EventStoreLineageSink } from '#domain/lineage-capture/event-store-sink';
import type { RunDeps } from '#domain/runs/deps';
import { finishRun } from '#domain/runs/finish';
import { startRun } from '#domain/runs/start';
import type { RunStore, SparkEngine } from '#domain/runs/ports';
import { getConfig, REPO_ROOT, tableName, type Config } from './config.ts';
import { documentClient, eventStore, orgStore } from './container.ts';
import { catalog, lakeStorage } from './container-lake.ts';
import { logger } from './observability.ts';
import { once } from './once.ts';
import { RUNS_TABLE } from './table-definitions.ts';

const need = (value: string | undefined, what: string): string => {
  if (!value) throw new Error(`configuration: ${what} is not bound to this function`);
  return value;
};

/** The run store. */
export const runStore = once((): RunStore => new DynamoRunStore(documentClient(), tableName(getConfig(), RUNS_TABLE)));

const emrEngine = (config: Config): SparkEngine =>
  new EmrServerlessEngine(new EMRServerlessClient({}), new S3Client({}), {
    applicationId: need(config.spark.applicationId, 'the EMR Serverless application'),
    executionRoleArn: need(config.spark.executionRoleArn, 'the EMR execution role'),
    releaseLabel: need(config.spark.releaseLabel, 'the EMR release label'),
    jobScriptUri: need(config.spark.jobScriptUri, 'the Spark job script'),
    jobPackageUri: need(config.spark.jobPackageUri, 'the Spark job package'),
    runsUri: need(config.spark.runsUri, 'the Spark runs location'),
    warehouseUri: need(config.lake.warehouse, 'the warehouse'),
  });

/**
 * The Spark engine. Locally its child processes report their own end, straight into the same
 * `finishRun` use case the EMR state-change function calls.
 */
export const sparkEngine = once((): SparkEngine => {
  const config = getConfig();
  if (config.profile === 'aws') return emrEngine(config);
  try {
    return localEngine(config);
  } catch (err) {
    // pyspark or the jars are missing: the caller can do nothing about it, but may retry later.
    throw new ServiceUnavailableError(`Managed Spark is not available on this machine: ${(err as Error).message}`, { cause: err });
  }
});

const localEngine = (config: Config): SparkEngine =>
  new LocalSparkEngine({
    home: config.home,
    catalogFile: need(config.lake.catalogFile, 'the catalog file'),
    warehouse: need(config.lake.warehouse, 'the warehouse'),
    pythonBin: need(config.lake.pythonBin, 'the Python interpreter'),
    repoRoot: REPO_ROOT,
    ...(config.spark.maxCores === undefined ? {} : { maxCores: config.spark.maxCores }),
    ...(config.spark.maxMemoryMb === undefined ? {} : { maxMemoryMb: config.spark.maxMemoryMb }),
    ...(config.spark.maxConcurrent === undefined ? {} : { maxConcurrent: config.spark.maxConcurrent }),
    onOutcome: async (runId, outcome) => {
      await finishRun(runDeps(), runId, outcome);
    },
    onStarted: async (runId, handle) => {
      await startRun(runDeps(), runId, handle);
    },
    log: (message, fields) => logger.warn(message, fields),
  });

/** Reads EMR job runs for the state-change function. */
export const emrRunObserver = once(() => new EmrRunObserver(new EMRServerlessClient({}), new S3Client({})));

/**
 * Dependencies of the run use cases. Members resolve on first access, so reading a run needs no
 * engine and aborting needs no catalog.
 */
export const runDeps = once((): RunDeps => {
  const aws = getConfig().profile === 'aws';
  const lineage = once(() => new EventStoreLineageSink(eventStore()));
  return {
    get runs() {
      return runStore();
    },
    get orgs() {
      return orgStore();
    },
    get catalog() {
      return catalog();
    },
    get storage() {
      return lakeStorage();
    },
    get engine() {
      return sparkEngine();
    },
    get lineage() {
      return lineage();
    },
    meteredByPlatform: aws,
    warn: (message, fields) => logger.warn(message, fields),
    now: () => new Date(),
    newRunId: () => randomUUID(),
  };
});
