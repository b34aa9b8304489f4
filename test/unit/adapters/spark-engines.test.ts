/**
 * How the Spark engines size a request and start a run: the local scale-down and `spark-submit`
 * command line, and the EMR Serverless request (its shape checked with aws-sdk-client-mock, as
 * EMR is AWS-only) with worker limits and the per-run execution policy.
 */
import { CancelJobRunCommand, EMRServerlessClient, GetJobRunCommand, StartJobRunCommand } from '@aws-sdk/client-emr-serverless';
import { GetObjectCommand, PutObjectCommand, S3Client, type GetObjectCommandOutput } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { EmrRunObserver, parseStateChange } from '#adapters/aws/emr-serverless-events';
import { EmrServerlessEngine } from '#adapters/aws/emr-serverless';
import { MAX_INLINE_POLICY_CHARS } from '#adapters/aws/emr-serverless-policy';
import { emrCompute, heapMb } from '#adapters/aws/emr-serverless-sizing';
import { localCompute, sparkSubmitArgs, sparkSubmitEnv, warmDriverArgs } from '#adapters/local/spark-submit-args';
import { machineType, type SparkResourceRequest } from '#domain/core/machine-types';

const req = (driver: string, executor: string, executors: number): SparkResourceRequest => ({ driver: machineType(driver)!, executor: machineType(executor)!, executors });

describe('local sizing', () => {
  it('Should run the contract default as local[1] with the two machines\' memory as one heap', () => {
    // Act
    const compute = localCompute(req('spark.1.b', 'spark.1.b', 1), { cores: 2, memoryMb: 24 * 1024 });

    // Assess
    expect(compute).toMatchObject({ platform: 'local', driver: { vcpus: 1, memoryGb: 8 }, billedVcpus: 1, scaledDown: false });
    expect(compute.sparkConf).toEqual({ 'spark.master': 'local[1]', 'spark.driver.memory': '8192m', 'spark.sql.shuffle.partitions': '4' });
  });

  it('Should scale a large request down to the machine and say so', () => {
    // Act
    const compute = localCompute(req('spark.4.m', 'spark.16.m', 20), { cores: 2, memoryMb: 24 * 1024 });

    // Assess
    expect(compute).toMatchObject({ driver: { vcpus: 2, memoryGb: 12 }, billedVcpus: 2, scaledDown: true, requested: { driverMachineType: 'spark.4.m', executorMachineType: 'spark.16.m', executors: 20 } });
    expect(compute.note).toContain('scaled down from 324 vCPUs');
  });

  it('Should honour the configured per-run caps', () => {
    // Act
    const compute = localCompute(req('spark.1.b', 'spark.2.b', 2), { cores: 8, memoryMb: 64 * 1024, maxCores: 1, maxMemoryMb: 1536 });

    // Assess
    expect(compute.sparkConf['spark.master']).toBe('local[1]');
    expect(compute.sparkConf['spark.driver.memory']).toBe('1536m');
  });

  it('Should build a spark-submit of the job script with the run\'s scratch space and a minimal environment', () => {
    // Prepare
    const compute = localCompute(req('spark.1.b', 'spark.1.b', 1), { cores: 2, memoryMb: 8192 });
    const paths = { sparkHome: '/venv/pyspark', pythonBin: '/venv/bin/python', jars: ['/j/iceberg.jar', '/j/sqlite.jar'], jobScript: '/repo/jobs/spark/run_job.py', runDir: '/h/runs/r1', specFile: '/h/runs/r1/job.json' };

    // Act
    const args = sparkSubmitArgs('r1', compute, paths);
    const env = sparkSubmitEnv(paths, { PATH: '/bin', LAKELINE_SESSION_SECRET: 'secret', HOME: '/root' });

    // Assess
    expect(args.slice(0, 8)).toEqual(['--master', 'local[1]', '--driver-memory', '4096m', '--name', 'lakeline-r1', '--jars', '/j/iceberg.jar,/j/sqlite.jar']);
    expect(args.slice(-3)).toEqual(['/repo/jobs/spark/run_job.py', '--spec', '/h/runs/r1/job.json']);
    expect(args).toContain('spark.local.dir=/h/runs/r1/tmp');
    expect(args).toContain('spark.ui.enabled=false');
    expect(env).toEqual({ PATH: '/bin', HOME: '/root', SPARK_HOME: '/venv/pyspark', PYSPARK_PYTHON: '/venv/bin/python', PYSPARK_DRIVER_PYTHON: '/venv/bin/python', SPARK_LOCAL_IP: '127.0.0.1', TMPDIR: '/h/runs/r1/tmp' });
  });

  it("Should start the warm driver with a run's settings as --conf arguments, its master, heap and jars among them, and no spec", () => {
    // Prepare: the warm driver's bounded heap (ADR 0059).
    const compute = localCompute(req('spark.1.b', 'spark.2.b', 1), { cores: 2, memoryMb: 24 * 1024, maxMemoryMb: 1536 });
    const paths = { sparkHome: '/venv/pyspark', pythonBin: '/venv/bin/python', jars: ['/j/iceberg.jar', '/j/sqlite.jar'], jobScript: '/repo/jobs/spark/warm_driver.py', runDir: '/h/spark-warm' };

    // Act
    const args = warmDriverArgs(compute, paths);

    // Assess
    expect(args[0]).toBe('/repo/jobs/spark/warm_driver.py');
    const conf = Object.fromEntries(args.slice(1).filter((_, i) => i % 2 === 1).map((kv) => kv.split(/=(.*)/s).slice(0, 2)));
    expect(args.slice(1).filter((_, i) => i % 2 === 0).every((flag) => flag === '--conf')).toBe(true);
    expect(conf).toMatchObject({
      'spark.master': 'local[2]',
      'spark.driver.memory': '1536m',
      'spark.jars': '/j/iceberg.jar,/j/sqlite.jar',
      'spark.ui.enabled': 'false',
      'spark.local.dir': '/h/spark-warm/tmp',
      'spark.driver.extraJavaOptions': '-Djava.io.tmpdir=/h/spark-warm/tmp -Dderby.system.home=/h/spark-warm/tmp',
    });
    expect(args).not.toContain('--spec');
  });
});

