/**
 * The bloom engine's Athena adapter (`AthenaBloomEngine`) against the emulator's Athena API, as far
 * as the emulator serves it. The emulator runs no SQL: it records each statement, moves it through
 * QUEUED, RUNNING and SUCCEEDED as it is polled (its state manager set to one step per poll here),
 * and answers `GetQueryResults` with rows a test queues beforehand (`/moto-api/static/athena/
 * query-results`). So what this verifies is the wiring: the SDK's requests and their answers on
 * Athena's real API, the statement the adapter sends (tables qualified into the org's Glue
 * databases, the workgroup, the data catalog, the CTAS of a results table with the probe's column
 * names), the poll to the end, reading rows without Athena's header row and typing them by Athena's
 * type names, and stopping a statement. Which rows a statement gives, Athena's own result format
 * for them, `UpdateCount`, statistics and failures are not verified here (the engine itself runs
 * as Trino in the local profile; the mapping of Athena's errors is held by the request-shape test).
 */
import { randomUUID } from 'node:crypto';
import { AthenaClient, CreateWorkGroupCommand, GetQueryExecutionCommand, ListQueryExecutionsCommand } from '@aws-sdk/client-athena';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AthenaBloomEngine } from '#adapters/aws/athena-bloom';
import { awsClientConfig } from './emulator.ts';

const ORG = '5a5a5a5a-0000-4000-8000-0000000000b1';
const DATABASE = `org_${ORG.replaceAll('-', '')}__tpch`;

let athena: AthenaClient;
let engine: AthenaBloomEngine;
let workGroup: string;
let warehouse: string;

/** Posts to the emulator's own API. */
const motoApi = async (path: string, body: unknown): Promise<void> => {
  const response = await fetch(`${inject('aws').endpoint}/moto-api/${path}`, { method: 'POST', body: JSON.stringify(body) });
  expect(response.status, await response.text()).toBeLessThan(300);
};

/** Queues what the next statements' `GetQueryResults` answer, in order (Athena's first row is the header). */
const queueResults = (...results: { rows: (string | null)[][]; columns: { Name: string; Type: string; Precision?: number; Scale?: number }[] }[]) =>
  motoApi('static/athena/query-results', {
    region: inject('aws').region,
    results: results.map((r) => ({
      rows: r.rows.map((row) => ({ Data: row.map((v) => (v === null ? {} : { VarCharValue: v })) })),
      column_info: r.columns.map((c) => ({ CatalogName: 'hive', SchemaName: '', TableName: '', Label: c.Name, Nullable: 'UNKNOWN', CaseSensitive: false, Precision: 0, Scale: 0, ...c })),
    })),
  });

/** The statements sent to the workgroup since the suite began, oldest first. */
const statements = async (): Promise<{ query: string; catalog?: string; state?: string }[]> => {
  const ids = (await athena.send(new ListQueryExecutionsCommand({ WorkGroup: workGroup }))).QueryExecutionIds ?? [];
  const executions = await Promise.all(ids.map(async (id) => (await athena.send(new GetQueryExecutionCommand({ QueryExecutionId: id }))).QueryExecution));
  return executions
    .sort((a, b) => (a?.Status?.SubmissionDateTime?.getTime() ?? 0) - (b?.Status?.SubmissionDateTime?.getTime() ?? 0))
    .map((e) => ({ query: e?.Query ?? '', ...(e?.QueryExecutionContext?.Catalog ? { catalog: e.QueryExecutionContext.Catalog } : {}), ...(e?.Status?.State ? { state: e.Status.State } : {}) }));
};

beforeAll(async () => {
  athena = new AthenaClient(awsClientConfig(inject('aws')));
  const s3 = new S3Client(awsClientConfig(inject('aws')));
  const bucket = `lakeline-bloom-${randomUUID().slice(0, 8)}`;
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  s3.destroy();
  // The workgroup lib/bloom.ts creates: results in the warehouse bucket.
  workGroup = `lakeline-bloom-${randomUUID().slice(0, 8)}`;
  await athena.send(new CreateWorkGroupCommand({ Name: workGroup, Configuration: { ResultConfiguration: { OutputLocation: `s3://${bucket}/bloom-results/` }, EngineVersion: { SelectedEngineVersion: 'Athena engine version 3' } } }));
  // One state a poll, so the adapter polls through QUEUED and RUNNING (the emulator's default is to finish at once).
  await motoApi('state-manager/set-transition', { model_name: 'athena::execution', transition: { progression: 'manual', times: 1 } });
  warehouse = `s3://${bucket}/warehouse`;
  engine = new AthenaBloomEngine(athena, { workGroup, warehouseUri: warehouse, pollMs: 5 });
});

