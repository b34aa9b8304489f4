/**
 * DuckDB over `s3://` in the AWS profile, against the emulated account: the legacy endpoint's
 * handler (behind the authorizer Lambda, org and key in DynamoDB, session secret in Secrets
 * Manager) reads TPC-H from Glue + S3 with httpfs and the S3 secret, and gives the same rows as
 * the local profile's endpoint over the same data; lineage lands in the emulated DynamoDB; the
 * tables and routed endpoints answer from Glue; the planned-files reader reads manifests on S3;
 * and a query's DuckDB may read its own tables' files only.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { POLARS_DATA_ROLE_ENV } from '#composition/env-names';
import { tpchQueries } from '../../bench/tpch-queries.ts';
import { warehouseApi, type QueryAnswerBody } from '../http/warehouse-api.ts';
import { useAwsProfile, type AwsProfile } from './aws-profile.ts';
import { createEmulatedLake, type EmulatedLake } from './emulated-lake.ts';

let lake: EmulatedLake;
let aws: AwsProfile;

beforeAll(async () => {
  lake = await createEmulatedLake(inject('aws'));
  aws = await useAwsProfile(inject('aws'), lake, { [POLARS_DATA_ROLE_ENV]: 'arn:aws:iam::123456789012:role/lakeline-sandbox-data' });
  await lake.writer.demoLoad(aws.orgId, 0.01);
}, 120_000);

afterAll(async () => {
  const composition = await import('#composition/index');
  await composition.lake().duckdb.close();
  await lake.close();
});

describe('DuckDB over S3 in the AWS profile', () => {
  it('Should answer the 22 TPC-H queries on the legacy endpoint with the same rows as the local profile', async () => {
    // Prepare
    const local = warehouseApi(inject('stack').baseUrl, inject('stack').apiKey);

    for (const { nr, sql } of await tpchQueries()) {
      // Act
      const [inAws, locally] = await Promise.all([aws.call('PostWarehouseQuery', { body: { query: sql, autoSaveByHash: false } }), local.query({ query: sql, autoSaveByHash: false })]);

      // Assess
      expect(inAws.statusCode, `Q${nr}: ${JSON.stringify(inAws.body)}`).toBe(200);
      expect(locally.status, `Q${nr} locally`).toBe(200);
      const awsBody = inAws.body as QueryAnswerBody;
      expect(awsBody.results, `Q${nr}`).toEqual(locally.body.results);
      expect(awsBody.row_count).toBe(locally.body.row_count);
    }
  }, 240_000);

  it("Should record the query's lineage in the emulated DynamoDB, listed by the events endpoint", async () => {
    // Act
    const answer = await aws.call('PostWarehouseQuery', { body: { query: 'SELECT count(*) AS n FROM tpch.nation', autoSaveByHash: false } });
    const runId = answer.headers['x-lakeline-run-id'] as string;
    const events = await aws.call('GetEvents', { queryStringParameters: { start: '0', end: '4102444800', run: runId, order: 'ASC' } });

    // Assess
    expect((answer.body as QueryAnswerBody).results?.rows).toEqual([[25]]);
    const listed = events.body as { run_state: string; inputs: { namespace: string; name: string }[] }[];
    expect(listed.map((e) => e.run_state)).toEqual(['START', 'COMPLETE']);
    // OpenLineage names an S3 dataset by its bucket and path (Naming.md).
    expect(listed[0]?.inputs).toEqual([{ namespace: `s3://${lake.bucket}`, name: expect.stringMatching(/^warehouse\/org_[0-9a-f]+\/org_[0-9a-f]+__tpch\.db\/nation$/) }]);
  });

  it('Should list and describe the tables from Glue and their metadata on S3', async () => {
    // Act
    const list = await aws.call('ListTables', { queryStringParameters: { namespace: 'tpch' } });
    const { describeTable } = await import('#domain/lake/describe');
    const lineitem = await lake.catalog.loadTable(aws.orgId, { namespace: 'tpch', table: 'lineitem' });

    // Assess
    expect(list.statusCode).toBe(200);
    expect(JSON.stringify(list.body)).toContain('lineitem');
    expect(describeTable(lineitem as NonNullable<typeof lineitem>, await lake.storage.readText(lineitem?.metadataLocation as string)).record_count).toBe('60175');
  });

  it('Should answer a small read on the routed endpoint in the request, on DuckDB', async () => {
    // Act
    const answer = await aws.call('PostQuery', { body: { query: 'SELECT r_name FROM tpch.region ORDER BY r_name' } });

    // Assess
    expect(answer.statusCode, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ success: true, state: 'COMPLETE', engine_decision: { engine: 'duckdb', execution_mode: 'interactive' } });
    expect((answer.body as { results: { rows: unknown[][] } }).results.rows).toEqual([['AFRICA'], ['AMERICA'], ['ASIA'], ['EUROPE'], ['MIDDLE EAST']]);
  });

  it("Should read a table's planned files from its manifests on S3", async () => {
    // Prepare
    // The AWS profile's own manifest reader (DuckDB with httpfs and the function's S3 secret).
    const reader = (await import('#composition/index')).lake().manifests;
    const table = await lake.catalog.loadTable(aws.orgId, { namespace: 'tpch', table: 'orders' });
    const metadata = JSON.parse(await lake.storage.readText(table?.metadataLocation as string)) as { 'current-snapshot-id': number; snapshots: { 'snapshot-id': number; 'manifest-list': string; summary: Record<string, string> }[] };
    const current = metadata.snapshots.find((s) => s['snapshot-id'] === metadata['current-snapshot-id']);

    // Act
    const files = await reader.files(current?.['manifest-list'] as string);

    // Assess
    expect(current?.['manifest-list']).toMatch(/^s3:\/\//);
    expect(files.length).toBe(Number(current?.summary['total-data-files']));
    expect(files.reduce((sum, f) => sum + f.sizeBytes, 0)).toBe(Number(current?.summary['total-files-size']));
  });

  it("Should let a query's DuckDB read its own tables' files on S3 and nothing else", async () => {
    // Prepare
    const composition = await import('#composition/index');
    const queryEngine = () => composition.lake().duckdb;
    const own = await lake.catalog.loadTable(aws.orgId, { namespace: 'tpch', table: 'nation' });
    const other = await lake.catalog.loadTable(aws.orgId, { namespace: 'tpch', table: 'customer' });
    const dirOf = (metadataLocation: string) => metadataLocation.replace(/\/metadata\/[^/]+$/, '');
    const ownDir = dirOf(own?.metadataLocation as string);
    const sandbox = await queryEngine().openSandbox([{ name: { namespace: 'tpch', table: 'nation' }, metadataLocation: own?.metadataLocation as string, location: ownDir }], { vcpus: 1, memoryGb: 2 });
    const read = async (sql: string) => (await sandbox.connection.runAndReadAll(sql)).getRows();

    try {
      // Act / Assess
      expect(await read('SELECT count(*) FROM tpch.nation')).toEqual([[25n]]);
      expect(await read(`SELECT count(*) FROM read_parquet('${ownDir}/data/*.parquet')`)).toEqual([[25n]]);
      await expect(read(`SELECT count(*) FROM read_parquet('${dirOf(other?.metadataLocation as string)}/data/*.parquet')`)).rejects.toThrow(/Permission Error/);
      await expect(read(`SELECT count(*) FROM iceberg_scan('${other?.metadataLocation as string}')`)).rejects.toThrow(/Permission Error/);
      await expect(read(`SELECT * FROM read_text('s3://${lake.bucket}/runs/x')`)).rejects.toThrow(/Permission Error/);
      await expect(read("SET allowed_directories = ['s3://']")).rejects.toThrow(/locked/i);
    } finally {
      sandbox.dispose();
    }
  });
});
