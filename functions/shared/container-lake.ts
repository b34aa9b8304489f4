/**
 * @module container-lake
 * The composition root of the lake: the Iceberg catalog, lake storage, the lake writer and the
 * DuckDB engine, each built once per cold start for the configured profile. Separate from
 * `container.ts` so that only the functions that read or write the lake bundle these adapters.
 */
import { GlueClient } from '@aws-sdk/client-glue';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { S3Client } from '@aws-sdk/client-s3';
import { randomUUID } from 'node:crypto';
import { GlueCatalog } from '#adapters/aws/glue-catalog';
import { LambdaLakeWriter } from '#adapters/aws/lambda-lake-writer';
import { S3LakeStorage } from '#adapters/aws/s3-lake-storage';
import { DuckDBQueryEngine } from '#adapters/duckdb/engine';
import { TempDirectoryScratch } from '#adapters/duckdb/result-scratch';
import { s3SecretStatements } from '#adapters/duckdb/s3-secret';
import { FsLakeStorage } from '#adapters/local/fs-lake-storage';
import { SqliteCatalog } from '#adapters/local/sqlite-catalog';
import { SubprocessLakeWriter } from '#adapters/local/subprocess-lake-writer';
import type { Catalog, LakeStorage, LakeWriter, ScratchSpace } from '#domain/lake/ports';
import type { LegacyQueryDeps } from '#domain/query/legacy-query';
import { getConfig, REPO_ROOT } from './config.ts';
import { lineageSink, orgStore } from './container.ts';
import { logger } from './observability.ts';
import { once } from './once.ts';

/** The Iceberg catalog: Glue in AWS, the SQLite SQL catalog locally. */
export const catalog = once((): Catalog => {
  const config = getConfig();
  if (config.profile === 'aws') return new GlueCatalog(new GlueClient({}));
  return new SqliteCatalog(config.lake.catalogFile as string, config.lake.duckdbExtensionDir);
});

/** Reads lake files (table metadata): S3 in AWS, the warehouse directory locally. */
export const lakeStorage = once((): LakeStorage => (getConfig().profile === 'aws' ? new S3LakeStorage(new S3Client({})) : new FsLakeStorage()));

/** The lake writer (pyiceberg): a Python Lambda in AWS, a subprocess locally. */
export const lakeWriter = once((): LakeWriter => {
  const config = getConfig();
  if (config.profile === 'aws') {
    if (!config.lake.lakeWriterFunction) throw new Error('configuration: the lake writer function is not bound to this function');
    return new LambdaLakeWriter(new LambdaClient({}), config.lake.lakeWriterFunction);
  }
  return new SubprocessLakeWriter(config.lake.pythonBin as string, REPO_ROOT, config.home);
});

/**
 * The DuckDB engine of the legacy and routed endpoints: extension files from the layer
 * (`/opt/duckdb-extensions`) or the local set-up; in AWS it also loads httpfs and reads S3 with
 * the function's role.
 */
export const queryEngine = once((): DuckDBQueryEngine => {
  const config = getConfig();
  if (config.profile === 'aws') {
    return new DuckDBQueryEngine({ extensionDir: config.lake.duckdbExtensionDir, extraExtensions: ['httpfs'], setupStatements: () => s3SecretStatements(config.awsEndpoints.s3) });
  }
  return new DuckDBQueryEngine({ extensionDir: config.lake.duckdbExtensionDir });
});

/** Starts preparing the engine's first instance (handlers call it at cold start). */
export const warmQueryEngine = (): void => {
  try {
    queryEngine().warm();
  } catch (err) {
    // A misconfiguration surfaces on the first request, with the request's error handling.
    logger.warn('query engine not warmed', { error: err });
  }
};

/**
 * Local staging for autosaved results (the subprocess lake writer reads local files). In AWS the
 * lake writer Lambda cannot read this function's /tmp, so there is none and autosave says so.
 */
export const scratchSpace = once((): ScratchSpace | undefined => (getConfig().profile === 'local' ? new TempDirectoryScratch() : undefined));

/** Everything the legacy warehouse query needs. */
export const legacyQueryDeps = once(
  (): LegacyQueryDeps => {
    const scratch = scratchSpace();
    return {
      orgs: orgStore(),
      catalog: catalog(),
      storage: lakeStorage(),
      writer: lakeWriter(),
      engine: queryEngine(),
      lineage: lineageSink(),
      catalogKind: getConfig().profile === 'aws' ? 'glue' : 'jdbc',
      ...(scratch ? { scratch } : {}),
      warn: (message, fields) => logger.warn(message, fields),
      newRunId: () => randomUUID(),
    };
  },
);