afterAll(async () => {
  await motoApi('state-manager/unset-transition', { model_name: 'athena::execution' });
  athena.destroy();
});

describe("the Athena bloom engine on the emulator's Athena API", () => {
  it("Should send the org's qualified statement to the workgroup, poll it to its end and read its rows typed, without the header row", async () => {
    // Prepare
    await queueResults({
      columns: [{ Name: 'n_name', Type: 'varchar' }, { Name: 'n', Type: 'bigint' }, { Name: 'price', Type: 'decimal', Precision: 15, Scale: 2 }, { Name: 'ok', Type: 'boolean' }],
      rows: [
        ['n_name', 'n', 'price', 'ok'],
        ['ALGERIA', '5', '12.50', 'true'],
        ['BRAZIL', null, '0.10', 'false'],
      ],
    });

    // Act
    const answer = await engine.query({ orgId: ORG, sql: 'SELECT n_name, count(*) AS n FROM tpch.nation GROUP BY n_name', tables: [{ namespace: 'tpch', table: 'nation' }] }, { timeoutMs: 10_000, maxRows: 100 });

    // Assess
    expect(answer.results).toEqual({
      columns: ['n_name', 'n', 'price', 'ok'],
      column_types: ['varchar', 'bigint', 'decimal(15,2)', 'boolean'],
      rows: [
        ['ALGERIA', 5, '12.50', true],
        ['BRAZIL', null, '0.10', false],
      ],
    });
    const [sent] = await statements();
    expect(sent).toEqual({ query: `SELECT n_name, count(*) AS n FROM "awsdatacatalog"."${DATABASE}"."nation" GROUP BY n_name`, catalog: 'awsdatacatalog', state: 'SUCCEEDED' });
  });

  it("Should start a run into a results table as the org's database, a probe for the column names, then the CTAS, and report it COMPLETE", async () => {
    // Prepare: nothing for the database's DDL, the probe's column names.
    await queueResults({ columns: [], rows: [] }, { columns: [{ Name: 'n_regionkey', Type: 'bigint' }, { Name: 'n', Type: 'bigint' }], rows: [['n_regionkey', 'n']] });
    const before = (await statements()).length;

    // Act
    const handle = await engine.start({ orgId: ORG, sql: 'SELECT n_regionkey, count(*) FROM tpch.nation GROUP BY 1', tables: [{ namespace: 'tpch', table: 'nation' }], resultsTable: { namespace: 'results', table: 'by_region' }, label: randomUUID() });
    let status = await engine.status(handle);
    while (status.state === 'RUNNING') status = await engine.status(handle);

    // Assess
    expect(status).toMatchObject({ state: 'COMPLETE' });
    const sent = (await statements()).slice(before).map((s) => s.query);
    const results = `org_${ORG.replaceAll('-', '')}__results`;
    expect(sent[0]).toBe(`CREATE DATABASE IF NOT EXISTS \`${results}\``);
    expect(sent[1]).toBe(`SELECT * FROM (\nSELECT n_regionkey, count(*) FROM "awsdatacatalog"."${DATABASE}"."nation" GROUP BY 1\n) LIMIT 0`);
    // The CTAS names every column from the probe's answer.
    expect(sent[2]).toBe(
      `CREATE TABLE "awsdatacatalog"."${results}"."by_region"\nWITH (table_type = 'ICEBERG', is_external = false, format = 'PARQUET', location = '${warehouse}/org_${ORG.replaceAll('-', '')}/results/by_region') AS\nSELECT * FROM (\nSELECT n_regionkey, count(*) FROM "awsdatacatalog"."${DATABASE}"."nation" GROUP BY 1\n) AS lakeline_rows ("n_regionkey", "n")\n`,
    );
    expect(sent).toHaveLength(3);
  });

  it('Should stop a running statement and report the run ABORT', async () => {
    // Prepare
    const handle = await engine.start({ orgId: ORG, sql: 'SELECT 1 FROM tpch.nation', tables: [{ namespace: 'tpch', table: 'nation' }] });

    // Act
    await engine.cancel(handle);

    // Assess
    expect(await engine.status(handle)).toEqual({ state: 'ABORT' });
  });
});
