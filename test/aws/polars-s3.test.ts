/**
 * The polars sandbox's S3 access in the AWS profile, against the emulated account: the AWS sandbox
 * adapter gets each run credentials of its own from STS `AssumeRole` with the run's session
 * policy (the real issuer on the emulator's STS), its Lambda transport invokes the 2-vCPU sandbox
 * function with the SDK's Lambda client (through the Invoke stand-in, lambda-invoke-stand-in.ts:
 * the emulator cannot run a Python Lambda without Docker), and the function's handler
 * (`lakeline_polars.lambda_handler`) reads the run's Iceberg table from S3 with those credentials only,
 * after removing the function's own from its environment; a destination run uploads its result to
 * its staging key, where the lake writer's handler lands it in a table.
 *
 * The emulator does not evaluate session policies (moto checks a role's own policies when its IAM
 * enforcement is on, never the policy passed to AssumeRole) and, with that enforcement off as here,
 * accepts any credentials; so what a run's credentials can reach is not tested here: the policy
 * is held by test/unit/adapters/sandbox-session-policy.test.ts (hostile prefixes refused) and its
 * issue by sts-sandbox-credentials.test.ts (the request's shape).
 */
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { STSClient } from '@aws-sdk/client-sts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AwsPolarsSandbox } from '#adapters/aws/aws-polars-sandbox';
import { LambdaSandboxTransport } from '#adapters/aws/lambda-sandbox-transport';
import { StsSandboxCredentialIssuer } from '#adapters/aws/sts-sandbox-credentials';
import { describeTable } from '#domain/lake/describe';
import type { SandboxRun } from '#domain/polars/sandbox';
import { createEmulatedLake, POLARS_FUNCTION_2, type EmulatedLake } from './emulated-lake.ts';
import { awsClientConfig } from './emulator.ts';

const ORG = '5a5a5a5a-0000-4000-8000-000000000005';
const DATA_ROLE = 'arn:aws:iam::123456789012:role/lakeline-sandbox-data';

let lake: EmulatedLake;
let sts: STSClient;
let sandbox: AwsPolarsSandbox;
/** The payloads the sandbox function was invoked with. */
const payloads = () => lake.lambda.invocations.filter((i) => i.functionName === POLARS_FUNCTION_2).map((i) => i.payload as { credentials?: { access_key_id: string } });

const nationRun = async (changes: Partial<SandboxRun> = {}): Promise<SandboxRun> => {
  const nation = await lake.catalog.loadTable(ORG, { namespace: 'tpch', table: 'nation' });
  const location = describeTable(nation as NonNullable<typeof nation>, await lake.storage.readText(nation?.metadataLocation as string)).location;
  return {
    orgId: ORG,
    source: { kind: 'sql', sql: 'SELECT n_regionkey, count(*) AS n FROM n GROUP BY n_regionkey ORDER BY n_regionkey' },
    tables: [{ names: ['n'], metadataLocation: nation?.metadataLocation as string, location }],
    catalog: 'lakeline',
    vcpus: 2,
    toFile: false,
    maxResultBytes: 1_000_000,
    ...changes,
  };
};

beforeAll(async () => {
  lake = await createEmulatedLake(inject('aws'));
  sts = new STSClient(awsClientConfig(inject('aws')));
  const issuer = new StsSandboxCredentialIssuer(sts, { roleArn: DATA_ROLE, warehouseUri: lake.warehouseUri, stagingUri: lake.stagingUri });
  // The 2-vCPU tier as the composition root builds it: the function's own role reads no table.
  sandbox = new AwsPolarsSandbox({ 2: new LambdaSandboxTransport(lake.lambdaClient, POLARS_FUNCTION_2, 2) }, issuer, { stagingUri: lake.stagingUri });
  await lake.writer.demoLoad(ORG, 0.01);
}, 120_000);

afterAll(async () => {
  sts.destroy();
  await lake.close();
});

describe('the polars sandbox on S3 in the AWS profile', () => {
  it("Should read the run's table from S3 with credentials STS issued for the run alone", async () => {
    // Act
    const result = await sandbox.run(await nationRun());

    // Assess
    expect(result.results.rows).toEqual([[0, 5], [1, 5], [2, 5], [3, 5], [4, 5]]);
    expect(result.compute).toEqual({ vcpus: 2, mode: 'sandbox', instanceType: 'lambda-2vcpu' });
    const sent = payloads().at(-1)?.credentials?.access_key_id;
    // Temporary credentials of an assumed role (ASIA…), not the function's own.
    expect(sent).toMatch(/^ASIA/);
    expect(sent).not.toBe(inject('aws').credentials.accessKeyId);
  });

  it('Should stage a destination run\'s result under its own staging key, from which the lake writer lands it', async () => {
    // Act
    const result = await sandbox.run(await nationRun({ toFile: true }));
    const staged = result.file?.path as string;
    const written = await lake.writer.write({ orgId: ORG, namespace: 'analytics', table: 'by_region', parquet: [staged], mode: 'overwrite' });

    // Assess
    expect(staged).toMatch(new RegExp(`^${lake.stagingUri}/[0-9a-f-]{36}/result\\.parquet$`));
    const key = staged.slice(`s3://${lake.bucket}/`.length);
    expect((await lake.s3.send(new GetObjectCommand({ Bucket: lake.bucket, Key: key }))).ContentLength).toBeGreaterThan(0);
    expect(written.rowsWritten).toBe(5);
  });
});
