/**
 * Lambda's `Invoke` in the AWS profile, end to end against the emulated account: the product's own
 * SDK Lambda client and adapters (`LambdaLakeWriter`, `LambdaSandboxTransport`) call the Invoke
 * stand-in (lambda-invoke-stand-in.ts: Lambda's REST API, running the function's real handler as
 * the runtime would), reached as a deployment's functions would reach Lambda, through the SDK's
 * endpoint setting. What the adapters send, how they read an answer, a handled failure, a function
 * error, an answer over Lambda's 6 MB response limit and a request over its request limit are
 * checked here; and a polars write runs from the endpoint's handler through both functions to Glue
 * and S3 with nothing called directly.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { STSClient } from '@aws-sdk/client-sts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AwsPolarsSandbox } from '#adapters/aws/aws-polars-sandbox';
import { LambdaLakeWriter } from '#adapters/aws/lambda-lake-writer';
import { LambdaSandboxTransport } from '#adapters/aws/lambda-sandbox-transport';
import { StsSandboxCredentialIssuer } from '#adapters/aws/sts-sandbox-credentials';
import { POLARS_DATA_ROLE_ENV, polarsFunctionEnv } from '#composition/env-names';
import { describeTable } from '#domain/lake/describe';
import { useAwsProfile, type AwsProfile } from './aws-profile.ts';
import { createEmulatedLake, LAKE_WRITER_FUNCTION, POLARS_FUNCTION_2, type EmulatedLake } from './emulated-lake.ts';
import { awsClientConfig } from './emulator.ts';
import { MAX_REQUEST_BYTES, MAX_RESPONSE_BYTES, startLambdaInvokeStandIn } from './lambda-invoke-stand-in.ts';
import { lakeWriterFunction } from './lambda-stand-in.ts';

const DATA_ROLE = 'arn:aws:iam::123456789012:role/lakeline-sandbox-data';

let lake: EmulatedLake;
let aws: AwsProfile;

beforeAll(async () => {
  lake = await createEmulatedLake(inject('aws'));
  aws = await useAwsProfile(inject('aws'), lake, { [POLARS_DATA_ROLE_ENV]: DATA_ROLE, [polarsFunctionEnv(2)]: POLARS_FUNCTION_2 });
  // Through the lake writer function: the adapter's demo-load request, over Invoke.
  await lake.writer.demoLoad(aws.orgId, 0.01);
}, 180_000);

afterAll(async () => {
  await (await import('#composition/index')).lake().duckdb.close();
  await lake.close();
});

/** The invocations of one function since a mark. */
const invocationsOf = (functionName: string, since = 0) => lake.lambda.invocations.slice(since).filter((i) => i.functionName === functionName);

