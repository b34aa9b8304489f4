/**
 * @module emulator
 * The AWS emulator of a test run: moto in server mode (`moto[server]`, pinned in
 * requirements-aws-test.lock, installed into `.lakeline/venv-aws` by scripts/setup.mjs) on a free
 * loopback port, started by the test set-up and stopped after it, like the local stack. The AWS
 * profile's adapters reach it only through the endpoint settings every SDK already has
 * ({@link awsEnvironment}); nothing in the product knows it is there.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The Python environment of the AWS test tools (moto, cfn-lint). */
export const AWS_TOOLS_PYTHON = path.join(REPO_ROOT, '.lakeline', 'venv-aws', 'bin', 'python');

/**
 * boto3 as the Lambda Python runtime provides it to the lake writer (`.lakeline/lambda-runtime`,
 * from functions/lakewriter/requirements-lambda-runtime.txt): put on the lake writer's path in the
 * emulator suites, as Lambda puts the runtime's own packages beside the function's.
 */
export const LAMBDA_RUNTIME_PACKAGES = path.join(REPO_ROOT, '.lakeline', 'lambda-runtime');

/** How to reach the emulator: what a test hands to `inject('aws')`. */
export interface AwsEmulatorInfo {
  /** `http://127.0.0.1:<port>`: every service on one endpoint. */
  readonly endpoint: string;
  readonly region: string;
  /** Any credentials will do for moto; these are its documented test values. */
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string };
}

/** A running emulator. */
export interface AwsEmulator extends AwsEmulatorInfo {
  stop(): Promise<void>;
}

/** The region the emulated account is used in. */
export const EMULATED_REGION = 'us-east-1';

/**
 * The environment that points every SDK and library at the emulator, through their standard
 * settings: `AWS_ENDPOINT_URL` (AWS SDK for JavaScript v3, boto3, the AWS SDK for Java v2 used by
 * Iceberg's GlueCatalog and S3FileIO), the region (`AWS_REGION`; boto3 reads `AWS_DEFAULT_REGION`)
 * and static credentials. This is the only difference between a test and a deployment: lakeline
 * itself reads the same variables where a library does not (DuckDB's S3 secret, pyarrow's S3 file
 * system), and none is set in AWS.
 */
export const awsEnvironment = (info: AwsEmulatorInfo): Record<string, string> => ({
  AWS_ENDPOINT_URL: info.endpoint,
  AWS_REGION: info.region,
  AWS_DEFAULT_REGION: info.region,
  AWS_ACCESS_KEY_ID: info.credentials.accessKeyId,
  AWS_SECRET_ACCESS_KEY: info.credentials.secretAccessKey,
  // A developer's own configuration (profiles, SSO sessions) must never be picked up instead.
  AWS_CONFIG_FILE: '/dev/null',
  AWS_SHARED_CREDENTIALS_FILE: '/dev/null',
  AWS_EC2_METADATA_DISABLED: 'true',
});

/** SDK v3 client settings for the emulator (`endpoint` is the SDK's own option). */
export const awsClientConfig = (info: AwsEmulatorInfo) => ({ endpoint: info.endpoint, region: info.region, credentials: info.credentials });

/** Starts moto on a free loopback port; resolves once it accepts requests. */
export const startAwsEmulator = async (): Promise<AwsEmulator> => {
  if (!existsSync(AWS_TOOLS_PYTHON)) throw new Error(`the AWS emulator is not installed (${AWS_TOOLS_PYTHON}); run node scripts/setup.mjs`);
  const child = spawn(AWS_TOOLS_PYTHON, [path.join(REPO_ROOT, 'test', 'aws', 'moto_server.py')], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-20_000)));
  const port = await new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', (line) => resolve((JSON.parse(line) as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`the AWS emulator (moto) exited with code ${code}: ${stderr.trim()}`)));
  });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    region: EMULATED_REGION,
    credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' },
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
};
