/**
 * Alert deliveries in the AWS profile, against the emulator (ADR 0054): the webhook routes'
 * handlers behind the authorizer Lambda refuse a loopback destination (AWS reaches public addresses
 * only); the notifier puts one message per delivery on the SQS FIFO queue, a lane per message
 * group, a notice given twice queued once; the delivery Lambda (`deliver-notifications`), read one
 * message per invocation as its event source mapping does, refuses at delivery an address that
 * has become private since creation; and through the queue's consumer a failed attempt is put back
 * with its backoff while the lane's later notice waits, so a receiver sees the alert in order.
 */
import { randomUUID } from 'node:crypto';
import { CreateQueueCommand, DeleteMessageCommand, GetQueueAttributesCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { deliveryConsumer, SqsDeliveryQueue } from '#adapters/aws/sqs-delivery-queue';
import { GuardedWebhookSender } from '#adapters/http/webhook-sender';
import { NOTIFICATIONS_QUEUE_URL_ENV } from '#composition/env-names';
import { attemptDelivery } from '#domain/notifications/deliver';
import { newDestinationId, newSigningSecret } from '#domain/notifications/destinations';
import type { NotificationStore } from '#domain/notifications/deliveries';
import type { AlertNotice, AlertNotifier } from '#domain/notifications/ports';
import { startReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.ts';
import { useAwsProfile, type AwsProfile } from './aws-profile.ts';
import { awsClientConfig } from './emulator.ts';
import { createEmulatedLake } from './emulated-lake.ts';

const aws = inject('aws');
const sqs = new SQSClient(awsClientConfig(aws));
let queueUrl: string;
let profile: AwsProfile;
let store: NotificationStore;
let notifier: AlertNotifier;
let receiver: WebhookReceiver;

const notice = (orgId: string, alertId: string, sequence: number): AlertNotice => ({
  orgId,
  alertId,
  kind: 'RUN_FAILED',
  transition: sequence === 1 ? 'OPENED' : 'UPDATED',
  sequence,
  at: new Date().toISOString(),
  alert: { id: alertId, blastRadius: { jobs: 2 } },
  event: { eventType: 'FAIL' },
});

/** Lambda's FIFO event source mapping with batch size 1: one message at a time, deleted unless reported failed. */
const invokeOnce = async (handler: (event: SQSEvent) => Promise<SQSBatchResponse>): Promise<'empty' | 'done' | 'failed'> => {
  const out = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 1, MessageSystemAttributeNames: ['All'], VisibilityTimeout: 30 }));
  const message = out.Messages?.[0];
  if (!message) return 'empty';
  const record = { messageId: message.MessageId, receiptHandle: message.ReceiptHandle, body: message.Body, attributes: message.Attributes, messageAttributes: {}, eventSource: 'aws:sqs' } as unknown as SQSRecord;
  const answer = await handler({ Records: [record] });
  if (answer.batchItemFailures.length > 0) return 'failed';
  await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle as string }));
  return 'done';
};

const queuedMessages = async (): Promise<number> => {
  const out = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }));
  return Number(out.Attributes?.ApproximateNumberOfMessages ?? 0) + Number(out.Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0);
};

beforeAll(async () => {
  const created = await sqs.send(new CreateQueueCommand({ QueueName: `lakeline-deliveries-${randomUUID().slice(0, 8)}.fifo`, Attributes: { FifoQueue: 'true' } }));
  queueUrl = created.QueueUrl as string;
  profile = await useAwsProfile(aws, await createEmulatedLake(aws), { [NOTIFICATIONS_QUEUE_URL_ENV]: queueUrl });
  const composition = await import('#composition/index');
  store = composition.notifications().store;
  notifier = composition.alertNotifier();
  receiver = await startReceiver();
}, 120_000);

afterAll(async () => {
  await receiver?.close();
  sqs.destroy();
});