describe('the lake writer adapter (LambdaLakeWriter) over Invoke', () => {
  it("Should send the writer's request as the payload and read the handler's answer", async () => {
    // Prepare
    const mark = lake.lambda.invocations.length;

    // Act
    const dropped = await lake.writer.drop(aws.orgId, { namespace: 'nowhere', table: 'missing' });

    // Assess
    expect(dropped).toBe(false);
    expect(invocationsOf(LAKE_WRITER_FUNCTION, mark)).toEqual([
      { functionName: LAKE_WRITER_FUNCTION, status: 200, payload: { command: 'drop', org_id: aws.orgId, namespace: 'nowhere', table: 'missing' }, payloadBytes: expect.any(Number) },
    ]);
    // The demo load of the set-up went the same way.
    expect(lake.lambda.invocations[0]).toMatchObject({ functionName: LAKE_WRITER_FUNCTION, status: 200, payload: { command: 'demo_load', org_id: aws.orgId, scale: 0.01, namespace: 'tpch' } });
  });

  it('Should turn an answer the writer refused into a ValidationError naming the problem', async () => {
    // Act
    const refused = lake.writer.write({ orgId: aws.orgId, namespace: 'sales', table: 'orders', parquet: ['s3://elsewhere/file.parquet'], mode: 'overwrite' });

    // Assess
    await expect(refused).rejects.toMatchObject({ name: 'ValidationError' });
    expect(lake.lambda.invocations.at(-1)).toMatchObject({ functionName: LAKE_WRITER_FUNCTION, status: 200 });
    expect(lake.lambda.invocations.at(-1)?.functionError).toBeUndefined();
  });

  it("Should turn a function error (X-Amz-Function-Error) into an ExecutionError carrying the runtime's message", async () => {
    // Prepare: the writer function deployed with a role Glue refuses (AccessDenied, which the
    // handler does not catch): an endpoint that answers every call as Glue answers a missing grant.
    const denying = createServer((_request, response) => {
      response.writeHead(400, { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-errortype': 'AccessDeniedException' });
      response.end(JSON.stringify({ __type: 'AccessDeniedException', Message: 'User is not authorized to perform: glue:GetTable' }));
    });
    await new Promise<void>((resolve) => denying.listen(0, '127.0.0.1', resolve));
    const broken = await startLambdaInvokeStandIn({
      [LAKE_WRITER_FUNCTION]: lakeWriterFunction({ ...lake.environment, AWS_ENDPOINT_URL: `http://127.0.0.1:${(denying.address() as AddressInfo).port}` }),
    });
    const client = new LambdaClient({ ...awsClientConfig(inject('aws')), endpoint: broken.endpoint });

    try {
      // Act
      const failed = new LambdaLakeWriter(client, LAKE_WRITER_FUNCTION).drop(aws.orgId, { namespace: 'tpch', table: 'nation' });

      // Assess
      await expect(failed).rejects.toMatchObject({ name: 'ExecutionError', message: expect.stringMatching(/^the lake writer failed: .*AccessDeniedException.*glue:GetTable/) });
      expect(broken.invocations).toMatchObject([{ status: 200, functionError: 'Unhandled' }]);
    } finally {
      client.destroy();
      await broken.stop();
      denying.close();
    }
  });

  it("Should fail a request over Lambda's request limit with RequestEntityTooLargeException, the function not run", async () => {
    // Prepare: more staged paths than 6 MiB of JSON holds.
    const paths = Array.from({ length: 70_000 }, (_, i) => `${lake.stagingUri}/${String(i).padStart(80, '0')}/result.parquet`);

    // Act
    const tooLarge = lake.writer.write({ orgId: aws.orgId, namespace: 'sales', table: 'orders', parquet: paths, mode: 'overwrite' });

    // Assess
    await expect(tooLarge).rejects.toMatchObject({ name: 'RequestEntityTooLargeException', $metadata: { httpStatusCode: 413 } });
    const last = lake.lambda.invocations.at(-1);
    expect(last?.status).toBe(413);
    expect(last?.payloadBytes).toBeGreaterThan(MAX_REQUEST_BYTES);
  });
});

describe('the polars sandbox transport (LambdaSandboxTransport) over Invoke', () => {
  let sts: STSClient;
  let sandbox: AwsPolarsSandbox;

  beforeAll(() => {
    sts = new STSClient(awsClientConfig(inject('aws')));
    const issuer = new StsSandboxCredentialIssuer(sts, { roleArn: DATA_ROLE, warehouseUri: lake.warehouseUri, stagingUri: lake.stagingUri });
    sandbox = new AwsPolarsSandbox({ 2: new LambdaSandboxTransport(lake.lambdaClient, POLARS_FUNCTION_2, 2) }, issuer, { stagingUri: lake.stagingUri });
  });
  afterAll(() => sts.destroy());

  /** A run of every row of lineitem (60,175 rows, more than 8 MB as JSON) with a given inline limit. */
  const lineitemRun = async (maxResultBytes: number) => {
    const table = await lake.catalog.loadTable(aws.orgId, { namespace: 'tpch', table: 'lineitem' });
    const metadataLocation = table?.metadataLocation as string;
    const { location } = describeTable(table as NonNullable<typeof table>, await lake.storage.readText(metadataLocation));
    return sandbox.run({ orgId: aws.orgId, source: { kind: 'sql', sql: 'SELECT * FROM l' }, tables: [{ names: ['l'], metadataLocation, location }], catalog: 'lakeline', vcpus: 2, toFile: false, maxResultBytes });
  };

  it("Should fail a run whose answer is over Lambda's 6 MB response limit with the function error Lambda returns", async () => {
    // Act: an inline limit above Lambda's, so the handler answers every row.
    const run = lineitemRun(64 * 1024 * 1024);

    // Assess
    await expect(run).rejects.toThrow(/^polars sandbox function failed: .*Function\.ResponseSizeTooLarge/);
    expect(lake.lambda.invocations.at(-1)).toMatchObject({ functionName: POLARS_FUNCTION_2, status: 200, functionError: 'Unhandled' });
  }, 60_000);

  it("Should keep a run's answer under Lambda's limit with the default inline limit: the handler's own 'write it to a table' refusal", async () => {
    // Act
    const run = lineitemRun(5 * 1024 * 1024);

    // Assess
    await expect(run).rejects.toMatchObject({ name: 'ValidationError', message: expect.stringMatching(/more than fits in a response; write it to a table with `destination`/) });
    const last = lake.lambda.invocations.at(-1);
    expect(last).toMatchObject({ functionName: POLARS_FUNCTION_2, status: 200 });
    expect(last?.functionError).toBeUndefined();
    expect(MAX_RESPONSE_BYTES).toBeGreaterThan(5 * 1024 * 1024);
  }, 60_000);
});

describe('a write path from handler to the emulated account', () => {
  it("Should land a polars destination run from the endpoint's handler through the sandbox and lake writer functions in Glue and S3", async () => {
    // Prepare
    const mark = lake.lambda.invocations.length;

    // Act
    const answer = await aws.call('PostWarehousePolars', { body: { mode: 'query', query: 'SELECT n_regionkey, count(*) AS n FROM n GROUP BY n_regionkey', tables: ['n=tpch.nation'], destination: 'analytics.by_region' } });
    const read = await aws.call('PostWarehouseQuery', { body: { query: 'SELECT n_regionkey, n FROM analytics.by_region ORDER BY n_regionkey', autoSaveByHash: false } });

    // Assess
    expect(answer.statusCode, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ success: true, compute: { instanceType: 'lambda-2vcpu' } });
    const invoked = lake.lambda.invocations.slice(mark);
    expect(invoked.map((i) => [i.functionName, i.status, i.functionError])).toEqual([
      [POLARS_FUNCTION_2, 200, undefined],
      [LAKE_WRITER_FUNCTION, 200, undefined],
    ]);
    expect(invoked[1]?.payload).toMatchObject({ command: 'write', org_id: aws.orgId, namespace: 'analytics', table: 'by_region', parquet: [expect.stringMatching(new RegExp(`^${lake.stagingUri}/`))] });
    expect((read.body as { results: { rows: unknown[][] } }).results.rows).toEqual([[0, 5], [1, 5], [2, 5], [3, 5], [4, 5]]);
  }, 60_000);
});
