/**
 * @module container-polars
 * The composition root of the polars endpoint: the sandbox for the configured profile (the warm
 * bubblewrap pool locally; in AWS the per-tier transports, with per-run credentials issued by STS
 * on the sandbox data role) and the use case's dependencies.
 * Separate from the other containers so only the polars function bundles these adapters.
 */
import { LambdaClient } from '@aws-sdk/client-lambda';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { STSClient } from '@aws-sdk/client-sts';
import path from 'node:path';
import { AwsPolarsSandbox } from '#adapters/aws/aws-polars-sandbox';
import { FargateSandboxTransport } from '#adapters/aws/fargate-polars-transport';
import { LambdaSandboxTransport } from '#adapters/aws/lambda-sandbox-transport';
import type { SandboxTransport } from '#adapters/aws/polars-sandbox-transport';
import { StsSandboxCredentialIssuer } from '#adapters/aws/sts-sandbox-credentials';
import { BwrapPolarsPool } from '#adapters/local/polars-pool';
import type { PolarsDeps } from '#domain/polars/run-polars';
import type { PolarsSandbox } from '#domain/polars/ports';
import { getConfig, REPO_ROOT } from './config.ts';
import { catalog, lakeStorage, lakeWriter } from './container-lake.ts';
import { orgStore } from './container.ts';
import { positiveEnvNumber } from './env-number.ts';
import { once } from './once.ts';
import { POLARS_FARGATE_TIERS, POLARS_RESULTS_BUCKET_ENV, POLARS_RESULTS_PREFIX_ENV, polarsQueueEnv } from './polars-fargate-env.ts';
import { POLARS_DATA_ROLE_ENV, POLARS_STAGING_URI_ENV, POLARS_TIMEOUT_ENV, POLARS_WORKERS_ENV, polarsFunctionEnv } from './polars-env.ts';

const required = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`configuration: ${name} is not set`);
  return value;
};

/** The polars sandbox. */
export const polarsSandbox = once((): PolarsSandbox & { warm?(): void } => {
  const config = getConfig();
  if (config.profile === 'aws') {
    const lambda = new LambdaClient({});
    const transports: Record<number, SandboxTransport> = Object.fromEntries(
      [2, 4].flatMap((tier) => {
        const name = process.env[polarsFunctionEnv(tier)];
        return name ? [[tier, new LambdaSandboxTransport(lambda, name, tier)]] : [];
      }),
    );
    const sqs = new SQSClient({});
    const s3 = new S3Client({});
    for (const tier of POLARS_FARGATE_TIERS) {
      const queueUrl = process.env[polarsQueueEnv(tier)];
      // A Fargate tier without warm tasks is not built, and its queue variable is not set.
      if (queueUrl) transports[tier] = new FargateSandboxTransport(sqs, s3, { vcpus: tier, queueUrl, bucket: required(POLARS_RESULTS_BUCKET_ENV), prefix: required(POLARS_RESULTS_PREFIX_ENV) });
    }
    const stagingUri = required(POLARS_STAGING_URI_ENV);
    const warehouseUri = config.lake.warehouse;
    if (!warehouseUri) throw new Error('configuration: the warehouse URI is not bound to this function');
    const issuer = new StsSandboxCredentialIssuer(new STSClient({}), { roleArn: required(POLARS_DATA_ROLE_ENV), warehouseUri, stagingUri });
    return new AwsPolarsSandbox(transports, issuer, { stagingUri });
  }
  const timeoutSeconds = positiveEnvNumber(POLARS_TIMEOUT_ENV);
  const maxWorkers = positiveEnvNumber(POLARS_WORKERS_ENV);
  return new BwrapPolarsPool({
    pythonBin: config.lake.pythonBin as string,
    codeDir: path.join(REPO_ROOT, 'functions', 'polars'),
    warehouse: config.lake.warehouse as string,
    stateDir: path.join(config.home, 'polars'),
    ...(timeoutSeconds === undefined ? {} : { timeoutSeconds }),
    ...(maxWorkers === undefined ? {} : { maxWorkers: Math.floor(maxWorkers) }),
  });
});

/** Starts the first sandbox worker during cold start (local); errors surface on the first request. */
export const warmPolarsSandbox = (): void => {
  try {
    polarsSandbox().warm?.();
  } catch {
    // A misconfiguration surfaces on the first request, with its error handling.
  }
};

/** Everything the polars use case needs. The lake writer reads the staged result file (a local path, or in AWS an S3 key). */
export const polarsDeps = once(
  (): PolarsDeps => ({
    orgs: orgStore(),
    catalog: catalog(),
    storage: lakeStorage(),
    sandbox: polarsSandbox(),
    ...(getConfig().profile === 'local' || getConfig().lake.lakeWriterFunction ? { writer: lakeWriter() } : {}),
  }),
);