describe('webhooks in the AWS profile', () => {
  it('Should refuse a loopback destination at creation, naming it', async () => {
    const answer = await profile.call('CreateWebhook', { body: { url: receiver.url } });
    expect(answer.statusCode).toBe(400);
    expect(String((answer.body as { error: string }).error)).toMatch(/127\.0\.0\.1 is loopback: destinations must be public addresses$/);
  });

  it('Should queue one message per delivery (a notice given twice once), and refuse at delivery an address that turned private', async () => {
    // As if the host resolved publicly at creation and to loopback now: stored as created, then delivered.
    const destination = { orgId: profile.orgId, id: newDestinationId(), kind: 'webhook' as const, url: receiver.url, alertKinds: [], secret: newSigningSecret(), createdAt: new Date().toISOString() };
    await store.putDestination(destination);
    await notifier.notify(notice(profile.orgId, 'aws-alert', 1));
    await notifier.notify(notice(profile.orgId, 'aws-alert', 1));
    expect(await queuedMessages()).toBe(1);
    const { handler } = await import('#handlers/deliver-notifications');
    expect(await invokeOnce(handler)).toBe('done');
    expect(await invokeOnce(handler)).toBe('empty');
    expect(receiver.received).toHaveLength(0);
    const [logged] = (await store.listDeliveries(profile.orgId, destination.id, { limit: 5 })).items;
    expect(logged).toMatchObject({ status: 'FAILED', attempts: 1, lastError: expect.stringMatching(/^refused: 127\.0\.0\.1 is loopback/) });
    // The test delivery route is the same path: PENDING in the log, a message on the queue.
    const test = await profile.call('PostWebhookTest', { pathParameters: { id: destination.id } });
    expect([test.statusCode, (test.body as { status: string }).status]).toEqual([200, 'PENDING']);
    expect(await queuedMessages()).toBe(1);
    expect(await invokeOnce(handler)).toBe('done');
  });

  it("Should put a failed attempt back with its backoff while the lane's later notice waits", async () => {
    const orgId = `org-${randomUUID()}`;
    const destination = { orgId, id: newDestinationId(), kind: 'webhook' as const, url: receiver.url, alertKinds: [], secret: newSigningSecret(), createdAt: new Date().toISOString() };
    await store.putDestination(destination);
    const before = receiver.received.length;
    receiver.script(500);
    await notifier.notify(notice(orgId, 'ordered', 1));
    await notifier.notify(notice(orgId, 'ordered', 2));
    // The consumer with a sender that may reach this machine's receiver (the profile's refuses loopback).
    const queue = new SqsDeliveryQueue(sqs, queueUrl);
    const consumer = deliveryConsumer(() => ({
      attempt: (item) => attemptDelivery({ store, sender: new GuardedWebhookSender({ allowLoopback: true }), now: () => new Date(), random: () => 0 }, item),
      postpone: (handle, seconds) => queue.postpone(handle, seconds),
      log: { error: () => undefined },
    }));
    expect(await invokeOnce(consumer)).toBe('failed');
    // Seq 1 is hidden for its backoff, and seq 2 of its group may not overtake it.
    expect(await invokeOnce(consumer)).toBe('empty');
    const deadline = Date.now() + 15_000;
    while (receiver.received.length < before + 3 && Date.now() < deadline) {
      if ((await invokeOnce(consumer)) === 'empty') await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const mine = receiver.received.slice(before);
    expect(mine.map((r) => (JSON.parse(r.body) as { data: { sequence: number } }).data.sequence)).toEqual([1, 1, 2]);
    for (const request of mine) new Webhook(destination.secret).verify(request.body, request.headers);
    const log = (await store.listDeliveries(orgId, destination.id, { limit: 5 })).items;
    expect(log.map((d) => [d.sequence, d.status, d.attempts]).sort()).toEqual([
      [1, 'DELIVERED', 2],
      [2, 'DELIVERED', 1],
    ]);
  });
});
