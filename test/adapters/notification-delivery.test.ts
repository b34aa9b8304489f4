/**
 * Alert notices from the `AlertNotifier` to a real receiver, on both DynamoDB backends (dynalite,
 * the local profile's store; moto): the notifier records and queues one delivery per destination
 * taking the alert's kind; the local worker delivers each lane (destination and alert) in sequence
 * order, a later notice waiting while the earlier is retried; another alert's lane is not held up;
 * a notice given twice is delivered once; the log records every attempt.
 */
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DynamoLocalDeliveryQueue } from '#adapters/dynamodb/local-delivery-queue';
import { DynamoNotificationStore } from '#adapters/dynamodb/notification-store';
import { GuardedWebhookSender } from '#adapters/http/webhook-sender';
import { LocalDeliveryWorker } from '#adapters/local/delivery-worker';
import { attemptDelivery } from '#domain/notifications/deliver';
import { createDestination } from '#domain/notifications/manage';
import { QueueingNotifier } from '#domain/notifications/notifier';
import type { AlertNotice } from '#domain/notifications/ports';
import { NOTIFICATIONS_TABLE } from '#shared/table-definitions';
import { startReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.ts';
import { DYNAMO_BACKENDS, openDynamoBackend, type DynamoBackend } from './dynamo-backends.ts';

const policy = { allowLoopback: true };
const loopbackResolver = { resolve: async () => ['127.0.0.1'] };

const notice = (orgId: string, alertId: string, sequence: number, transition: AlertNotice['transition'] = sequence === 1 ? 'OPENED' : 'UPDATED'): AlertNotice => ({
  orgId,
  alertId,
  kind: 'RUN_FAILED',
  transition,
  sequence,
  at: new Date().toISOString(),
  alert: { id: alertId, title: `job etl.daily failed (${sequence})`, blastRadius: { jobs: ['etl.report'], datasets: ['pg:public.report'] } },
  event: { eventType: 'FAIL', run: { runId: randomUUID() }, job: { namespace: 'etl', name: 'daily' } },
});

const dataOf = (body: string): { alertId: string; sequence: number } => (JSON.parse(body) as { data: { alertId: string; sequence: number } }).data;

describe.each(DYNAMO_BACKENDS)('alert notices on %s', (backendName) => {
  let backend: DynamoBackend;
  let store: DynamoNotificationStore;
  let worker: LocalDeliveryWorker;
  let notifier: QueueingNotifier;
  const receivers: WebhookReceiver[] = [];

  beforeAll(() => {
    backend = openDynamoBackend(backendName);
    const table = backend.tableName(NOTIFICATIONS_TABLE);
    store = new DynamoNotificationStore(backend.doc, table);
    // A queue partition of this suite's own: a running stack's worker reads only `QUEUE`.
    const queue = new DynamoLocalDeliveryQueue(backend.doc, table, Date.now, `QUEUE#suite-${randomUUID()}`);
    const now = () => new Date();
    notifier = new QueueingNotifier({ store, queue, now });
    // No jitter upward: the first retry after 0.5 s.
    worker = new LocalDeliveryWorker({ queue, attempt: (item) => attemptDelivery({ store, sender: new GuardedWebhookSender(policy, loopbackResolver), now, random: () => 0 }, item), pollMs: 100, warn: () => undefined });
    worker.start();
  });

  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });

  afterAll(async () => {
    await worker.stop();
    backend.close();
  });

  const destination = async (orgId: string, alertKinds: AlertNotice['kind'][] = []) => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const created = await createDestination({ store, policy, resolver: loopbackResolver, now: () => new Date() }, orgId, { url: receiver.url, kind: 'webhook', alertKinds });
    return { receiver, created };
  };

  it('Should deliver the notices of an alert in sequence order, a later one waiting while the earlier is retried', async () => {
    const orgId = `org-${randomUUID()}`;
    const { receiver, created } = await destination(orgId);
    receiver.script(500, 500);
    await notifier.notify(notice(orgId, 'alert-1', 1));
    await notifier.notify(notice(orgId, 'alert-1', 2));
    await notifier.notify(notice(orgId, 'alert-1', 3, 'RESOLVED'));
    const requests = await receiver.waitFor(5);
    expect(requests.map((r) => dataOf(r.body).sequence)).toEqual([1, 1, 1, 2, 3]);
    for (const request of requests) expect(new Webhook(created.secret).verify(request.body, request.headers)).toMatchObject({ type: expect.stringMatching(/^alert\./) });
    expect(JSON.parse(requests[4]?.body ?? '{}')).toMatchObject({ type: 'alert.resolved', data: { kind: 'RUN_FAILED', alert: { blastRadius: { jobs: ['etl.report'] } }, event: { eventType: 'FAIL' } } });
    // The receiver answered the last request: its log entry follows a moment later.
    let log = await store.listDeliveries(orgId, created.id, { limit: 10 });
    for (let i = 0; i < 50 && log.items.some((d) => d.status === 'PENDING'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      log = await store.listDeliveries(orgId, created.id, { limit: 10 });
    }
    expect(log.items.map((d) => [d.sequence, d.status, d.attempts])).toEqual(
      expect.arrayContaining([
        [1, 'DELIVERED', 3],
        [2, 'DELIVERED', 1],
        [3, 'DELIVERED', 1],
      ]),
    );
  });

  it("Should not hold up another alert's notices behind a failing one", async () => {
    const orgId = `org-${randomUUID()}`;
    const { receiver } = await destination(orgId);
    receiver.decide = (request) => (dataOf(request.body).alertId === 'failing' ? 500 : 200);
    await notifier.notify(notice(orgId, 'failing', 1));
    await receiver.waitFor(1);
    await notifier.notify(notice(orgId, 'healthy', 1));
    await notifier.notify(notice(orgId, 'healthy', 2));
    const deadline = Date.now() + 10_000;
    while (receiver.received.filter((r) => dataOf(r.body).alertId === 'healthy').length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(receiver.received.filter((r) => dataOf(r.body).alertId === 'healthy').map((r) => dataOf(r.body).sequence)).toEqual([1, 2]);
  });

  it('Should deliver a notice given twice once, and only to destinations taking its kind', async () => {
    const orgId = `org-${randomUUID()}`;
    const { receiver } = await destination(orgId);
    const { receiver: testsOnly, created: testsOnlyDestination } = await destination(orgId, ['TEST_FAILED']);
    await notifier.notify(notice(orgId, 'twice', 1));
    await receiver.waitFor(1);
    await notifier.notify(notice(orgId, 'twice', 1));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(receiver.received).toHaveLength(1);
    expect(testsOnly.received).toHaveLength(0);
    expect((await store.listDeliveries(orgId, testsOnlyDestination.id, { limit: 10 })).items).toEqual([]);
  });

  it('Should page destinations and the log, newest first, taking any cursor as a position in its own partition', async () => {
    const orgId = `org-${randomUUID()}`;
    const { created } = await destination(orgId);
    await destination(orgId);
    for (let sequence = 1; sequence <= 3; sequence++) {
      await store.createDelivery({ orgId, destinationId: created.id, id: `msg_${sequence}`, test: false, status: 'PENDING', attempts: 0, createdAt: `2026-01-0${sequence}T00:00:00.000Z`, body: '{}' });
    }
    const first = await store.listDeliveries(orgId, created.id, { limit: 2 });
    expect(first.items.map((d) => d.id)).toEqual(['msg_3', 'msg_2']);
    const second = await store.listDeliveries(orgId, created.id, { limit: 2, after: first.next as string });
    expect(second.items.map((d) => d.id)).toEqual(['msg_1']);
    const destinations = await store.listDestinations(orgId, { limit: 1 });
    expect((await store.listDestinations(orgId, { limit: 1, after: destinations.next as string })).items).toHaveLength(1);
    // Any base64url text is a position: here one before every key of the partition.
    expect((await store.listDeliveries(orgId, created.id, { limit: 5, after: 'zz' })).items.map((d) => d.id)).toEqual(['msg_3', 'msg_2', 'msg_1']);
    expect((await store.listDestinations(`org-${randomUUID()}`, { limit: 5, after: destinations.next as string })).items).toEqual([]);
  });
});