describe('EMR Serverless sizing', () => {
  it('Should size workers as the table says and leave room for Spark\'s memory overhead', () => {
    // Act
    const compute = emrCompute(req('spark.2.b', 'spark.4.c', 3));

    // Assess
    expect(compute).toMatchObject({ platform: 'emr-serverless', driver: { vcpus: 2, memoryGb: 8 }, executor: { vcpus: 4, memoryGb: 8 }, executors: 3, billedVcpus: 14, scaledDown: false });
    expect(compute.sparkConf).toMatchObject({ 'spark.executor.instances': '3', 'spark.executor.cores': '4', 'spark.dynamicAllocation.enabled': 'false' });
    for (const gb of [2, 8, 30, 120]) expect(heapMb(gb) + Math.max(384, Math.ceil(heapMb(gb) * 0.1))).toBeLessThanOrEqual(gb * 1024);
  });

  it.each([
    ['spark.4.m', 30],
    ['spark.8.m', 60],
    ['spark.16.m', 120],
  ])('Should cap %s at EMR\'s largest %i GB worker and record it', (type, gb) => {
    // Act
    const compute = emrCompute(req('spark.1.b', type, 1));

    // Assess
    expect(compute.executor.memoryGb).toBe(gb);
    expect(compute.scaledDown).toBe(true);
    expect(compute.note).toContain('caps worker memory');
  });
});

// One mock per client class for the whole file: a second mockClient of the same class replaces the first.
const emr = mockClient(EMRServerlessClient);
const s3 = mockClient(S3Client);
afterEach(() => {
  emr.reset();
  s3.reset();
});

