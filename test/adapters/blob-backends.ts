/**
 * @module blob-backends
 * Where each store suite's large event bodies go: the local profile's blob directory beside
 * dynalite, and the AWS profile's S3 blob store on the emulator's S3 beside its DynamoDB.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { inject } from 'vitest';
import { DirectoryBlobStore } from '#adapters/blob/directory-blob-store';
import { S3BlobStore } from '#adapters/blob/s3-blob-store';
import type { BlobStore } from '#domain/lineage/ports';
import { awsClientConfig } from '../aws/emulator.ts';
import type { DynamoBackendName } from './dynamo-backends.ts';

/** A blob store of a suite, and what it holds. */
export interface TestBlobStore {
  readonly store: BlobStore;
  /** Creates what the store needs (the bucket); call once before use. */
  prepare(): Promise<void>;
  /** How many blobs it holds. */
  count(): Promise<number>;
}

/** A fresh local blob directory. */
export const directoryBlobs = (): TestBlobStore => {
  const dir = mkdtempSync(path.join(tmpdir(), 'lakeline-blobs-'));
  return {
    store: new DirectoryBlobStore(dir),
    prepare: async () => undefined,
    count: async () => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).length,
  };
};

/** A fresh bucket in the emulated account, behind the AWS profile's S3 blob store. */
export const s3Blobs = (): TestBlobStore => {
  const s3 = new S3Client(awsClientConfig(inject('aws')));
  const bucket = `lakeline-blobs-${randomUUID().slice(0, 8)}`;
  return {
    store: new S3BlobStore(s3, bucket),
    prepare: async () => void (await s3.send(new CreateBucketCommand({ Bucket: bucket }))),
    count: async () => (await s3.send(new ListObjectsV2Command({ Bucket: bucket }))).KeyCount ?? 0,
  };
};

/** The blob store each DynamoDB backend is paired with. */
export const blobStoreFor = (backend: DynamoBackendName): TestBlobStore => (backend === 'dynalite' ? directoryBlobs() : s3Blobs());
