/**
 * @module notifications/deliver
 * One attempt of one queued delivery, as the local worker and the AWS queue's consumer both run it:
 * sign the stored body, send it, and record the attempt in the delivery log. The caller acts on
 * the outcome: `done` takes the item off the queue; `retry` puts it back for `afterMs` (the lane
 * behind it waits). A delivery that is no longer PENDING (a redelivered copy) is `done` at once.
 */
import type { DeliverySender, NotificationStore, QueuedDelivery } from './deliveries.ts';
import { ATTEMPT_TIMEOUT_MS, MAX_ATTEMPTS, retryDelayMs } from './retry-policy.ts';
import { signedHeaders } from './signing.ts';

/** What an attempt leaves the caller to do. */
export type AttemptOutcome = { readonly outcome: 'done'; readonly status: 'DELIVERED' | 'FAILED' | 'SKIPPED' } | { readonly outcome: 'retry'; readonly afterMs: number };

/** What an attempt is given. */
export interface DeliverDeps {
  readonly store: NotificationStore;
  readonly sender: DeliverySender;
  readonly now: () => Date;
  readonly timeoutMs?: number;
  readonly random?: () => number;
}

const clip = (text: string): string => (text.length > 500 ? `${text.slice(0, 497)}...` : text);

/** Makes one attempt of a queued delivery. */
export const attemptDelivery = async (deps: DeliverDeps, queued: QueuedDelivery): Promise<AttemptOutcome> => {
  const { store } = deps;
  const delivery = await store.getDelivery(queued.orgId, queued.destinationId, queued.deliveryId);
  if (!delivery || delivery.status !== 'PENDING') return { outcome: 'done', status: 'SKIPPED' };
  const attempts = delivery.attempts + 1;
  const started = deps.now();
  const destination = await store.getDestination(queued.orgId, queued.destinationId);
  if (!destination) {
    await store.updateDelivery(queued.orgId, queued.destinationId, queued.deliveryId, { status: 'FAILED', attempts: delivery.attempts, lastAttemptAt: started.toISOString(), lastError: 'the webhook was deleted' });
    return { outcome: 'done', status: 'FAILED' };
  }
  const result = await deps.sender.send({
    url: destination.url,
    headers: signedHeaders(destination.secret, delivery.id, started, delivery.body),
    body: delivery.body,
    timeoutMs: deps.timeoutMs ?? ATTEMPT_TIMEOUT_MS,
  });
  const lastAttemptAt = started.toISOString();
  const statusCode = result.kind === 'answered' ? { lastStatusCode: result.status } : {};
  if (result.kind === 'answered' && result.status >= 200 && result.status < 300) {
    await store.updateDelivery(queued.orgId, queued.destinationId, queued.deliveryId, { status: 'DELIVERED', attempts, lastAttemptAt, ...statusCode, deliveredAt: deps.now().toISOString() });
    return { outcome: 'done', status: 'DELIVERED' };
  }
  const lastError = clip(result.kind === 'answered' ? `the endpoint answered ${result.status}` : result.error);
  // An address the policy refuses stays refused: no retry (the log says why).
  if (result.kind === 'refused' || attempts >= MAX_ATTEMPTS) {
    await store.updateDelivery(queued.orgId, queued.destinationId, queued.deliveryId, { status: 'FAILED', attempts, lastAttemptAt, ...statusCode, lastError });
    return { outcome: 'done', status: 'FAILED' };
  }
  const afterMs = retryDelayMs(attempts, deps.random);
  await store.updateDelivery(queued.orgId, queued.destinationId, queued.deliveryId, {
    status: 'PENDING',
    attempts,
    lastAttemptAt,
    ...statusCode,
    lastError,
    nextAttemptAt: new Date(deps.now().getTime() + afterMs).toISOString(),
  });
  return { outcome: 'retry', afterMs };
};
