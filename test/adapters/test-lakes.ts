/**
 * @module test-lakes
 * The two lakes the lake suites run on with the same assertions: the local profile's (the SQLite
 * Iceberg catalog, the warehouse directory, the lake writer subprocess) and the AWS profile's in
 * the emulated account (Glue, S3, the lake writer Lambda's handler; test/aws/emulated-lake.ts).
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { inject } from 'vitest';
import { FsLakeStorage } from '#adapters/local/fs-lake-storage';
import { SqliteCatalog } from '#adapters/local/sqlite-catalog';
import { SubprocessLakeWriter } from '#adapters/local/subprocess-lake-writer';
import type { Catalog, LakeStorage, LakeWriter } from '#domain/lake/ports';
import { createEmulatedLake } from '../aws/emulated-lake.ts';
import { REPO_ROOT } from '../aws/emulator.ts';
import { PRODUCT_PYTHON } from '../aws/lambda-stand-in.ts';

/** The lakes of the suites. */
export const TEST_LAKES = ['local', 'aws'] as const;

/** One of {@link TEST_LAKES}. */
export type TestLakeName = (typeof TEST_LAKES)[number];

/** A lake with its profile's adapters. */
export interface TestLake {
  readonly catalog: Catalog;
  readonly storage: LakeStorage;
  readonly writer: LakeWriter;
  /**
   * Stages Parquet rows where this profile's lake writer reads write sources from (a local file;
   * in AWS an object below the polars staging prefix) and returns the source's path or URI.
   */
  stage(rows: Record<string, readonly number[]>): Promise<string>;
  /** The data, manifest and metadata files below a table's location. */
  tableFiles(location: string): Promise<string[]>;
  close(): Promise<void>;
}

/** Writes rows as a Parquet file with pyarrow (the engines' own writer); returns its path. */
const parquetFile = (dir: string, rows: Record<string, readonly number[]>): string => {
  const file = path.join(dir, `${randomUUID()}.parquet`);
  const made = spawnSync(PRODUCT_PYTHON, ['-c', `import json, sys, pyarrow as pa, pyarrow.parquet as pq; pq.write_table(pa.table(json.loads(sys.argv[1])), sys.argv[2])`, JSON.stringify(rows), file]);
  if (made.status !== 0) throw new Error(`could not write Parquet: ${made.stderr.toString()}`);
  return file;
};

const LAKE_FILE = /\.(parquet|avro|metadata\.json)$/;

const localLake = (): TestLake => {
  const home = mkdtempSync(path.join(tmpdir(), 'lakeline-test-lake-'));
  const below = (dir: string): string[] =>
    existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name)) : [];
  return {
    catalog: new SqliteCatalog(path.join(home, 'catalog.db'), path.join(REPO_ROOT, '.lakeline', 'duckdb-extensions')),
    storage: new FsLakeStorage(),
    writer: new SubprocessLakeWriter(PRODUCT_PYTHON, REPO_ROOT, home),
    stage: async (rows) => parquetFile(home, rows),
    tableFiles: async (location) => below(location.replace(/^file:\/\//, '')).filter((f) => LAKE_FILE.test(f)),
    close: async () => rmSync(home, { recursive: true, force: true }),
  };
};

const awsLake = async (): Promise<TestLake> => {
  const lake = await createEmulatedLake(inject('aws'));
  const scratch = mkdtempSync(path.join(tmpdir(), 'lakeline-test-staging-'));
  return {
    catalog: lake.catalog,
    storage: lake.storage,
    writer: lake.writer,
    stage: async (rows) => {
      const key = `${lake.stagingUri.slice(`s3://${lake.bucket}/`.length)}/${randomUUID()}/result.parquet`;
      await lake.s3.send(new PutObjectCommand({ Bucket: lake.bucket, Key: key, Body: readFileSync(parquetFile(scratch, rows)) }));
      return `s3://${lake.bucket}/${key}`;
    },
    tableFiles: async (location) => (await lake.keys(`${location.slice(`s3://${lake.bucket}/`.length)}/`)).filter((k) => LAKE_FILE.test(k)),
    close: async () => {
      await lake.close();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
};

/** Opens a fresh lake of a profile. */
export const openTestLake = async (name: TestLakeName): Promise<TestLake> => (name === 'local' ? localLake() : awsLake());
