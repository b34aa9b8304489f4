/**
 * The Fargate tiers' transport against fake SQS and S3 clients: the exact message it queues, polling
 * the answer object with backoff until it appears, the 503 at the deadline, and the S3 pointer for a
 * payload above SQS's message limit. The clock and the sleep are fakes, so nothing waits. The same
 * transport against the emulator's SQS and S3 and the real task runner: test/aws/polars-fargate.test.ts.
 */
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { FargateSandboxTransport, MAX_INLINE_MESSAGE_BYTES, type FargateTier } from '#adapters/aws/fargate-polars-transport';
import { ServiceUnavailableError } from '#domain/errors';

const TIER: FargateTier = { vcpus: 8, queueUrl: 'https://sqs.eu-west-1.amazonaws.com/123456789012/polars-8', bucket: 'lake', prefix: 'polars-fargate' };
const ID = '0f1e2d3c-0000-4000-8000-000000000001';
const ANSWER_KEY = `polars-fargate/${ID}/answer.json`;
const PAYLOAD = { op: 'run', request: { mode: 'query', query: 'SELECT 1', tables: {} }, timeout_s: 20 };

/** A bucket in memory that answers GetObject like S3 (NoSuchKey while absent) and records calls. */
class FakeS3 {
  readonly objects = new Map<string, string>();
  readonly calls: { name: string; input: Record<string, unknown> }[] = [];
  /** Called before each GetObject, to let an answer appear after some polls. */
  beforeGet: (polls: number) => void = () => undefined;
  private polls = 0;

  async send(command: unknown): Promise<unknown> {
    const { input } = command as { input: { Key: string; Body?: string } };
    this.calls.push({ name: (command as object).constructor.name, input });
    if (command instanceof PutObjectCommand) this.objects.set(input.Key, input.Body ?? '');
    if (command instanceof DeleteObjectCommand) this.objects.delete(input.Key);
    if (command instanceof GetObjectCommand) {
      this.beforeGet(++this.polls);
      const text = this.objects.get(input.Key);
      if (text === undefined) throw Object.assign(new Error('The specified key does not exist.'), { name: 'NoSuchKey', $metadata: { httpStatusCode: 404 } });
      return { Body: { transformToString: async () => text } };
    }
    return {};
  }
}

class FakeSqs {
  readonly inputs: { QueueUrl: string; MessageBody: string }[] = [];
  async send(command: unknown): Promise<unknown> {
    if (!(command instanceof SendMessageCommand)) throw new Error('unexpected command');
    this.inputs.push(command.input as { QueueUrl: string; MessageBody: string });
    return { MessageId: 'm1' };
  }
}

/** A transport on a fake clock that advances by each sleep. */
const build = () => {
  const sqs = new FakeSqs();
  const s3 = new FakeS3();
  const clock = { t: 1_000_000, sleeps: [] as number[] };
  const transport = new FargateSandboxTransport(sqs, s3, TIER, {
    now: () => clock.t,
    sleep: async (ms) => {
      clock.sleeps.push(ms);
      clock.t += ms;
    },
    newRequestId: () => ID,
  });
  return { sqs, s3, clock, transport };
};

