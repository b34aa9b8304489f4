/**
 * @module athena-bloom
 * The AWS {@link BloomEngine}: Amazon Athena, engine version 3 (Trino), in the deployment's own
 * workgroup (`lib/bloom.ts`: results in the warehouse bucket, a bytes-scanned cutoff per query).
 * Tables are the Glue tables of the lake (`org_<id>__<namespace>.<table>` in `AwsDataCatalog`),
 * qualified by `bloom/qualify.ts`. A run is a `CREATE TABLE … WITH (table_type = 'ICEBERG') AS`
 * into the org's results database; its state is Athena's (`GetQueryExecution`), so any process
 * can poll or stop it (`StopQueryExecution`). A statement answered in one call is polled to its
 * end and its rows paged with `GetQueryResults`, typed by Athena's own type names.
 */
import {
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  StartQueryExecutionCommand,
  StopQueryExecutionCommand,
  type AthenaClient,
  type ColumnInfo,
  type QueryExecution,
} from '@aws-sdk/client-athena';
import type { BloomAnswer, BloomHandle, BloomQuery, BloomQueryLimits, BloomStatus } from '#domain/bloom/engine';
import type { BloomEngine } from '#domain/bloom/ports';
import { qualifyTables, quoteTrino, resultsTableAs } from '#domain/bloom/qualify';
import { ExecutionError, ValidationError } from '#domain/errors';
import type { TabularResult } from '#domain/lake/engine';
import { catalogNameForOrg, type TableName } from '#domain/core/names';
import { glueDatabaseName } from './glue-catalog.ts';

/** What the adapter needs from the deployment. */
export interface AthenaBloomOptions {
  /** The bloom workgroup (engine version 3, enforced result location and scan cutoff). */
  readonly workGroup: string;
  /** `s3://bucket/warehouse`: where results tables live (`<warehouse>/<catalog>/<namespace>/<table>`). */
  readonly warehouseUri: string;
  /** Polling interval of a statement answered in one call. @default 500 */
  readonly pollMs?: number;
}

const PLATFORM = 'athena';
const DATA_CATALOG = 'awsdatacatalog';
/** `GetQueryResults` returns at most 1000 rows a page. */
const PAGE_ROWS = 1000;

/** Athena's name of one of the org's tables. */
export const athenaTableName = (orgId: string) => (t: TableName) => `${quoteTrino(DATA_CATALOG)}.${quoteTrino(glueDatabaseName(orgId, t.namespace))}.${quoteTrino(t.table)}`;

/** Athena's type name of a result column (`decimal(15,2)`, `varchar`, `bigint`, …). */
export const athenaTypeName = (c: ColumnInfo): string => (c.Type === 'decimal' ? `decimal(${c.Precision ?? 38},${c.Scale ?? 0})` : (c.Type ?? 'varchar'));

/**
 * One Athena value (always text, or absent for NULL) as JSON, by its column type: integers and
 * floating point numbers become numbers when a double holds them exactly, booleans booleans, and
 * everything else (decimals, dates, timestamps, nested values) stays Athena's text.
 */
export const athenaValue = (type: string, text: string | undefined): unknown => {
  if (text === undefined) return null;
  if (['tinyint', 'smallint', 'integer', 'int', 'bigint'].includes(type)) {
    const n = Number(text);
    return Number.isSafeInteger(n) ? n : text;
  }
  if (['double', 'float', 'real'].includes(type)) {
    const n = Number(text);
    return Number.isFinite(n) ? n : text;
  }
  if (type === 'boolean') return text === 'true';
  return text;
};

const stateOf = (execution: QueryExecution | undefined): string => execution?.Status?.State ?? 'UNKNOWN';

/** Athena's errors in the caller's SQL are 400s; everything else is the engine's (500). */
const failure = (execution: QueryExecution | undefined): Error => {
  const reason = execution?.Status?.StateChangeReason ?? 'no reason given';
  const category = execution?.Status?.AthenaError?.ErrorCategory;
  // ErrorCategory 2 is "USER": a syntax, semantic or permission error in the statement.
  return category === 2 ? new ValidationError(`query: bloom (Athena) refused the statement: ${reason}`) : new ExecutionError(`bloom (Athena) failed: ${reason}`);
};

/** The AWS bloom engine. */
export class AthenaBloomEngine implements BloomEngine {
  readonly platform = PLATFORM;

  constructor(
    private readonly athena: Pick<AthenaClient, 'send'>,
    private readonly options: AthenaBloomOptions,
  ) {}

  async version(): Promise<string> {
    return 'athena engine version 3';
  }

  private async startSql(sql: string, token?: string): Promise<string> {
    const out = await this.athena.send(
      new StartQueryExecutionCommand({
        QueryString: sql,
        WorkGroup: this.options.workGroup,
        QueryExecutionContext: { Catalog: DATA_CATALOG },
        // The run id makes a retried start the same query rather than a second one.
        ...(token ? { ClientRequestToken: token } : {}),
      }),
    );
    if (!out.QueryExecutionId) throw new ExecutionError('bloom (Athena) did not return a query execution id');
    return out.QueryExecutionId;
  }

  private async execution(queryId: string): Promise<QueryExecution | undefined> {
    return (await this.athena.send(new GetQueryExecutionCommand({ QueryExecutionId: queryId }))).QueryExecution;
  }

