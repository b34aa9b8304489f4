/**
 * @module s3-blob-store
 * BlobStore on S3: the AWS profile's home for raw bodies of events above DynamoDB's item limit.
 * Functions are granted `s3:GetObject` (and `s3:PutObject` where they write) on the bucket's
 * objects only, so a missing object reads as AccessDenied rather than NoSuchKey.
 */
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { BlobStore } from '#domain/lineage/ports';

/** S3-backed {@link BlobStore}; bodies are stored as given (the event store gzips them). */
export class S3BlobStore implements BlobStore {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  async put(key: string, body: Uint8Array): Promise<void> {
    // The body is opaque bytes to S3: no Content-Encoding, so no client decompresses it on the way out.
    await this.s3.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: 'application/octet-stream' }));
  }

  async get(key: string): Promise<Buffer> {
    const out = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    if (out.Body === undefined) throw new Error(`blob ${key}: empty response body`);
    return Buffer.from(await out.Body.transformToByteArray());
  }
}