describe('EmrServerlessEngine', () => {

  const engine = () =>
    new EmrServerlessEngine(new EMRServerlessClient({ region: 'eu-west-1' }), new S3Client({ region: 'eu-west-1' }), {
      applicationId: 'app123',
      executionRoleArn: 'arn:aws:iam::123456789012:role/emr-exec',
      releaseLabel: 'emr-7.12.0',
      jobScriptUri: 's3://assets/abc/run_job.py',
      jobPackageUri: 's3://assets/def.zip',
      runsUri: 's3://lake/runs',
      warehouseUri: 's3://lake/warehouse',
    });

  it('Should write the spec, then start one job run per run id with the org-scoped execution policy', async () => {
    // Prepare
    emr.on(StartJobRunCommand).resolves({ applicationId: 'app123', jobRunId: 'jr1', arn: 'arn' });
    s3.on(PutObjectCommand).resolves({});
    const compute = emrCompute(req('spark.1.b', 'spark.2.b', 2));

    // Act
    const submission = await engine().submit({ runId: 'run-1', orgId: 'AAAA-1111', sql: 'select 1', output: { namespace: 'out', table: 't' }, mode: 'overwrite', compute });

    // Assess
    // EMR queues the job run until the application has capacity: the run is QUEUED until EMR says RUNNING.
    expect(submission).toEqual({ handle: { platform: 'emr-serverless', applicationId: 'app123', jobRunId: 'jr1', resultUri: 's3://lake/runs/org_aaaa1111/run-1/result.json' }, started: false });
    const put = s3.commandCalls(PutObjectCommand)[0]?.args[0].input;
    expect(put).toMatchObject({ Bucket: 'lake', Key: 'runs/org_aaaa1111/run-1/job.json' });
    expect(JSON.parse(String(put?.Body)).catalog).toEqual({ name: 'org_aaaa1111', type: 'glue', warehouse: 's3://lake/warehouse/org_aaaa1111', namespace_prefix: 'org_aaaa1111__' });
    const start = emr.commandCalls(StartJobRunCommand)[0]?.args[0].input;
    expect(start).toMatchObject({ applicationId: 'app123', executionRoleArn: 'arn:aws:iam::123456789012:role/emr-exec', clientToken: 'run-1', name: 'run-1', tags: { 'lakeline-run-id': 'run-1' } });
    expect(start?.jobDriver?.sparkSubmit?.entryPoint).toBe('s3://assets/abc/run_job.py');
    expect(start?.jobDriver?.sparkSubmit?.entryPointArguments).toEqual(['--spec', 's3://lake/runs/org_aaaa1111/run-1/job.json']);
    expect(start?.jobDriver?.sparkSubmit?.sparkSubmitParameters).toContain('--py-files s3://assets/def.zip');
    expect(start?.jobDriver?.sparkSubmit?.sparkSubmitParameters).toContain('--conf spark.jars=/usr/share/aws/iceberg/lib/iceberg-spark3-runtime.jar');
    expect(start?.jobDriver?.sparkSubmit?.sparkSubmitParameters).toContain('--conf spark.executor.instances=2');
    const policy = start?.executionIamPolicy?.policy ?? '';
    expect(policy.length).toBeLessThanOrEqual(MAX_INLINE_POLICY_CHARS);
    const resources = (JSON.parse(policy) as { Statement: { Resource: string | string[] }[] }).Statement.flatMap((s) => [s.Resource].flat());
    expect(resources).toEqual(
      expect.arrayContaining([
        'arn:aws:s3:::lake/warehouse/org_aaaa1111/*',
        'arn:aws:s3:::lake/runs/org_aaaa1111/run-1/*',
        'arn:aws:s3:::assets/abc/run_job.py',
        'arn:aws:glue:*:*:database/org_aaaa1111__*',
        'arn:aws:glue:*:*:table/org_aaaa1111__*/*',
      ]),
    );
    expect(resources.some((r) => r.includes('org_') && !r.includes('org_aaaa1111'))).toBe(false);
  });

  it('Should cancel a job run and accept one that already ended', async () => {
    // Prepare
    emr.on(CancelJobRunCommand).rejectsOnce(Object.assign(new Error('already terminal'), { name: 'ValidationException' }));

    // Act / Assess
    await expect(engine().cancel({ platform: 'emr-serverless', applicationId: 'app123', jobRunId: 'jr1' })).resolves.toBeUndefined();
    expect(emr.commandCalls(CancelJobRunCommand)[0]?.args[0].input).toEqual({ applicationId: 'app123', jobRunId: 'jr1' });
  });
});

