/**
 * @module emr-stand-in
 * EMR Serverless, played by this machine. The emulator serves the EMR Serverless API (the
 * adapter's `StartJobRun`, `GetJobRun` and `CancelJobRun` run against it) but runs no job, so this
 * module does what the service would: it reads the job run the adapter started from the emulator,
 * fetches its entry point and `--py-files` from S3, and runs them with the local `spark-submit`
 * with the job run's own `sparkSubmitParameters`. What EMR's image would provide is put in its
 * place: the Iceberg runtime and AWS bundle jars for `spark.jars`, S3A standing in for EMRFS
 * behind `s3://` (the job reads its spec and writes its result there), and local sizes (one
 * 2-core driver, 1 GB) for the EMR workers this machine cannot hold. Everything the job itself
 * does — Iceberg's GlueCatalog and S3FileIO on the emulated account, found through the SDKs'
 * standard endpoint variable — is the deployed code and configuration.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { GetJobRunCommand, type EMRServerlessClient } from '@aws-sdk/client-emr-serverless';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { EMR_ICEBERG_JAR, parseS3Uri } from '#adapters/aws/emr-serverless';
import { awsEnvironment, REPO_ROOT, type AwsEmulatorInfo } from './emulator.ts';
import { PRODUCT_PYTHON } from './lambda-stand-in.ts';

/** What an EMR 7 image has on Spark's class path, as jars from the local set-up (scripts/setup.mjs, JARS). */
const EMR_IMAGE_JARS = ['iceberg-spark-runtime-3.5_2.12-', 'iceberg-aws-bundle-'];
/** S3A and the AWS SDK v1 modules it loads: the stand-in for EMRFS behind `s3://`. */
const EMRFS_STAND_IN_JARS = ['hadoop-aws-', 'aws-java-sdk-core-', 'aws-java-sdk-s3-', 'aws-java-sdk-kms-', 'aws-java-sdk-dynamodb-', 'jmespath-java-'];

const jarPaths = (prefixes: readonly string[]): string[] => {
  const dir = path.join(REPO_ROOT, '.lakeline', 'jars');
  const files = readdirSync(dir);
  return prefixes.map((prefix) => {
    const jar = files.filter((f) => f.startsWith(prefix) && f.endsWith('.jar')).sort().pop();
    if (!jar) throw new Error(`${prefix}*.jar is missing from ${dir}; run node scripts/setup.mjs`);
    return path.join(dir, jar);
  });
};

/** Splits `--py-files X --conf k=v …` into the py-files URI and the settings. */
export const parseSparkSubmitParameters = (parameters: string): { pyFiles?: string; conf: Record<string, string> } => {
  const tokens = parameters.trim().split(/\s+/);
  const conf: Record<string, string> = {};
  let pyFiles: string | undefined;
  for (let i = 0; i < tokens.length; i += 2) {
    const [flag, value] = [tokens[i], tokens[i + 1] ?? ''];
    if (flag === '--py-files') pyFiles = value;
    else if (flag === '--conf') conf[value.slice(0, value.indexOf('='))] = value.slice(value.indexOf('=') + 1);
    else throw new Error(`the stand-in does not know the spark-submit parameter ${flag}`);
  }
  return { ...(pyFiles ? { pyFiles } : {}), conf };
};

/** A finished local run of a job run. */
export interface StandInRun {
  readonly exitCode: number | null;
  /** The end of the driver's output, for a failure's message. */
  readonly log: string;
  /** The job run as the emulator recorded it. */
  readonly sparkSubmitParameters: string;
}

/** Runs one job run the emulator recorded, to its end. */
export const runJobRun = async (aws: AwsEmulatorInfo, clients: { emr: EMRServerlessClient; s3: S3Client }, ids: { applicationId: string; jobRunId: string }, workDir: string): Promise<StandInRun> => {
  const { jobRun } = await clients.emr.send(new GetJobRunCommand(ids));
  const submit = jobRun?.jobDriver?.sparkSubmit;
  if (!submit?.entryPoint) throw new Error(`job run ${ids.jobRunId} has no sparkSubmit driver`);
  mkdirSync(workDir, { recursive: true });
  const fetch = async (uri: string): Promise<string> => {
    const { bucket, key } = parseS3Uri(uri);
    const out = await clients.s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    const file = path.join(workDir, path.basename(key));
    writeFileSync(file, await (out.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray());
    return file;
  };
  const parameters = submit.sparkSubmitParameters ?? '';
  const { pyFiles, conf } = parseSparkSubmitParameters(parameters);
  if (conf['spark.jars'] !== EMR_ICEBERG_JAR) throw new Error(`unexpected spark.jars ${conf['spark.jars']}: the stand-in provides ${EMR_ICEBERG_JAR} only`);
  const entryPoint = await fetch(submit.entryPoint);
  const localConf: Record<string, string> = {
    ...conf,
    'spark.jars': jarPaths([...EMR_IMAGE_JARS, ...EMRFS_STAND_IN_JARS]).join(','),
    // This machine's sizes, not the EMR workers' (local mode has no executors).
    'spark.driver.memory': '1g',
    'spark.driver.cores': '2',
    'spark.ui.enabled': 'false',
    'spark.driver.host': '127.0.0.1',
    'spark.driver.bindAddress': '127.0.0.1',
    'spark.local.dir': path.join(workDir, 'tmp'),
    'spark.sql.warehouse.dir': path.join(workDir, 'tmp', 'spark-warehouse'),
    'spark.driver.extraJavaOptions': `-Djava.io.tmpdir=${path.join(workDir, 'tmp')} -Dderby.system.home=${path.join(workDir, 'tmp')}`,
    // EMRFS's part: `s3://` through S3A, on the emulator.
    'spark.hadoop.fs.s3.impl': 'org.apache.hadoop.fs.s3a.S3AFileSystem',
    'spark.hadoop.fs.s3a.endpoint': aws.endpoint,
    'spark.hadoop.fs.s3a.path.style.access': 'true',
    'spark.hadoop.fs.s3a.connection.ssl.enabled': 'false',
  };
  mkdirSync(path.join(workDir, 'tmp'), { recursive: true });
  const sparkHome = path.join(path.dirname(path.dirname(PRODUCT_PYTHON)), 'lib', readdirSync(path.join(path.dirname(path.dirname(PRODUCT_PYTHON)), 'lib')).find((d) => d.startsWith('python')) as string, 'site-packages', 'pyspark');
  const args = [
    '--master',
    'local[2]',
    ...(pyFiles ? ['--py-files', await fetch(pyFiles)] : []),
    ...Object.entries(localConf).flatMap(([k, v]) => ['--conf', `${k}=${v}`]),
    entryPoint,
    ...(submit.entryPointArguments ?? []),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(sparkHome, 'bin', 'spark-submit'), args, {
      cwd: workDir,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? '/tmp',
        ...(process.env.JAVA_HOME ? { JAVA_HOME: process.env.JAVA_HOME } : {}),
        SPARK_HOME: sparkHome,
        PYSPARK_PYTHON: PRODUCT_PYTHON,
        PYSPARK_DRIVER_PYTHON: PRODUCT_PYTHON,
        SPARK_LOCAL_IP: '127.0.0.1',
        TMPDIR: path.join(workDir, 'tmp'),
        ...awsEnvironment(aws),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    const keep = (d: Buffer) => (log = (log + d.toString()).slice(-20_000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('close', (exitCode) => resolve({ exitCode, log, sparkSubmitParameters: parameters }));
  });
};
