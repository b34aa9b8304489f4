/**
 * Managed Spark in the AWS profile, against the emulated account: a routed write (`POST
 * /api/v1/query` with a destination) becomes an EMR Serverless job run through the EMR adapter
 * (its spec on S3, `StartJobRun` on the emulator's EMR Serverless API); the job run is executed as
 * EMR would execute it (emr-stand-in.ts: the local spark-submit with the job run's own parameters,
 * the job on Iceberg's GlueCatalog and S3FileIO); the state-change Lambda ends the run from
 * `GetJobRun` and the result document on S3; the rows land in the emulated Glue table and DuckDB
 * over S3 reads them back. One Spark run: about 20 s of start-up here. The abort endpoint cancels a
 * submitted run's job run with `CancelJobRun` on the emulator, and the CANCELLED state change ends
 * the run ABORT. (The emulator cancels a job run in any state; EMR refuses one that has ended with
 * a ValidationException, which the adapter treats as done: that branch is checked by request shape only.)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateApplicationCommand, EMRServerlessClient, GetJobRunCommand, ListJobRunsCommand } from '@aws-sdk/client-emr-serverless';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  EMR_APPLICATION_ID_ENV,
  EMR_EXECUTION_ROLE_ARN_ENV,
  EMR_RELEASE_LABEL_ENV,
  SPARK_JOB_PACKAGE_URI_ENV,
  SPARK_JOB_SCRIPT_URI_ENV,
  SPARK_RUNS_URI_ENV,
} from '#composition/env-names';
import { POLARS_DATA_ROLE_ENV } from '#composition/env-names';
import { DEFAULT_RELEASE_LABEL } from '../../lib/spark.ts';
import { useAwsProfile, type AwsProfile } from './aws-profile.ts';
import { createEmulatedLake, type EmulatedLake } from './emulated-lake.ts';
import { awsClientConfig, REPO_ROOT } from './emulator.ts';
import { runJobRun } from './emr-stand-in.ts';
import { PRODUCT_PYTHON } from './lambda-stand-in.ts';

let lake: EmulatedLake;
let aws: AwsProfile;
let emr: EMRServerlessClient;
let applicationId: string;
let scratch: string;

/** Uploads the job's code as the CDK app's S3 assets would hold it: run_job.py and a zip of lakeline_spark/*.py. */
const uploadJobCode = async (): Promise<{ script: string; pkg: string }> => {
  const jobs = path.join(REPO_ROOT, 'jobs', 'spark');
  const zip = path.join(scratch, 'lakeline_spark.zip');
  execFileSync(PRODUCT_PYTHON, ['-c', 'import glob, sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], "w") as z:\n    [z.write(f) for f in sorted(glob.glob("lakeline_spark/*.py"))]', zip], { cwd: jobs });
  const put = (key: string, file: string) => lake.s3.send(new PutObjectCommand({ Bucket: lake.bucket, Key: key, Body: readFileSync(file) }));
  await put('assets/run_job.py', path.join(jobs, 'run_job.py'));
  await put('assets/lakeline_spark.zip', zip);
  return { script: `s3://${lake.bucket}/assets/run_job.py`, pkg: `s3://${lake.bucket}/assets/lakeline_spark.zip` };
};

/** The EventBridge event EMR Serverless sends when a job run of the application changes state. */
const jobRunStateChange = (id: string, jobRunId: string, state: string) => ({
  version: '0',
  id,
  source: 'aws.emr-serverless',
  'detail-type': 'EMR Serverless Job Run State Change',
  account: '123456789012',
  time: new Date().toISOString(),
  region: inject('aws').region,
  resources: [],
  detail: { applicationId, jobRunId, state },
});

beforeAll(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), 'lakeline-emr-'));
  lake = await createEmulatedLake(inject('aws'));
  emr = new EMRServerlessClient(awsClientConfig(inject('aws')));
  // The application lib/spark.ts creates (moto spells the type in capitals).
  applicationId = (await emr.send(new CreateApplicationCommand({ name: 'lakeline-spark', type: 'SPARK', releaseLabel: DEFAULT_RELEASE_LABEL }))).applicationId as string;
  const code = await uploadJobCode();
  aws = await useAwsProfile(inject('aws'), lake, {
    [POLARS_DATA_ROLE_ENV]: 'arn:aws:iam::123456789012:role/lakeline-sandbox-data',
    [EMR_APPLICATION_ID_ENV]: applicationId,
    [EMR_EXECUTION_ROLE_ARN_ENV]: 'arn:aws:iam::123456789012:role/lakeline-emr-execution',
    [EMR_RELEASE_LABEL_ENV]: DEFAULT_RELEASE_LABEL,
    [SPARK_JOB_SCRIPT_URI_ENV]: code.script,
    [SPARK_JOB_PACKAGE_URI_ENV]: code.pkg,
    [SPARK_RUNS_URI_ENV]: lake.runsUri,
  });
  await lake.writer.demoLoad(aws.orgId, 0.01);
}, 120_000);