describe('EMR job run state changes', () => {
  const event = (state: string) => ({ source: 'aws.emr-serverless', 'detail-type': 'EMR Serverless Job Run State Change', detail: { applicationId: 'app123', jobRunId: 'jr1', state } });
  const jobRun = (state: string, stateDetails = '') => ({
    jobRun: {
      applicationId: 'app123',
      jobRunId: 'jr1',
      name: 'run-1',
      state,
      stateDetails,
      tags: { 'lakeline-run-id': 'run-1', 'lakeline-result-uri': 's3://lake/runs/org_x/run-1/result.json' },
      billedResourceUtilization: { vCPUHour: 0.5 },
      startedAt: new Date(1000),
    } as never,
  });
  const body = (text: string) => ({ Body: { transformToString: async () => text } }) as unknown as GetObjectCommandOutput;

  it('Should read only state changes of job runs', () => {
    // Act / Assess
    expect(parseStateChange(event('SUCCESS'))).toEqual({ applicationId: 'app123', jobRunId: 'jr1', state: 'SUCCESS' });
    expect(parseStateChange({ source: 'aws.emr-serverless', 'detail-type': 'EMR Serverless Application State Change', detail: {} })).toBeUndefined();
  });

  it('Should complete a successful run with the job\'s result and EMR\'s bill', async () => {
    // Prepare
    emr.on(GetJobRunCommand).resolves(jobRun('SUCCESS'));
    s3.on(GetObjectCommand).resolves(body(JSON.stringify({ ok: true, rows_written: 5, bytes_written: 70, files_written: 1, session_ready_at: 2000, finished_at: 3000, spark_version: '3.5.6' })));

    // Act
    const observed = await new EmrRunObserver(new EMRServerlessClient({ region: 'eu-west-1' }), new S3Client({ region: 'eu-west-1' }), 'app123').observe(parseStateChange(event('SUCCESS'))!);

    // Assess
    expect(observed).toEqual({
      runId: 'run-1',
      outcome: { state: 'COMPLETE', rowsWritten: 5, bytesWritten: 70, filesWritten: 1, vcpuSeconds: 1800, timings: { startedAt: 1000, sessionReadyAt: 2000, finishedAt: 3000 }, engineVersion: '3.5.6' },
    });
  });

  it('Should fail with Spark\'s error from the result, else EMR\'s state details; cancelled is ABORT', async () => {
    // Prepare
    const observer = new EmrRunObserver(new EMRServerlessClient({ region: 'eu-west-1' }), new S3Client({ region: 'eu-west-1' }), 'app123');
    emr.on(GetJobRunCommand).resolvesOnce(jobRun('FAILED', 'Job failed')).resolvesOnce(jobRun('FAILED', 'Job failed')).resolvesOnce(jobRun('CANCELLED', 'cancelled by user'));
    s3.on(GetObjectCommand)
      .resolvesOnce(body(JSON.stringify({ ok: false, error: '[UNRESOLVED_COLUMN] x' })))
      .rejectsOnce(Object.assign(new Error('missing'), { name: 'NoSuchKey' }))
      .rejectsOnce(Object.assign(new Error('missing'), { name: 'NoSuchKey' }));

    // Act
    const fromSpark = await observer.observe(parseStateChange(event('FAILED'))!);
    const fromEmr = await observer.observe(parseStateChange(event('FAILED'))!);
    const cancelled = await observer.observe(parseStateChange(event('CANCELLED'))!);

    // Assess
    expect(fromSpark?.outcome).toMatchObject({ state: 'FAIL', error: '[UNRESOLVED_COLUMN] x', vcpuSeconds: 1800 });
    expect(fromEmr?.outcome).toMatchObject({ state: 'FAIL', error: 'Job failed' });
    expect(cancelled?.outcome).toMatchObject({ state: 'ABORT', error: 'cancelled by user', vcpuSeconds: 1800 });
  });

  it('Should report no outcome while the job run is still going', async () => {
    // Prepare
    emr.on(GetJobRunCommand).resolves(jobRun('RUNNING'));

    // Act
    const observed = await new EmrRunObserver(new EMRServerlessClient({ region: 'eu-west-1' }), new S3Client({ region: 'eu-west-1' }), 'app123').observe(parseStateChange(event('RUNNING'))!);

    // Assess
    expect(observed).toEqual({ runId: 'run-1' });
  });

  it("Should read only its own application's events, reporting a started run as running", async () => {
    // Prepare
    emr.on(GetJobRunCommand).resolves(jobRun('RUNNING'));
    const observer = new EmrRunObserver(new EMRServerlessClient({ region: 'eu-west-1' }), new S3Client({ region: 'eu-west-1' }), 'app123');
    const foreign = { ...event('RUNNING'), detail: { ...event('RUNNING').detail, applicationId: 'someone-else' } };

    // Act
    const [own, other, unrelated] = await Promise.all([observer.read(event('RUNNING')), observer.read(foreign), observer.read({ source: 'aws.s3' })]);

    // Assess
    expect(own).toEqual({ runId: 'run-1', running: true });
    expect(other).toBeUndefined();
    expect(unrelated).toBeUndefined();
    expect(emr.commandCalls(GetJobRunCommand)).toHaveLength(1);
  });
});
