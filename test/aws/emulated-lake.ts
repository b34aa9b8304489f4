/**
 * @module emulated-lake
 * A lakeline lake in the emulated account, laid out as `lib/warehouse.ts` lays out the deployed
 * one (one bucket: `warehouse/`, `runs/`, `polars-staging/`), with the AWS profile's adapters on
 * it: the Glue catalog, S3 lake storage and the lake writer Lambda's handler. Each suite gets a
 * bucket of its own; Glue databases are per org (`org_<id>__<namespace>`), so suites that use
 * fresh org ids never see each other's tables.
 */
import { randomUUID } from 'node:crypto';
import { GlueClient } from '@aws-sdk/client-glue';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { GlueCatalog } from '#adapters/aws/glue-catalog';
import { S3LakeStorage } from '#adapters/aws/s3-lake-storage';
import { POLARS_STAGING_URI_ENV } from '#composition/env-names';
import { PROFILE_ENV, WAREHOUSE_URI_ENV } from '#composition/env-names';
import { POLARS_STAGING_PREFIX, RUNS_PREFIX, WAREHOUSE_PREFIX } from '../../lib/warehouse.ts';
import { awsClientConfig, awsEnvironment, type AwsEmulatorInfo } from './emulator.ts';
import { LakeWriterFunction } from './lambda-stand-in.ts';

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
  /** The lake writer Lambda's handler with its deployed environment. */
  readonly writer: LakeWriterFunction;
  /** Keys of the bucket's objects below a prefix. */
  keys(prefix: string): Promise<string[]>;
  close(): void;
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
    writer: new LakeWriterFunction(environment),
    keys,
    close: () => {
      s3.destroy();
      glue.destroy();
    },
  };
};
