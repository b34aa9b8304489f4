/**
 * The polars Fargate tiers' SQS + S3 half in the AWS profile, against the emulated account: the
 * tier's queue and dead-letter queue as the CDK construct synthesizes them, the real task runner
 * (`python -m lakeline_polars.task_runner`, as root, its worker as the task definition's sandbox uid)
 * with the container's environment, and the real `FargateSandboxTransport` behind the AWS polars
 * sandbox: through the polars endpoint's handler a query answers the local profile's rows and a
 * script runs as the sandbox uid without the task's credentials; a payload above SQS's 256 KiB
 * goes through S3; a message whose caller gave up is dropped unrun after the caller got its 503;
 * every request and answer object is deleted once read; SIGTERM hands a late message back.
 *
 * Not run here: ECS itself (the service, the task start, the image; moto runs ECS tasks only in
 * Docker), and the IAM scoping of the task role and the run's credentials (moto evaluates none;
 * see test/cdk/polars-fargate.test.ts and test/unit/adapters/sandbox-session-policy.test.ts).
 */
import { randomUUID } from 'node:crypto';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { STSClient } from '@aws-sdk/client-sts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AwsPolarsSandbox } from '#adapters/aws/aws-polars-sandbox';
import { FargateSandboxTransport, MAX_INLINE_MESSAGE_BYTES, requestKeys } from '#adapters/aws/fargate-polars-transport';
import { StsSandboxCredentialIssuer } from '#adapters/aws/sts-sandbox-credentials';
import { POLARS_DATA_ROLE_ENV, POLARS_RESULTS_BUCKET_ENV, POLARS_RESULTS_PREFIX_ENV, polarsQueueEnv } from '#composition/env-names';
import { describeTable } from '#domain/lake/describe';
import type { SandboxRun } from '#domain/polars/sandbox';
import { errorResponse } from '#shared/http-errors';
import { SANDBOX_UID } from '../../lib/polars-fargate.ts';
import { polarsApi, type PolarsBody } from '../http/polars-api.ts';
import { useAwsProfile, type AwsProfile } from './aws-profile.ts';
import { createEmulatedLake, type EmulatedLake } from './emulated-lake.ts';
import { awsClientConfig } from './emulator.ts';
import { createFargateTier, startTaskRunner, type EmulatedFargateTier, type TaskRunner } from './fargate-tier.ts';

const DATA_ROLE = 'arn:aws:iam::123456789012:role/lakeline-sandbox-data';
const TIER = 8;

let lake: EmulatedLake;
let tier: EmulatedFargateTier;
let runner: TaskRunner | undefined;
let profile: AwsProfile;
let sqs: SQSClient;
let sts: STSClient;
/** The S3 requests the directly driven transport sent (it sends them to the emulator unchanged). */
const sent: { command: string; key?: string }[] = [];

const env = (name: string): string => tier.callerEnvironment[name] as string;
const resultsPrefix = (): string => env(POLARS_RESULTS_PREFIX_ENV);

/** The tier's transport as the composition root builds it from the caller's environment, its S3 requests recorded. */
const transport = (hooks: ConstructorParameters<typeof FargateSandboxTransport>[3] = {}): FargateSandboxTransport => {
  const s3 = new S3Client(awsClientConfig(inject('aws')));
  const recording = {
    send: (command: Parameters<S3Client['send']>[0]) => {
      sent.push({ command: command.constructor.name, key: (command.input as { Key?: string }).Key });
      return s3.send(command);
    },
  } as Pick<S3Client, 'send'>;
  return new FargateSandboxTransport(sqs, recording, { vcpus: TIER, queueUrl: env(polarsQueueEnv(TIER)), bucket: env(POLARS_RESULTS_BUCKET_ENV), prefix: resultsPrefix() }, hooks);
};

const nationRun = async (sql: string): Promise<SandboxRun> => {
  const nation = await lake.catalog.loadTable(profile.orgId, { namespace: 'tpch', table: 'nation' });
  const location = describeTable(nation as NonNullable<typeof nation>, await lake.storage.readText(nation?.metadataLocation as string)).location;
  return { orgId: profile.orgId, source: { kind: 'sql', sql }, tables: [{ names: ['n'], metadataLocation: nation?.metadataLocation as string, location }], catalog: 'lakeline', vcpus: TIER, toFile: false, maxResultBytes: 1_000_000 };
};