afterAll(async () => {
  await (await import('#composition/index')).lake().duckdb.close();
  emr.destroy();
  await lake.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('managed Spark in the AWS profile', () => {
  it('Should land a routed write in the emulated Glue table through an EMR Serverless job run, end the run, and read it back with DuckDB', async () => {
    // Act: the routed endpoint submits the write.
    const submitted = await aws.call('PostQuery', { body: { query: 'SELECT n_nationkey, n_name FROM tpch.nation WHERE n_regionkey = 1', destination: 'analytics.america', write_mode: 'overwrite' } });
    expect(submitted.statusCode, JSON.stringify(submitted.body)).toBe(200);
    const runId = (submitted.body as { run_id: string }).run_id;
    expect(submitted.body).toMatchObject({ state: 'SUBMITTED', engine_decision: { engine: 'spark' } });

    // Act: EMR runs the job run the adapter started; EventBridge tells the state-change function.
    const { jobRuns } = await emr.send(new ListJobRunsCommand({ applicationId }));
    const jobRun = jobRuns?.find((r) => r.name === runId);
    expect(jobRun, `no job run named ${runId}`).toBeDefined();
    const ran = await runJobRun(inject('aws'), { emr, s3: lake.s3 }, { applicationId, jobRunId: jobRun?.id as string }, path.join(scratch, runId));
    expect(ran.exitCode, ran.log).toBe(0);
    const { handler } = await import('#handlers/emr-job-state-change');
    await handler(jobRunStateChange('event-1', jobRun?.id as string, 'SUCCESS'));

    // Assess: the run ended COMPLETE with what the job reported; the table is in Glue and DuckDB reads it.
    const run = await aws.call('GetRun', { pathParameters: { run_id: runId } });
    expect(run.body, JSON.stringify(run.body)).toMatchObject({ run_id: runId, state: 'COMPLETE', engine: 'spark' });
    expect(ran.sparkSubmitParameters).toContain('--conf spark.dynamicAllocation.enabled=false');
    const table = await lake.catalog.loadTable(aws.orgId, { namespace: 'analytics', table: 'america' });
    expect(table?.metadataLocation).toMatch(new RegExp(`^s3://${lake.bucket}/warehouse/org_[0-9a-f]+/org_[0-9a-f]+__analytics\\.db/america/metadata/`));
    const read = await aws.call('PostWarehouseQuery', { body: { query: 'SELECT n_name FROM analytics.america ORDER BY n_nationkey', autoSaveByHash: false } });
    expect((read.body as { results: { rows: unknown[][] } }).results.rows).toEqual([['ARGENTINA'], ['BRAZIL'], ['CANADA'], ['PERU'], ['UNITED STATES']]);
  }, 180_000);

  it("Should cancel a submitted run's job run on the abort endpoint, and end the run ABORT on the CANCELLED state change", async () => {
    // Prepare
    const submitted = await aws.call('PostQuery', { body: { query: 'SELECT r_regionkey, r_name FROM tpch.region', destination: 'analytics.regions', write_mode: 'overwrite' } });
    expect(submitted.statusCode, JSON.stringify(submitted.body)).toBe(200);
    const runId = (submitted.body as { run_id: string }).run_id;
    const jobRun = (await emr.send(new ListJobRunsCommand({ applicationId }))).jobRuns?.find((r) => r.name === runId);

    // Act
    const aborted = await aws.call('PostRunAbort', { pathParameters: { run_id: runId } });
    const { handler } = await import('#handlers/emr-job-state-change');
    await handler(jobRunStateChange('event-2', jobRun?.id as string, 'CANCELLED'));

    // Assess
    expect(aborted.statusCode, JSON.stringify(aborted.body)).toBe(200);
    expect(aborted.body).toMatchObject({ run_id: runId, state: 'ABORT' });
    const { jobRun: cancelled } = await emr.send(new GetJobRunCommand({ applicationId, jobRunId: jobRun?.id as string }));
    expect(cancelled?.state).toBe('CANCELLED');
    const run = await aws.call('GetRun', { pathParameters: { run_id: runId } });
    expect(run.body).toMatchObject({ run_id: runId, state: 'ABORT', engine: 'spark' });
  }, 60_000);
});
