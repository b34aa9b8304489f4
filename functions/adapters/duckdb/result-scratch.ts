/**
 * @module duckdb/result-scratch
 * Where the engine's exported results wait for the local lake writer: private temporary
 * directories (mode 0700) under the OS temp directory, removed with their content once the lake
 * writer has landed the files.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ScratchSpace } from '#domain/lake/ports';

/** Temporary-directory {@link ScratchSpace}. */
export class TempDirectoryScratch implements ScratchSpace {
  constructor(private readonly root: string = os.tmpdir()) {}

  create(): Promise<string> {
    return mkdtemp(path.join(this.root, 'lakeline-result-'));
  }

  async remove(directory: string): Promise<void> {
    await rm(directory, { recursive: true, force: true });
  }
}
