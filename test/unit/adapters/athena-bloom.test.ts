/**
 * The Athena bloom engine's requests, checked on a fake client object that records every command
 * and answers as Athena does: the workgroup and catalog of each start, the CTAS of a run (Iceberg,
 * in the org's results database, located in the warehouse), polling, result paging with Athena's
 * header row and type names, stopping, and the mapping of Athena's states and errors.
 */
import { GetQueryExecutionCommand, GetQueryResultsCommand, StartQueryExecutionCommand, StopQueryExecutionCommand } from '@aws-sdk/client-athena';
import { describe, expect, it } from 'vitest';
import { AthenaBloomEngine, athenaValue } from '#adapters/aws/athena-bloom';
import { ExecutionError, ValidationError } from '#domain/errors';
import { recordingClient } from './recording-client.ts';

const ORG = 'c8b7d732-bc82-4eed-a256-f1f33b8861d5';
const CATALOG = 'org_c8b7d732bc824eeda256f1f33b8861d5';

type Answer = (command: object) => unknown;

/** A fake Athena client: records commands, answers with `answer`. */
const fakeAthena = (answer: Answer) => recordingClient(answer);

const input = (c: object) => (c as { input: Record<string, unknown> }).input;
const engine = (client: never) => new AthenaBloomEngine(client, { workGroup: 'lakeline-bloom', warehouseUri: 's3://lake-bucket/warehouse/', pollMs: 1 });

