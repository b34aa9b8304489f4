/**
 * @module warehouse-api
 * Helpers of the warehouse and DuckDB suites: a client of `POST /api/v1/warehouse/query`, a fresh
 * organization per suite on the shared stack, and Iceberg test tables built with pyiceberg
 * (`test/python/build_test_tables.py`) in that organization's catalog.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import type { CreateOrgInput } from '#domain/orgs/manage';
import type { StoredLineageEvent } from '#domain/lineage/types';
import { orgWithKey, storesAt } from '../helpers/stores.ts';
import { REPO_ROOT } from '../helpers/local-stack-process.ts';

/** An HTTP answer, body parsed when it is JSON. */
export interface Answer<T = Record<string, unknown>> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: T;
}

/** The contract's tabular result. */
export interface Tabular {
  readonly columns: string[];
  readonly column_types: string[];
  readonly rows: unknown[][];
}

/** The contract's `QueryResponse` (and error bodies: `error`, `status`). */
export interface QueryAnswerBody {
  readonly success?: boolean;
  readonly results?: Tabular;
  readonly row_count?: number;
  readonly execution_time?: string;
  readonly query?: string;
  readonly job?: { namespace: string; name: string };
  readonly explainResult?: { success: boolean; results: Tabular; row_count: number; execution_time: string };
  readonly error?: string;
  readonly status?: number;
}

const answer = async <T>(response: Response): Promise<Answer<T>> => {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body: body as T };
};

/** The warehouse endpoint (and the events listing) as one caller. */
export const warehouseApi = (baseUrl: string, token: string) => {
  const auth = { authorization: `Bearer ${token}` };
  return {
    /** `POST /api/v1/warehouse/query` with a JSON body (an object is serialized, a string sent as is). */
    query: (body: unknown) =>
      fetch(`${baseUrl}/api/v1/warehouse/query`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }).then((r) => answer<QueryAnswerBody>(r)),
    /** `GET /api/v1/events` over all time, with further parameters. */
    events: async (params: Record<string, string>): Promise<StoredLineageEvent[]> => {
      const query = new URLSearchParams({ start: '0', end: '4102444800', limit: '100', ...params });
      const r = await answer<StoredLineageEvent[]>(await fetch(`${baseUrl}/api/v1/events?${query.toString()}`, { headers: auth }));
      if (r.status !== 200) throw new Error(`events: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body;
    },
    /** The events of one run, oldest first. */
    runEvents: (runId: string): Promise<StoredLineageEvent[]> => warehouseApi(baseUrl, token).events({ run: runId, order: 'ASC' }),
    /** `GET /api/v1/tables/{namespace}/{table}`. */
    table: (namespace: string, table: string) => fetch(`${baseUrl}/api/v1/tables/${namespace}/${table}`, { headers: auth }).then((r) => answer(r)),
  };
};

/** A client of the warehouse endpoint. */
export type WarehouseApi = ReturnType<typeof warehouseApi>;

/** A new organization (Pro with a payment method unless told otherwise) with a key, on the shared stack. */
export const freshOrg = async (name: string, input: Partial<CreateOrgInput> = {}): Promise<{ orgId: string; token: string; api: WarehouseApi }> => {
  const stack = inject('stack');
  const stores = storesAt(stack.dynamodbEndpoint);
  try {
    const { org, token } = await orgWithKey(stores, { name, plan: 'pro', paymentMethod: true, ...input });
    return { orgId: org.orgId, token, api: warehouseApi(stack.baseUrl, token) };
  } finally {
    stores.close();
  }
};

/** What a test-table case wrote and what a correct reader returns (rows ordered by the first column). */
export interface BuiltTable {
  readonly table: string;
  readonly columns: string[];
  readonly expected: unknown[][];
}

/** Cases of `build_test_tables.py`. */
export type TableCase = 'partitioned' | 'by_day' | 'evolved' | 'snapshots' | 'position_deletes' | 'equality_deletes' | 'counter' | 'bump';

/**
 * Builds test tables with pyiceberg in an org's catalog on the shared stack (the stack reads the
 * same SQLite catalog and warehouse, so the tables are queryable at once).
 */
export const buildTables = async (orgId: string, namespace: string, cases: readonly TableCase[]): Promise<Record<string, BuiltTable>> => {
  const stack = inject('stack');
  const { stdout } = await promisify(execFile)(
    path.join(REPO_ROOT, '.lakeline', 'venv', 'bin', 'python'),
    ['-W', 'ignore', path.join(REPO_ROOT, 'test', 'python', 'build_test_tables.py'), orgId, namespace, ...cases],
    { cwd: REPO_ROOT, env: { ...process.env, LAKELINE_HOME: stack.home, LAKELINE_PROFILE: 'local', PYTHONPATH: path.join(REPO_ROOT, 'functions', 'lakewriter') } },
  );
  return JSON.parse(stdout) as Record<string, BuiltTable>;
};
