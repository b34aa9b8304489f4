/**
 * @module fargate-polars-transport
 * The {@link SandboxTransport} of the polars tiers that do not fit Lambda (8 and 16 vCPUs): a warm
 * pool of ECS Fargate tasks per tier (`lib/polars-fargate.ts`) that long-poll the tier's SQS queue
 * and run each message with `lakeline_polars.task_runner`. A request cannot wait for a task to
 * start (30–60 s) behind API Gateway's 30 s integration timeout, so this transport only queues the
 * payload and polls S3 for the answer until the deadline; when no warm task takes it in time the
 * caller gets a 503 and the runner later drops the expired message unrun.
 *
 * Message body: `{v: 1, request_id, deadline_ms, payload}`, or `payload_key` (an S3 key under the
 * results prefix) instead of `payload` when the payload would exceed SQS's 256 KiB. The answer is
 * the handler's JSON at `<prefix>/<request id>/answer.json`; both objects are deleted once read
 * (a 1-day lifecycle rule on the prefix removes what a failed call leaves).
 */
import { randomUUID } from 'node:crypto';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { ServiceUnavailableError } from '#domain/errors';
import type { SandboxTransport } from './polars-sandbox-transport.ts';

/** SQS's limit on a message body. */
export const MAX_INLINE_MESSAGE_BYTES = 256 * 1024;
/** First wait between two polls of the answer; doubled after each miss up to {@link MAX_POLL_MS}. */
export const FIRST_POLL_MS = 50;
/** Longest wait between two polls of the answer. */
export const MAX_POLL_MS = 1000;

/** Where one Fargate tier takes its work and leaves its answers. */
export interface FargateTier {
  /** The tier's vCPUs (8 or 16). */
  readonly vcpus: number;
  /** URL of the tier's queue. */
  readonly queueUrl: string;
  /** Bucket of the results prefix. */
  readonly bucket: string;
  /** Key prefix of requests and answers, without a trailing slash. */
  readonly prefix: string;
}

/** What the transport needs besides its clients; tests replace the clock, the sleep and the ids. */
export interface FargateTransportHooks {
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly newRequestId?: () => string;
}

/** The keys of one request's objects. */
export const requestKeys = (prefix: string, requestId: string): { request: string; answer: string } => ({
  request: `${prefix}/${requestId}/request.json`,
  answer: `${prefix}/${requestId}/answer.json`,
});

const isMissing = (err: unknown): boolean => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
};

/** One tier's transport: SQS in, S3 out. */
export class FargateSandboxTransport implements SandboxTransport {
  readonly instanceType: string;
  /** Yes: the task runner hands each run to a worker of its own uid with a scrubbed environment (task_runner.py). */
  readonly confinesScripts = true;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly newRequestId: () => string;

  constructor(
    private readonly sqs: Pick<SQSClient, 'send'>,
    private readonly s3: Pick<S3Client, 'send'>,
    private readonly tier: FargateTier,
    hooks: FargateTransportHooks = {},
  ) {
    this.instanceType = `fargate-${tier.vcpus}vcpu`;
    this.now = hooks.now ?? Date.now;
    this.sleep = hooks.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.newRequestId = hooks.newRequestId ?? randomUUID;
  }

  /**
   * Queues the payload and waits for its answer.
   * @param deadlineMs epoch milliseconds (`Date.now()` clock) after which the caller gives up
   * @throws ServiceUnavailableError when no answer arrived by the deadline
   */
  async invoke(payload: unknown, deadlineMs: number): Promise<unknown> {
    const requestId = this.newRequestId();
    const keys = requestKeys(this.tier.prefix, requestId);
    const pointer = await this.send(requestId, payload, deadlineMs, keys.request);
    try {
      return await this.awaitAnswer(keys.answer, deadlineMs);
    } finally {
      await this.discard(pointer ? [keys.request, keys.answer] : [keys.answer]);
    }
  }

  /** Sends the message; returns whether the payload went to S3 behind a pointer. */
  private async send(requestId: string, payload: unknown, deadlineMs: number, requestKey: string): Promise<boolean> {
    const envelope = { v: 1, request_id: requestId, deadline_ms: deadlineMs };
    const inline = JSON.stringify({ ...envelope, payload });
    let body = inline;
    if (Buffer.byteLength(inline, 'utf8') > MAX_INLINE_MESSAGE_BYTES) {
      await this.s3.send(new PutObjectCommand({ Bucket: this.tier.bucket, Key: requestKey, Body: JSON.stringify(payload), ContentType: 'application/json' }));
      body = JSON.stringify({ ...envelope, payload_key: requestKey });
    }
    await this.sqs.send(new SendMessageCommand({ QueueUrl: this.tier.queueUrl, MessageBody: body }));
    return body !== inline;
  }

  /** Polls the answer object with backoff until it exists or the deadline passes. */
  private async awaitAnswer(key: string, deadlineMs: number): Promise<unknown> {
    let wait = FIRST_POLL_MS;
    for (;;) {
      const answer = await this.read(key);
      if (answer !== undefined) return answer;
      const left = deadlineMs - this.now();
      if (left <= 0) {
        throw new ServiceUnavailableError(`the ${this.tier.vcpus}-vCPU polars sandbox did not answer in time: its warm tasks are busy or not running; retry later or use a smaller vcpus tier`, {
          details: `no answer from the ${this.instanceType} pool before the deadline`,
        });
      }
      await this.sleep(Math.min(wait, left));
      wait = Math.min(wait * 2, MAX_POLL_MS);
    }
  }

  /** The parsed answer, or undefined while it does not exist. */
  private async read(key: string): Promise<unknown> {
    try {
      const out = await this.s3.send(new GetObjectCommand({ Bucket: this.tier.bucket, Key: key }));
      const text = (await out.Body?.transformToString('utf-8')) ?? '';
      return JSON.parse(text) as unknown;
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  /** Best effort: the prefix's lifecycle rule removes whatever is left. */
  private async discard(keys: readonly string[]): Promise<void> {
    await Promise.all(keys.map((Key) => this.s3.send(new DeleteObjectCommand({ Bucket: this.tier.bucket, Key })).catch(() => undefined)));
  }
}
