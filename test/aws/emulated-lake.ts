/**
 * @module emulated-lake
 * A lakeline lake in the emulated account, laid out as `lib/warehouse.ts` lays out the deployed
 * one (one bucket: `warehouse/`, `runs/`, `polars-staging/`), with the AWS profile's adapters on
 * it: the Glue catalog, S3 lake storage, and the Python functions behind Lambda's `Invoke` API
 * (lambda-invoke-stand-in.ts) — the lake writer and the 2-vCPU polars sandbox — with the AWS
 * profile's own lake writer adapter (`LambdaLakeWriter`) calling it. Each suite gets a bucket of
 * its own; Glue databases are per org (`org_<id>__<namespace>`), so suites that use
 * fresh org ids never see each other's tables.
 */
import { randomUUID } from 'node:crypto';
import { GlueClient } from '@aws-sdk/client-glue';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { GlueCatalog } from '#adapters/aws/glue-catalog';
import { LambdaLakeWriter } from '#adapters/aws/lambda-lake-writer';
import { S3LakeStorage } from '#adapters/aws/s3-lake-storage';
import { POLARS_STAGING_URI_ENV } from '#composition/env-names';
import { PROFILE_ENV, WAREHOUSE_URI_ENV } from '#composition/env-names';
import { POLARS_STAGING_PREFIX, RUNS_PREFIX, WAREHOUSE_PREFIX } from '../../lib/warehouse.ts';
import { awsClientConfig, awsEnvironment, type AwsEmulatorInfo } from './emulator.ts';
import { startLambdaInvokeStandIn, type LambdaInvokeStandIn } from './lambda-invoke-stand-in.ts';
import { lakeWriterFunction, polarsFunction } from './lambda-stand-in.ts';

/** The lake writer function's name in the emulated account (the AWS profile's `LAKELINE_LAKE_WRITER_FUNCTION`). */
export const LAKE_WRITER_FUNCTION = 'lakeline-lake-writer';
/** The 2-vCPU polars sandbox function's name (`LAKELINE_POLARS_FUNCTION_2`). */
export const POLARS_FUNCTION_2 = 'lakeline-polars-2vcpu';

/** A lake in the emulated account. */
export interface EmulatedLake {
  readonly bucket: string;
  /** `s3://<bucket>/warehouse`, `…/runs`, `…/polars-staging`. */
  readonly warehouseUri: string;
  readonly runsUri: string;
  readonly stagingUri: string;
  /** The environment of the AWS profile's functions here: endpoint, credentials, region, profile, warehouse. */
  readonly environment: Readonly<Record<string, string>>;
  readonly s3: S3Client;
  readonly glue: GlueClient;
  readonly catalog: GlueCatalog;
  readonly storage: S3LakeStorage;
  /** `Invoke` of the lake's Python functions ({@link LAKE_WRITER_FUNCTION}, {@link POLARS_FUNCTION_2}). */
  readonly lambda: LambdaInvokeStandIn;
  /** An SDK Lambda client pointed at {@link lambda}, as the AWS profile's is through `AWS_ENDPOINT_URL_LAMBDA`. */
  readonly lambdaClient: LambdaClient;
  /** The AWS profile's lake writer adapter, invoking the lake writer function. */
  readonly writer: LambdaLakeWriter;
  /** Keys of the bucket's objects below a prefix. */
  keys(prefix: string): Promise<string[]>;
  close(): Promise<void>;
}

/** Creates a bucket and the AWS profile's lake adapters over it. */
export const createEmulatedLake = async (aws: AwsEmulatorInfo): Promise<EmulatedLake> => {
  const s3 = new S3Client(awsClientConfig(aws));
  const glue = new GlueClient(awsClientConfig(aws));
  const bucket = `lakeline-lake-${randomUUID().slice(0, 8)}`;
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  const warehouseUri = `s3://${bucket}/${WAREHOUSE_PREFIX}`;
  const stagingUri = `s3://${bucket}/${POLARS_STAGING_PREFIX}`;
  const environment = { ...awsEnvironment(aws), [PROFILE_ENV]: 'aws', [WAREHOUSE_URI_ENV]: warehouseUri, [POLARS_STAGING_URI_ENV]: stagingUri };
  // The functions' environments as the CDK app sets them, with the emulated account's; the polars
  // function's own role can read no table (each run brings credentials of its own).
  const lambda = await startLambdaInvokeStandIn({
    [LAKE_WRITER_FUNCTION]: lakeWriterFunction(environment),
    [POLARS_FUNCTION_2]: polarsFunction({ ...awsEnvironment(aws), AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '2048', POLARS_MAX_THREADS: '2' }),
  });
  const lambdaClient = new LambdaClient({ ...awsClientConfig(aws), endpoint: lambda.endpoint });
  const keys = async (prefix: string): Promise<string[]> => {
    const found: string[] = [];
    let token: string | undefined;
    do {
      const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
      found.push(...(page.Contents ?? []).map((o) => o.Key as string));
      token = page.NextContinuationToken;
    } while (token);
    return found;
  };
  return {
    bucket,
    warehouseUri,
    runsUri: `s3://${bucket}/${RUNS_PREFIX}`,
    stagingUri,
    environment,
    s3,
    glue,
    catalog: new GlueCatalog(glue),
    storage: new S3LakeStorage(s3),
    lambda,
    lambdaClient,
    writer: new LambdaLakeWriter(lambdaClient, LAKE_WRITER_FUNCTION),
    keys,
    close: async () => {
      s3.destroy();
      glue.destroy();
      lambdaClient.destroy();
      await lambda.stop();
    },
  };
};
