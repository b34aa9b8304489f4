// The blob stores for raw bodies of large events: the local directory store for real, and the S3
// store's request shapes (aws-sdk-client-mock checks what it would send; S3 is AWS-only).
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetObjectCommand, PutObjectCommand, S3Client, type GetObjectCommandOutput } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { DirectoryBlobStore } from '#adapters/blob/directory-blob-store';
import { S3BlobStore } from '#adapters/blob/s3-blob-store';

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

describe('S3BlobStore', () => {
  const s3 = mockClient(S3Client);
  afterEach(() => s3.reset());

  it('Should put the body as opaque bytes in its bucket under the key', async () => {
    // Prepare
    s3.on(PutObjectCommand).resolves({});
    const store = new S3BlobStore(new S3Client({ region: 'eu-west-1' }), 'blob-bucket');
    const body = Buffer.from('gzip bytes');

    // Act
    await store.put('events/o/e/h.json.gz', body);

    // Assess
    const calls = s3.commandCalls(PutObjectCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input).toEqual({ Bucket: 'blob-bucket', Key: 'events/o/e/h.json.gz', Body: body, ContentType: 'application/octet-stream' });
  });

  it('Should get the object of the key from its bucket and return its bytes', async () => {
    // Prepare
    // The SDK's response body exposes transformToByteArray (its stream mixin); that is all the store uses.
    const Body = { transformToByteArray: async () => new Uint8Array(Buffer.from('abcdef')) } as unknown as GetObjectCommandOutput['Body'];
    s3.on(GetObjectCommand).resolves({ Body });
    const store = new S3BlobStore(new S3Client({ region: 'eu-west-1' }), 'blob-bucket');

    // Act
    const read = await store.get('events/o/e/h.json.gz');

    // Assess
    expect(read.toString()).toBe('abcdef');
    expect(s3.commandCalls(GetObjectCommand)[0]?.args[0].input).toEqual({ Bucket: 'blob-bucket', Key: 'events/o/e/h.json.gz' });
  });

  it('Should pass S3 errors on (AccessDenied for a missing object under the granted policy)', async () => {
    // Prepare
    s3.on(GetObjectCommand).rejects(Object.assign(new Error('Access Denied'), { name: 'AccessDenied' }));
    const store = new S3BlobStore(new S3Client({ region: 'eu-west-1' }), 'blob-bucket');

    // Act & Assess
    await expect(store.get('events/none')).rejects.toMatchObject({ name: 'AccessDenied' });
  });
});
