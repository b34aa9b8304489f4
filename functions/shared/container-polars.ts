/**
 * @module container-polars
 * The composition root of the polars endpoint: the sandbox for the configured profile (the warm
 * bubblewrap pool locally, the per-tier Python Lambdas in AWS) and the use case's dependencies.
 * Separate from the other containers so only the polars function bundles these adapters.
 */
import { LambdaClient } from '@aws-sdk/client-lambda';
import path from 'node:path';
import { LambdaPolarsSandbox } from '#adapters/aws/lambda-polars-sandbox';
import { BwrapPolarsPool } from '#adapters/local/polars-pool';
import type { PolarsDeps, PolarsSandbox } from '#domain/polars/index';
import { getConfig, REPO_ROOT } from './config.ts';
import { catalog, lakeStorage, lakeWriter } from './container-lake.ts';
import { orgStore } from './container.ts';
import { once } from './once.ts';
import { POLARS_TIMEOUT_ENV, POLARS_WORKERS_ENV, polarsFunctionEnv } from './polars-env.ts';

const positive = (name: string): number | undefined => {
  const text = process.env[name];
  if (text === undefined || text === '') return undefined;
  const n = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !(n > 0)) throw new Error(`configuration: ${name} must be a positive number, not ${text}`);
  return n;
};

/** The polars sandbox. */
export const polarsSandbox = once((): PolarsSandbox & { warm?(): void } => {
  const config = getConfig();
  if (config.profile === 'aws') {
    const functions = Object.fromEntries([2, 4].flatMap((tier) => (process.env[polarsFunctionEnv(tier)] ? [[tier, process.env[polarsFunctionEnv(tier)] as string]] : [])));
    return new LambdaPolarsSandbox(new LambdaClient({}), functions);
  }
  const timeoutSeconds = positive(POLARS_TIMEOUT_ENV);
  const maxWorkers = positive(POLARS_WORKERS_ENV);
  return new BwrapPolarsPool({
    pythonBin: config.lake.pythonBin as string,
    codeDir: path.join(REPO_ROOT, 'functions', 'polars'),
    warehouse: config.lake.warehouse as string,
    stateDir: path.join(config.home, 'polars'),
    ...(timeoutSeconds === undefined ? {} : { timeoutSeconds }),
    ...(maxWorkers === undefined ? {} : { maxWorkers: Math.floor(maxWorkers) }),
  });
});

/** Starts the first sandbox worker during cold start (local); errors surface on the first request. */
export const warmPolarsSandbox = (): void => {
  try {
    polarsSandbox().warm?.();
  } catch {
    // A misconfiguration surfaces on the first request, with its error handling.
  }
};

/** Everything the polars use case needs. Locally the lake writer reads the staged result file. */
export const polarsDeps = once(
  (): PolarsDeps => ({
    orgs: orgStore(),
    catalog: catalog(),
    storage: lakeStorage(),
    sandbox: polarsSandbox(),
    ...(getConfig().profile === 'local' ? { writer: lakeWriter() } : {}),
  }),
);
