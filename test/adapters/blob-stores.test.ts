// The blob stores for raw bodies of large events: the local directory store, and the S3 store on
// the AWS emulator's S3 (test/aws/emulator.ts).
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { CreateBucketCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DirectoryBlobStore } from '#adapters/blob/directory-blob-store';
import { S3BlobStore } from '#adapters/blob/s3-blob-store';
import { awsClientConfig } from '../aws/emulator.ts';

describe('DirectoryBlobStore', () => {
  const root = () => mkdtempSync(path.join(tmpdir(), 'lakeline-blob-dir-'));

  it('Should write a blob under its key and read it back byte for byte', async () => {
    // Prepare
    const dir = root();
    const store = new DirectoryBlobStore(dir);
    const body = Buffer.from([0, 1, 2, 255, 10, 13]);

    // Act
    await store.put('events/org-1/event-1/abc.json.gz', body);
    const read = await store.get('events/org-1/event-1/abc.json.gz');

    // Assess
    expect(read.equals(body)).toBe(true);
    expect(readdirSync(path.join(dir, 'events', 'org-1', 'event-1'))).toEqual(['abc.json.gz']);
  });

  it('Should replace a blob whole and leave no temporary file behind', async () => {
    // Prepare
    const dir = root();
    const store = new DirectoryBlobStore(dir);
    await store.put('k/one', Buffer.from('first'));

    // Act
    await store.put('k/one', Buffer.from('second'));

    // Assess
    expect((await store.get('k/one')).toString()).toBe('second');
    expect(readdirSync(path.join(dir, 'k'))).toEqual(['one']);
  });

  it('Should reject reading a blob that does not exist', async () => {
    // Act & Assess
    await expect(new DirectoryBlobStore(root()).get('events/none')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it.each([['../escape'], ['events/../../etc/passwd'], ['/absolute'], ['a//b'], ['a/./b'], ['']])('Should refuse the key %j, which could leave its directory', async (key) => {
    // Prepare
    const dir = root();
    const store = new DirectoryBlobStore(dir);

    // Act & Assess
    await expect(store.put(key, Buffer.from('x'))).rejects.toThrow(/is not a safe relative path/);
    await expect(store.get(key)).rejects.toThrow(/is not a safe relative path/);
    expect(existsSync(path.join(dir, '..', 'escape'))).toBe(false);
  });
});

describe('S3BlobStore on the AWS emulator', () => {
  const s3 = new S3Client(awsClientConfig(inject('aws')));
  const bucket = `lakeline-blob-store-${randomUUID().slice(0, 8)}`;
  const store = new S3BlobStore(s3, bucket);

  beforeAll(async () => {
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  });

  afterAll(() => s3.destroy());

  it('Should write a blob under its key as opaque bytes and read it back byte for byte', async () => {
    // Prepare
    const body = Buffer.from([0x1f, 0x8b, 0, 1, 2, 255, 10, 13]);

    // Act
    await store.put('events/o/e/h.json.gz', body);
    const read = await store.get('events/o/e/h.json.gz');

    // Assess
    expect(read.equals(body)).toBe(true);
    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: 'events/o/e/h.json.gz' }));
    // No Content-Encoding: no client may decompress the gzip body on the way out.
    expect({ type: head.ContentType, encoding: head.ContentEncoding }).toEqual({ type: 'application/octet-stream', encoding: undefined });
  });

  it('Should replace a blob whole', async () => {
    // Prepare
    await store.put('k/one', Buffer.from('first, and longer'));

    // Act
    await store.put('k/one', Buffer.from('second'));

    // Assess
    expect((await store.get('k/one')).toString()).toBe('second');
  });

  it('Should pass S3 errors on for a blob that does not exist', async () => {
    // Act & Assess (with s3:ListBucket, as here, S3 says NoSuchKey; the deployed policy without it says AccessDenied)
    await expect(store.get('events/none')).rejects.toMatchObject({ name: 'NoSuchKey' });
  });
});
