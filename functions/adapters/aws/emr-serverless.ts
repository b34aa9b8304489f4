/**
 * @module emr-serverless
 * The AWS SparkEngine: EMR Serverless `StartJobRun` of the same job script the local profile runs,
 * with the org's Glue catalog. The job spec is written to S3 first (SQL can be longer than a job
 * argument may be); the job writes its result document next to it. Runs end through EventBridge
 * ("EMR Serverless Job Run State Change" → `handlers/emr-job-state-change.ts`), so nothing here
 * waits for a run.
 */
import { CancelJobRunCommand, StartJobRunCommand, type EMRServerlessClient } from '@aws-sdk/client-emr-serverless';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { catalogNameForOrg } from '#domain/core/names';
import { jobSpecDocument } from '#domain/runs/job-spec';
import type { SparkResourceRequest } from '#domain/core/machine-types';
import type { SparkEngine, SparkJob, SparkSubmission } from '#domain/runs/ports';
import type { ComputeUsed, EngineHandle, RunOutcome } from '#domain/runs/run';
import { runExecutionPolicy } from './emr-serverless-policy.ts';
import { emrCompute } from './emr-serverless-sizing.ts';

/** The Iceberg runtime every EMR 7.x release ships. */
export const EMR_ICEBERG_JAR = '/usr/share/aws/iceberg/lib/iceberg-spark3-runtime.jar';

/** Tags on each job run: the run id (also the job run's name) and where its result lands. */
export const RUN_ID_TAG = 'lakeline-run-id';
export const RESULT_URI_TAG = 'lakeline-result-uri';

/** Settings of the EMR engine (from the function's environment, set by `lib/spark.ts`). */
export interface EmrServerlessOptions {
  readonly applicationId: string;
  readonly executionRoleArn: string;
  readonly releaseLabel: string;
  /** `s3://bucket/key` of `run_job.py`. */
  readonly jobScriptUri: string;
  /** `s3://bucket/key` of the zipped `lakeline_spark` package. */
  readonly jobPackageUri: string;
  /** `s3://bucket/prefix` under which each run gets `<org catalog>/<run id>/`. */
  readonly runsUri: string;
  /** `s3://bucket/prefix` of the warehouse. */
  readonly warehouseUri: string;
  /** A run longer than this is cancelled by EMR (and ends ABORT). @default 720 (12 h) */
  readonly executionTimeoutMinutes?: number;
}

/** Splits `s3://bucket/key` into its parts. */
export const parseS3Uri = (uri: string): { bucket: string; key: string } => {
  const match = /^s3a?:\/\/([^/]+)\/?(.*)$/.exec(uri);
  if (!match) throw new Error(`not an S3 URI: ${uri}`);
  return { bucket: match[1] as string, key: (match[2] ?? '').replace(/\/+$/, '') };
};

/** EMR Serverless-backed {@link SparkEngine}. */
export class EmrServerlessEngine implements SparkEngine {
  readonly platform = 'emr-serverless';
  readonly version: string;

  constructor(
    private readonly emr: EMRServerlessClient,
    private readonly s3: S3Client,
    private readonly options: EmrServerlessOptions,
  ) {
    this.version = options.releaseLabel;
  }

  size(request: SparkResourceRequest): ComputeUsed {
    return emrCompute(request);
  }

  /** EMR queues a job run until the application has capacity; its RUNNING state change starts the run. */
  async submit(job: SparkJob): Promise<SparkSubmission> {
    const orgCatalog = catalogNameForOrg(job.orgId);
    const runs = parseS3Uri(this.options.runsUri);
    const runPrefix = `${runs.key ? `${runs.key}/` : ''}${orgCatalog}/${job.runId}`;
    const specUri = `s3://${runs.bucket}/${runPrefix}/job.json`;
    const resultUri = `s3://${runs.bucket}/${runPrefix}/result.json`;
    const spec = jobSpecDocument(job, { type: 'glue', warehouseRoot: this.options.warehouseUri }, resultUri);
    await this.s3.send(new PutObjectCommand({ Bucket: runs.bucket, Key: `${runPrefix}/job.json`, Body: JSON.stringify(spec), ContentType: 'application/json' }));

    const warehouse = parseS3Uri(this.options.warehouseUri);
    const code = [this.options.jobScriptUri, this.options.jobPackageUri].map(parseS3Uri).map((o) => `${o.bucket}/${o.key}`);
    const conf = { 'spark.jars': EMR_ICEBERG_JAR, ...job.compute.sparkConf };
    const out = await this.emr.send(
      new StartJobRunCommand({
        applicationId: this.options.applicationId,
        executionRoleArn: this.options.executionRoleArn,
        // The run id makes a retried StartJobRun the same job run, not a second one.
        clientToken: job.runId,
        name: job.runId,
        executionTimeoutMinutes: this.options.executionTimeoutMinutes ?? 720,
        executionIamPolicy: {
          policy: runExecutionPolicy({
            partition: this.options.executionRoleArn.split(':')[1] ?? 'aws',
            orgCatalog,
            warehouseBucket: warehouse.bucket,
            warehousePrefix: warehouse.key,
            runsBucket: runs.bucket,
            runPrefix,
            codeObjects: code,
          }),
        },
        jobDriver: {
          sparkSubmit: {
            entryPoint: this.options.jobScriptUri,
            entryPointArguments: ['--spec', specUri],
            sparkSubmitParameters: [`--py-files ${this.options.jobPackageUri}`, ...Object.entries(conf).map(([k, v]) => `--conf ${k}=${v}`)].join(' '),
          },
        },
        configurationOverrides: { monitoringConfiguration: { s3MonitoringConfiguration: { logUri: `s3://${runs.bucket}/${runPrefix}/logs/` } } },
        tags: { [RUN_ID_TAG]: job.runId, [RESULT_URI_TAG]: resultUri },
      }),
    );
    return { handle: { platform: this.platform, applicationId: this.options.applicationId, jobRunId: out.jobRunId as string, resultUri }, started: false };
  }

  async cancel(handle: EngineHandle): Promise<void> {
    try {
      await this.emr.send(new CancelJobRunCommand({ applicationId: String(handle.applicationId), jobRunId: String(handle.jobRunId) }));
    } catch (err) {
      // A job run that already ended cannot be cancelled; that is the outcome asked for anyway.
      if ((err as { name?: string }).name !== 'ValidationException') throw err;
    }
  }

  async reattach(): Promise<'attached' | RunOutcome> {
    // EMR keeps running jobs without us and reports their end through EventBridge.
    return 'attached';
  }
}
