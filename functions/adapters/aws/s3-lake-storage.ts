/**
 * @module s3-lake-storage
 * The AWS LakeStorage: lake files are S3 objects (`s3://bucket/key`).
 */
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { LakeStorage } from '#domain/lake/ports';

/** S3-backed {@link LakeStorage}. */
export class S3LakeStorage implements LakeStorage {
  constructor(private readonly s3: S3Client) {}

  async readText(uri: string): Promise<string> {
    const match = /^s3a?:\/\/([^/]+)\/(.+)$/.exec(uri);
    if (!match) throw new Error(`not an S3 URI: ${uri}`);
    const out = await this.s3.send(new GetObjectCommand({ Bucket: match[1], Key: match[2] }));
    return (await out.Body?.transformToString('utf8')) ?? '';
  }
}
