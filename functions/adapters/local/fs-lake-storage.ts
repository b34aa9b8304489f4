/**
 * @module fs-lake-storage
 * Local LakeStorage: lake files are plain files under the warehouse directory.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { LakeStorage } from '#domain/lake/ports';

/** Reads `file://` URIs and plain paths. */
export class FsLakeStorage implements LakeStorage {
  readText(uri: string): Promise<string> {
    return readFile(uri.startsWith('file:') ? fileURLToPath(uri) : uri, 'utf8');
  }
}