  /** Polls a statement until it ends or the deadline passes (then stops it). */
  private async wait(queryId: string, deadline: number): Promise<QueryExecution | undefined> {
    for (;;) {
      const execution = await this.execution(queryId);
      const state = stateOf(execution);
      if (state === 'SUCCEEDED') return execution;
      if (state === 'FAILED') throw failure(execution);
      if (state === 'CANCELLED') throw new ExecutionError('bloom (Athena) statement was cancelled');
      if (Date.now() >= deadline) {
        await this.athena.send(new StopQueryExecutionCommand({ QueryExecutionId: queryId }));
        throw new ExecutionError('bloom (Athena) statement exceeded its time limit and was stopped');
      }
      await new Promise((r) => setTimeout(r, this.options.pollMs ?? 500));
    }
  }

  async start(query: BloomQuery): Promise<BloomHandle> {
    const select = qualifyTables(query.sql, query.tables, athenaTableName(query.orgId));
    if (!query.resultsTable) return { platform: PLATFORM, queryId: await this.startSql(select, query.label) };
    const database = glueDatabaseName(query.orgId, query.resultsTable.namespace);
    // Athena's DDL for a database is Hive's: backquoted names. Its run is short; wait for it.
    const ddl = await this.startSql(`CREATE DATABASE IF NOT EXISTS \`${database}\``);
    await this.wait(ddl, Date.now() + 60_000);
    // The query's column names, from Athena's analysis of it: a table needs every column named.
    const probe = await this.startSql(`SELECT * FROM (\n${select}\n) LIMIT 0`);
    await this.wait(probe, Date.now() + 60_000);
    const columns = (await this.athena.send(new GetQueryResultsCommand({ QueryExecutionId: probe, MaxResults: 1 }))).ResultSet?.ResultSetMetadata?.ColumnInfo ?? [];
    const location = `${this.options.warehouseUri.replace(/\/+$/, '')}/${catalogNameForOrg(query.orgId)}/${query.resultsTable.namespace}/${query.resultsTable.table}`;
    const properties = `WITH (table_type = 'ICEBERG', is_external = false, format = 'PARQUET', location = '${location.replaceAll("'", "''")}')`;
    const ctas = resultsTableAs(athenaTableName(query.orgId)(query.resultsTable), select, columns.map((c) => c.Name ?? ''), properties);
    return { platform: PLATFORM, queryId: await this.startSql(ctas, query.label) };
  }

  async status(handle: BloomHandle): Promise<BloomStatus> {
    const execution = await this.execution(handle.queryId);
    switch (stateOf(execution)) {
      case 'QUEUED':
      case 'RUNNING':
        return { state: 'RUNNING' };
      case 'CANCELLED':
        return { state: 'ABORT' };
      case 'FAILED':
        return { state: 'FAIL', error: execution?.Status?.StateChangeReason ?? 'Athena reported FAILED without a reason' };
      case 'SUCCEEDED': {
        const stats = execution?.Statistics;
        // A CTAS reports the rows it wrote as the result's update count.
        const page = await this.athena.send(new GetQueryResultsCommand({ QueryExecutionId: handle.queryId, MaxResults: 1 }));
        return {
          state: 'COMPLETE',
          ...(page.UpdateCount !== undefined ? { rows: page.UpdateCount } : {}),
          ...(stats?.DataScannedInBytes !== undefined ? { scannedBytes: stats.DataScannedInBytes } : {}),
          ...(stats?.EngineExecutionTimeInMillis !== undefined ? { engineMs: stats.EngineExecutionTimeInMillis } : {}),
        };
      }
      default:
        return { state: 'FAIL', error: `Athena reported an unknown state ${stateOf(execution)}` };
    }
  }

  async cancel(handle: BloomHandle): Promise<void> {
    await this.athena.send(new StopQueryExecutionCommand({ QueryExecutionId: handle.queryId }));
  }

  async query(query: BloomQuery, limits: BloomQueryLimits): Promise<BloomAnswer> {
    if (query.resultsTable) throw new Error('query() answers rows; a results table is for start()');
    const started = performance.now();
    const { queryId } = await this.start(query);
    const execution = await this.wait(queryId, Date.now() + limits.timeoutMs);
    const results = await this.results(queryId, limits.maxRows);
    const scanned = execution?.Statistics?.DataScannedInBytes;
    return { results, executionMs: performance.now() - started, ...(scanned !== undefined ? { scannedBytes: scanned } : {}) };
  }

  /** Pages every row of a finished SELECT (the first row of the first page is the header). */
  private async results(queryId: string, maxRows: number): Promise<TabularResult> {
    let columns: ColumnInfo[] | undefined;
    const rows: unknown[][] = [];
    let token: string | undefined;
    let first = true;
    do {
      const page = await this.athena.send(new GetQueryResultsCommand({ QueryExecutionId: queryId, MaxResults: PAGE_ROWS, ...(token ? { NextToken: token } : {}) }));
      columns ??= page.ResultSet?.ResultSetMetadata?.ColumnInfo ?? [];
      const types = columns.map(athenaTypeName);
      const data = page.ResultSet?.Rows ?? [];
      for (const [i, row] of data.entries()) {
        if (first && i === 0) continue;
        rows.push(types.map((type, c) => athenaValue(type, row.Data?.[c]?.VarCharValue)));
      }
      first = false;
      if (rows.length > maxRows) throw new ExecutionError(`the result has more than ${maxRows} rows`);
      token = page.NextToken;
    } while (token);
    return { columns: (columns ?? []).map((c) => c.Name ?? ''), column_types: (columns ?? []).map(athenaTypeName), rows };
  }
}
