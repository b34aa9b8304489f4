/**
 * @module polars-api
 * Helpers of the polars suites: a client of `POST /api/v1/warehouse/polars`, and Iceberg test
 * tables built with pyiceberg (`test/python/build_test_tables.py`) in any stack's catalog.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../helpers/local-stack-process.ts';
import type { Answer, Tabular } from './warehouse-api.ts';

/** The contract's `PolarsResponse`, and the `{error, details}` of a 4xx. */
export interface PolarsBody {
  readonly success?: boolean;
  readonly results?: Tabular;
  readonly row_count?: number;
  readonly execution_time?: string;
  readonly saved?: { table: string; rows_written: number; mode: string };
  readonly compute?: { mode: string; distributed: boolean; instanceType: string | null; clusterSize: number | null };
  readonly error?: string;
  readonly details?: string;
  readonly status?: number;
}

/** `POST /api/v1/warehouse/polars` as one caller. */
export const polarsApi = (baseUrl: string, token: string) => async (body: unknown): Promise<Answer<PolarsBody>> => {
  const response = await fetch(`${baseUrl}/api/v1/warehouse/polars`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body: parsed as PolarsBody };
};

/** Builds test tables (cases of build_test_tables.py) in an org's catalog under a stack's home. */
export const buildTablesAt = async (home: string, orgId: string, namespace: string, cases: readonly string[]): Promise<void> => {
  await promisify(execFile)(
    path.join(REPO_ROOT, '.lakeline', 'venv', 'bin', 'python'),
    ['-W', 'ignore', path.join(REPO_ROOT, 'test', 'python', 'build_test_tables.py'), orgId, namespace, ...cases],
    { cwd: REPO_ROOT, env: { ...process.env, LAKELINE_HOME: home, LAKELINE_PROFILE: 'local', PYTHONPATH: path.join(REPO_ROOT, 'functions', 'lakewriter') } },
  );
};