/** Waits until the queue holds no message, visible or in flight (each was deleted). */
const queueDrained = async (): Promise<void> => {
  const until = Date.now() + 20_000;
  for (;;) {
    const depth = await tier.queueDepth();
    if (depth.visible === 0 && depth.inFlight === 0) return;
    if (Date.now() > until) throw new Error(`the queue still holds messages: ${JSON.stringify(depth)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

beforeAll(async () => {
  lake = await createEmulatedLake(inject('aws'));
  tier = await createFargateTier(inject('aws'), lake, TIER);
  sqs = new SQSClient(awsClientConfig(inject('aws')));
  sts = new STSClient(awsClientConfig(inject('aws')));
  // The polars function's environment: the lake's, and the tier's queue and results prefix as the construct gives its callers.
  profile = await useAwsProfile(inject('aws'), lake, { ...tier.callerEnvironment, [POLARS_DATA_ROLE_ENV]: DATA_ROLE });
  [runner] = await Promise.all([startTaskRunner(inject('aws'), tier), lake.writer.demoLoad(profile.orgId, 0.01)]);
}, 120_000);

afterAll(async () => {
  await runner?.kill();
  sqs.destroy();
  sts.destroy();
  tier.close();
  await lake.close();
});

describe('the polars Fargate tier on SQS and S3 in the AWS profile', () => {
  it("Should answer a query over the lake's tables on the 8-vCPU tier with the local profile's rows, and leave no object behind", async () => {
    // Prepare
    const sql = 'SELECT l_returnflag, l_linestatus, count(*) AS n, round(sum(l_extendedprice), 2) AS revenue FROM l GROUP BY 1, 2 ORDER BY 1, 2';
    const body = { mode: 'query', query: sql, tables: ['l=tpch.lineitem'], vcpus: TIER };

    // Act: the local profile on its default tier (the rows do not depend on the tier).
    const [inAws, locally] = await Promise.all([profile.call('PostWarehousePolars', { body }), polarsApi(inject('stack').baseUrl, inject('stack').apiKey)({ ...body, vcpus: 2 })]);

    // Assess
    expect(inAws.statusCode, JSON.stringify(inAws.body)).toBe(200);
    expect(locally.status).toBe(200);
    const answer = inAws.body as PolarsBody;
    expect(answer.results).toEqual(locally.body.results);
    expect(answer.results?.rows).toHaveLength(4);
    expect(answer.compute).toEqual({ mode: 'sandbox', distributed: false, instanceType: 'fargate-8vcpu', clusterSize: null });
    await queueDrained();
    expect(await lake.keys(`${resultsPrefix()}/`)).toEqual([]);
  });

  it("Should run a script in a worker of the sandbox uid that sees neither the task's credentials nor the runner's environment", async () => {
    // Prepare: the task's other processes (its init, the runner) are root's; their environment holds the task's credentials.
    const script = [
      'import os',
      'def readable(path):',
      '    try:',
      '        with open(path, "rb") as f:',
      '            f.read()',
      '        return True',
      '    except OSError:',
      '        return False',
      'others = [p for p in os.listdir("/proc") if p.isdigit() and os.stat(f"/proc/{p}").st_uid != os.getuid()]',
      'result = pl.DataFrame({',
      '    "uid": [os.getuid()],',
      '    "task_credentials": [any(k.startswith(("AWS_ACCESS", "AWS_SECRET", "AWS_CONTAINER")) for k in os.environ)],',
      '    "other_processes": [len(others)],',
      '    "readable_environments": [sum(readable(f"/proc/{p}/environ") for p in others)],',
      '}).lazy()',
    ].join('\n');

    // Act
    const answer = await profile.call('PostWarehousePolars', { body: { mode: 'script', script, tables: [] } });

    // Assess
    expect(answer.statusCode, JSON.stringify(answer.body)).toBe(200);
    const [row] = (answer.body as PolarsBody).results?.rows ?? [];
    expect(row?.[0]).toBe(SANDBOX_UID);
    expect(row?.[1]).toBe(false);
    expect(row?.[2]).toBeGreaterThanOrEqual(2);
    expect(row?.[3]).toBe(0);
    expect((answer.body as PolarsBody).compute?.instanceType).toBe('fargate-8vcpu');
  });

  it('Should send a payload above 256 KiB through S3 under its request id, and delete both objects once the answer is read', async () => {
    // Prepare: a query whose text alone exceeds SQS's limit on a message.
    const names = Array.from({ length: 30_000 }, (_, i) => `'NOT A NATION ${i}'`).join(', ');
    const sql = `SELECT n_regionkey, count(*) AS n FROM n WHERE n_name NOT IN (${names}) GROUP BY n_regionkey ORDER BY n_regionkey`;
    expect(sql.length).toBeGreaterThan(MAX_INLINE_MESSAGE_BYTES);
    const requestId = randomUUID();
    const issuer = new StsSandboxCredentialIssuer(sts, { roleArn: DATA_ROLE, warehouseUri: lake.warehouseUri, stagingUri: lake.stagingUri });
    const sandbox = new AwsPolarsSandbox({ [TIER]: transport({ newRequestId: () => requestId }) }, issuer, { stagingUri: lake.stagingUri });
    sent.length = 0;

    // Act
    const result = await sandbox.run(await nationRun(sql));

    // Assess
    expect(result.results.rows).toEqual([[0, 5], [1, 5], [2, 5], [3, 5], [4, 5]]);
    const keys = requestKeys(resultsPrefix(), requestId);
    expect(sent.filter((s) => s.command !== 'GetObjectCommand')).toEqual([
      { command: 'PutObjectCommand', key: keys.request },
      ...[keys.request, keys.answer].map((key) => ({ command: 'DeleteObjectCommand', key })),
    ]);
    await queueDrained();
    expect(await lake.keys(`${resultsPrefix()}/`)).toEqual([]);
  });

  it('Should answer 503 when no warm task takes the message in time, and the task should drop it unrun once it gets to it', async () => {
    // Prepare: the tier's only task is busy elsewhere (paused) while the caller waits.
    const requestId = randomUUID();
    const task = runner as TaskRunner;
    task.pause();
    let failure: unknown;

    // Act
    try {
      await transport({ newRequestId: () => requestId }).invoke({ op: 'version' }, Date.now() + 1500);
    } catch (err) {
      failure = err;
    } finally {
      task.resume();
    }
    await queueDrained();

    // Assess
    expect(errorResponse(failure, 'polars').statusCode).toBe(503);
    expect(String((failure as Error).message)).toMatch(/did not answer in time/);
    await expect.poll(() => task.log()).toContain(`request ${requestId} expired`);
    // Dropped unrun: no answer was written for it (and the message is gone, not back in the queue).
    await expect(lake.s3.send(new GetObjectCommand({ Bucket: lake.bucket, Key: requestKeys(resultsPrefix(), requestId).answer }))).rejects.toThrow();
    expect(await lake.keys(`${resultsPrefix()}/`)).toEqual([]);
  });

  it('Should finish and exit on SIGTERM, handing a message received after it back to the queue', async () => {
    // Prepare: SIGTERM while the runner long-polls; a message then ends the poll.
    const task = runner as TaskRunner;
    const stopped = task.stop();
    await new Promise((resolve) => setTimeout(resolve, 200));

    // Act
    await sqs.send(new SendMessageCommand({ QueueUrl: tier.queueUrl, MessageBody: JSON.stringify({ v: 1, request_id: 'late', deadline_ms: Date.now() + 60_000, payload: { op: 'version' } }) }));
    const code = await stopped;
    runner = undefined;

    // Assess: back at once (not after the runner's 940 s visibility timeout), received once before, unanswered.
    expect(code).toBe(0);
    expect(await tier.queueDepth()).toEqual({ visible: 1, inFlight: 0 });
    const again = await sqs.send(new ReceiveMessageCommand({ QueueUrl: tier.queueUrl, MessageSystemAttributeNames: ['ApproximateReceiveCount'], WaitTimeSeconds: 0 }));
    expect(again.Messages?.map((m) => [JSON.parse(m.Body as string).request_id, m.Attributes?.ApproximateReceiveCount])).toEqual([['late', '2']]);
    expect(await lake.keys(`${resultsPrefix()}/`)).toEqual([]);
  });
});
