/**
 * @module directory-blob-store
 * BlobStore in a local directory (`<LAKELINE_HOME>/blobs/` in the local profile): one file per
 * key. Writes go to a temporary file that is renamed into place, so a reader never sees a
 * partly written blob and a crash never leaves one behind under the real key.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BlobStore } from '#domain/lineage/ports';

// Keys are built by the event store from ids (`events/<org>/<event>/<hash>.json.gz`); anything
// else, in particular `..` segments, is refused so a key can never leave the directory.
const SAFE_KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(?:\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

/** Directory-backed {@link BlobStore}. */
export class DirectoryBlobStore implements BlobStore {
  /** @param root - the directory holding the blobs; created on first write */
  constructor(private readonly root: string) {}

  async put(key: string, body: Uint8Array): Promise<void> {
    const file = this.fileOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    const temporary = `${file}.${randomUUID()}.tmp`;
    try {
      // flush: the data reaches the disk before the rename publishes it.
      await writeFile(temporary, body, { flush: true });
      await rename(temporary, file);
    } catch (err) {
      await rm(temporary, { force: true });
      throw err;
    }
  }

  async get(key: string): Promise<Buffer> {
    return readFile(this.fileOf(key));
  }

  private fileOf(key: string): string {
    if (!SAFE_KEY.test(key) || key.split('/').includes('..')) throw new Error(`blob key ${JSON.stringify(key)} is not a safe relative path`);
    return path.join(this.root, ...key.split('/'));
  }
}