describe('Athena bloom engine', () => {
  it('Should start a run as an Iceberg CTAS into the org results database, after creating it and naming every column', async () => {
    // Arrange
    let starts = 0;
    const athena = fakeAthena((c) => {
      if (c instanceof StartQueryExecutionCommand) return { QueryExecutionId: `q${++starts}` };
      if (c instanceof GetQueryExecutionCommand) return { QueryExecution: { Status: { State: 'SUCCEEDED' } } };
      // The probe's columns: one named, one unnamed expression, and a repeated name.
      if (c instanceof GetQueryResultsCommand) return { ResultSet: { ResultSetMetadata: { ColumnInfo: [{ Name: 'o_orderkey' }, { Name: '_col1' }, { Name: 'O_ORDERKEY' }] }, Rows: [] } };
      throw new Error('unexpected command');
    });

    // Act
    const handle = await engine(athena.client).start({
      orgId: ORG,
      sql: 'SELECT o_orderkey, o_orderkey + 1, o_orderkey FROM lakeline.tpch.orders;',
      tables: [{ namespace: 'tpch', table: 'orders' }],
      resultsTable: { namespace: 'lakeline_results', table: 'r_abc' },
      label: '2f1e5a40-1111-4222-8333-944455556666',
    });

    // Assess
    expect(handle).toEqual({ platform: 'athena', queryId: 'q3' });
    const [ddl, poll, probe, probePoll, probeColumns, ctas] = athena.sent;
    expect(input(ddl as object)).toEqual({ QueryString: `CREATE DATABASE IF NOT EXISTS \`${CATALOG}__lakeline_results\``, WorkGroup: 'lakeline-bloom', QueryExecutionContext: { Catalog: 'awsdatacatalog' } });
    expect(input(poll as object)).toEqual({ QueryExecutionId: 'q1' });
    const select = `SELECT o_orderkey, o_orderkey + 1, o_orderkey FROM "awsdatacatalog"."${CATALOG}__tpch"."orders"`;
    expect(input(probe as object)).toEqual({ QueryString: `SELECT * FROM (\n${select}\n) LIMIT 0`, WorkGroup: 'lakeline-bloom', QueryExecutionContext: { Catalog: 'awsdatacatalog' } });
    expect(input(probePoll as object)).toEqual({ QueryExecutionId: 'q2' });
    expect(input(probeColumns as object)).toEqual({ QueryExecutionId: 'q2', MaxResults: 1 });
    expect(input(ctas as object)).toEqual({
      QueryString:
        `CREATE TABLE "awsdatacatalog"."${CATALOG}__lakeline_results"."r_abc"\n` +
        `WITH (table_type = 'ICEBERG', is_external = false, format = 'PARQUET', location = 's3://lake-bucket/warehouse/${CATALOG}/lakeline_results/r_abc') AS\n` +
        `SELECT * FROM (\n${select}\n) AS lakeline_rows ("o_orderkey", "_col1", "O_ORDERKEY_2")\n`,
      WorkGroup: 'lakeline-bloom',
      QueryExecutionContext: { Catalog: 'awsdatacatalog' },
      ClientRequestToken: '2f1e5a40-1111-4222-8333-944455556666',
    });
  });

  it('Should map Athena states to run states, with rows written and bytes scanned', async () => {
    // Arrange
    const states: Record<string, object> = {
      queued: { Status: { State: 'QUEUED' } },
      done: { Status: { State: 'SUCCEEDED' }, Statistics: { DataScannedInBytes: 1234, EngineExecutionTimeInMillis: 56 } },
      failed: { Status: { State: 'FAILED', StateChangeReason: 'Query exhausted resources' } },
      stopped: { Status: { State: 'CANCELLED' } },
    };
    const athena = fakeAthena((c) => {
      if (c instanceof GetQueryExecutionCommand) return { QueryExecution: states[input(c).QueryExecutionId as string] };
      if (c instanceof GetQueryResultsCommand) return { UpdateCount: 42, ResultSet: { Rows: [] } };
      throw new Error('unexpected command');
    });
    const bloom = engine(athena.client);

    // Act
    const [queued, done, failed, stopped] = await Promise.all(['queued', 'done', 'failed', 'stopped'].map((q) => bloom.status({ platform: 'athena', queryId: q })));

    // Assess
    expect(queued).toEqual({ state: 'RUNNING' });
    expect(done).toEqual({ state: 'COMPLETE', rows: 42, scannedBytes: 1234, engineMs: 56 });
    expect(failed).toEqual({ state: 'FAIL', error: 'Query exhausted resources' });
    expect(stopped).toEqual({ state: 'ABORT' });
  });

  it('Should page every result row, skip the header row and type values by Athena type names', async () => {
    // Arrange
    const columns = [
      { Name: 'flag', Type: 'varchar' },
      { Name: 'n', Type: 'bigint' },
      { Name: 'total', Type: 'decimal', Precision: 38, Scale: 2 },
      { Name: 'avg', Type: 'double' },
      { Name: 'ok', Type: 'boolean' },
    ];
    const row = (...v: (string | undefined)[]) => ({ Data: v.map((x) => (x === undefined ? {} : { VarCharValue: x })) });
    const pages: Record<string, object> = {
      first: { NextToken: 'p2', ResultSet: { ResultSetMetadata: { ColumnInfo: columns }, Rows: [row('flag', 'n', 'total', 'avg', 'ok'), row('A', '14876', '532348211.65', '25.5', 'true')] } },
      p2: { ResultSet: { ResultSetMetadata: { ColumnInfo: columns }, Rows: [row('N', '9007199254740993', undefined, 'NaN', 'false')] } },
    };
    const athena = fakeAthena((c) => {
      if (c instanceof StartQueryExecutionCommand) return { QueryExecutionId: 'q1' };
      if (c instanceof GetQueryExecutionCommand) return { QueryExecution: { Status: { State: 'SUCCEEDED' }, Statistics: { DataScannedInBytes: 99 } } };
      if (c instanceof GetQueryResultsCommand) return pages[(input(c).NextToken as string | undefined) ?? 'first'];
      throw new Error('unexpected command');
    });

    // Act
    const answer = await engine(athena.client).query({ orgId: ORG, sql: 'SELECT 1 FROM tpch.orders', tables: [{ namespace: 'tpch', table: 'orders' }] }, { timeoutMs: 10_000, maxRows: 10 });

    // Assess
    expect(answer.results).toEqual({
      columns: ['flag', 'n', 'total', 'avg', 'ok'],
      column_types: ['varchar', 'bigint', 'decimal(38,2)', 'double', 'boolean'],
      rows: [
        ['A', 14876, '532348211.65', 25.5, true],
        ['N', '9007199254740993', null, 'NaN', false],
      ],
    });
    expect(answer.scannedBytes).toBe(99);
    const reads = athena.sent.filter((c) => c instanceof GetQueryResultsCommand).map(input);
    expect(reads).toEqual([
      { QueryExecutionId: 'q1', MaxResults: 1000 },
      { QueryExecutionId: 'q1', MaxResults: 1000, NextToken: 'p2' },
    ]);
  });

  it('Should stop a statement that outlives its time limit', async () => {
    // Arrange
    const athena = fakeAthena((c) => {
      if (c instanceof StartQueryExecutionCommand) return { QueryExecutionId: 'slow' };
      if (c instanceof GetQueryExecutionCommand) return { QueryExecution: { Status: { State: 'RUNNING' } } };
      if (c instanceof StopQueryExecutionCommand) return {};
      throw new Error('unexpected command');
    });

    // Act
    const failure = await engine(athena.client).query({ orgId: ORG, sql: 'SELECT 1', tables: [] }, { timeoutMs: 20, maxRows: 10 }).catch((e: unknown) => e);

    // Assess
    expect(failure).toBeInstanceOf(ExecutionError);
    expect(athena.sent.filter((c) => c instanceof StopQueryExecutionCommand).map(input)).toEqual([{ QueryExecutionId: 'slow' }]);
  });

  it('Should report a user error in the SQL as a 400 and cancel with StopQueryExecution', async () => {
    // Arrange
    const athena = fakeAthena((c) => {
      if (c instanceof StartQueryExecutionCommand) return { QueryExecutionId: 'bad' };
      if (c instanceof GetQueryExecutionCommand) return { QueryExecution: { Status: { State: 'FAILED', StateChangeReason: "COLUMN_NOT_FOUND: line 1:8: Column 'nope' cannot be resolved", AthenaError: { ErrorCategory: 2 } } } };
      if (c instanceof StopQueryExecutionCommand) return {};
      throw new Error('unexpected command');
    });
    const bloom = engine(athena.client);

    // Act
    const failure = await bloom.query({ orgId: ORG, sql: 'SELECT nope FROM tpch.orders', tables: [{ namespace: 'tpch', table: 'orders' }] }, { timeoutMs: 10_000, maxRows: 10 }).catch((e: unknown) => e);
    await bloom.cancel({ platform: 'athena', queryId: 'bad' });

    // Assess
    expect(failure).toBeInstanceOf(ValidationError);
    expect((failure as Error).message).toContain("Column 'nope' cannot be resolved");
    expect(input(athena.sent.at(-1) as object)).toEqual({ QueryExecutionId: 'bad' });
  });

  it('Should keep integers beyond 2^53 and decimals as exact text', () => {
    // Act + Assess
    expect(athenaValue('bigint', '9007199254740993')).toBe('9007199254740993');
    expect(athenaValue('integer', '-12')).toBe(-12);
    expect(athenaValue('decimal(38,2)', '0.10')).toBe('0.10');
    expect(athenaValue('date', '1998-12-01')).toBe('1998-12-01');
    expect(athenaValue('varchar', undefined)).toBeNull();
  });
});