describe('FargateSandboxTransport', () => {
  it('Should report the tier as its instance type', () => {
    // Act + Assess
    expect(build().transport.instanceType).toBe('fargate-8vcpu');
  });

  it('Should queue the payload inline with its request id and deadline', async () => {
    // Arrange
    const { sqs, s3, transport, clock } = build();
    s3.objects.set(ANSWER_KEY, JSON.stringify({ ok: true, results: { columns: [], column_types: [], rows: [] } }));

    // Act
    await transport.invoke(PAYLOAD, clock.t + 25_000);

    // Assess
    expect(sqs.inputs).toEqual([{ QueueUrl: TIER.queueUrl, MessageBody: JSON.stringify({ v: 1, request_id: ID, deadline_ms: 1_025_000, payload: PAYLOAD }) }]);
    expect(s3.calls.filter((c) => c.name === 'PutObjectCommand')).toEqual([]);
  });

  it('Should poll the answer with doubling waits until it appears, return it, and delete it', async () => {
    // Arrange
    const { s3, transport, clock } = build();
    const answer = { ok: true, results: { columns: ['a'], column_types: ['Int64'], rows: [[1]] }, row_count: 1, run_ms: 3 };
    s3.beforeGet = (polls) => {
      if (polls === 7) s3.objects.set(ANSWER_KEY, JSON.stringify(answer));
    };

    // Act
    const out = await transport.invoke(PAYLOAD, clock.t + 25_000);

    // Assess
    expect(out).toEqual(answer);
    expect(clock.sleeps).toEqual([50, 100, 200, 400, 800, 1000]);
    expect(s3.calls.filter((c) => c.name === 'GetObjectCommand').map((c) => c.input)).toEqual(Array(7).fill({ Bucket: 'lake', Key: ANSWER_KEY }));
    expect(s3.calls.filter((c) => c.name === 'DeleteObjectCommand').map((c) => c.input)).toEqual([{ Bucket: 'lake', Key: ANSWER_KEY }]);
    expect(s3.objects.size).toBe(0);
  });

  it('Should answer 503 naming the busy or stopped pool at the deadline, never sleeping past it', async () => {
    // Arrange
    const { transport, clock } = build();
    const deadline = clock.t + 2_500;

    // Act
    const failure = await transport.invoke(PAYLOAD, deadline).catch((err: unknown) => err);

    // Assess
    expect(failure).toBeInstanceOf(ServiceUnavailableError);
    expect((failure as Error).message).toMatch(/8-vCPU polars sandbox did not answer in time: its warm tasks are busy or not running/);
    expect(clock.t).toBe(deadline);
    expect(clock.sleeps).toEqual([50, 100, 200, 400, 800, 950]);
  });

  it('Should rethrow an S3 failure other than a missing answer', async () => {
    // Arrange
    const { s3, transport, clock } = build();
    s3.beforeGet = () => {
      throw Object.assign(new Error('Access Denied'), { name: 'AccessDenied', $metadata: { httpStatusCode: 403 } });
    };

    // Act + Assess
    await expect(transport.invoke(PAYLOAD, clock.t + 25_000)).rejects.toThrow('Access Denied');
  });

  it('Should put a payload above the SQS limit in S3 and queue a pointer, then delete both objects', async () => {
    // Arrange
    const { sqs, s3, transport, clock } = build();
    const big = { ...PAYLOAD, request: { ...PAYLOAD.request, query: `SELECT '${'x'.repeat(MAX_INLINE_MESSAGE_BYTES)}'` } };
    const requestKey = `polars-fargate/${ID}/request.json`;
    let stored: string | undefined;
    s3.beforeGet = () => {
      stored ??= s3.objects.get(requestKey);
      s3.objects.set(ANSWER_KEY, JSON.stringify({ ok: true }));
    };

    // Act
    await transport.invoke(big, clock.t + 25_000);

    // Assess
    expect(JSON.parse(stored ?? 'null')).toEqual(big);
    expect(sqs.inputs).toEqual([{ QueueUrl: TIER.queueUrl, MessageBody: JSON.stringify({ v: 1, request_id: ID, deadline_ms: 1_025_000, payload_key: requestKey }) }]);
    expect(s3.calls.filter((c) => c.name === 'DeleteObjectCommand').map((c) => c.input.Key).sort()).toEqual([ANSWER_KEY, requestKey]);
    expect(s3.objects.size).toBe(0);
  });

  it('Should keep a payload of exactly the limit inline', async () => {
    // Arrange
    const { sqs, s3, transport, clock } = build();
    s3.objects.set(ANSWER_KEY, '{"ok":true}');
    const overhead = JSON.stringify({ v: 1, request_id: ID, deadline_ms: 1_025_000, payload: { q: '' } }).length;
    const payload = { q: 'y'.repeat(MAX_INLINE_MESSAGE_BYTES - overhead) };

    // Act
    await transport.invoke(payload, clock.t + 25_000);

    // Assess
    expect(Buffer.byteLength(sqs.inputs[0]?.MessageBody ?? '')).toBe(MAX_INLINE_MESSAGE_BYTES);
    expect(JSON.parse(sqs.inputs[0]?.MessageBody ?? '{}')).toHaveProperty('payload', payload);
  });
});
