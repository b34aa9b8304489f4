/**
 * @module delivery-worker
 * The local profile's delivery worker (ADR 0054): reads the durable queue, and delivers the head of
 * every lane (a destination and an alert) that is due, one at a time per lane, so a later notice of
 * an alert waits for the earlier. Each org has its own few slots: an org whose endpoint hangs or
 * fails fills only its own, and every other org's deliveries go on. It polls (for retries coming
 * due) and wakes at once when something is queued in this process.
 */
import type { AttemptOutcome } from '#domain/notifications/deliver';
import type { DynamoLocalDeliveryQueue, LocalQueueItem } from '#adapters/dynamodb/local-delivery-queue';

/** Options of {@link LocalDeliveryWorker}. */
export interface DeliveryWorkerOptions {
  readonly queue: DynamoLocalDeliveryQueue;
  /** One attempt of one delivery (`attemptDelivery` with its ports). */
  readonly attempt: (item: LocalQueueItem) => Promise<AttemptOutcome>;
  /** Deliveries of one org in flight at once. @default 4 */
  readonly perOrgConcurrency?: number;
  /** How often the queue is read when nothing wakes the worker. @default 500 */
  readonly pollMs?: number;
  readonly warn: (message: string, fields: Record<string, unknown>) => void;
  readonly now?: () => number;
}

/** When an attempt itself failed (the store was unreachable), its item is tried again after this. */
const ERROR_RETRY_MS = 5_000;

/** Delivers the local queue's items. */
export class LocalDeliveryWorker {
  private readonly inFlight = new Map<string, LocalQueueItem>();
  private readonly perOrg = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private scanning: Promise<void> | undefined;
  private again = false;
  private readonly now: () => number;

  constructor(private readonly options: DeliveryWorkerOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Starts delivering (what a previous process left queued first). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.options.queue.onEnqueued = () => this.wake();
    this.wake();
  }

  /** Reads the queue now (or right after the read under way). */
  wake(): void {
    if (!this.running) return;
    if (this.scanning) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.scanning = this.scan()
      .catch((error: unknown) => this.options.warn('delivery queue read failed; retrying', { error }))
      .finally(() => {
        this.scanning = undefined;
        if (!this.running) return;
        if (this.again) {
          this.again = false;
          this.wake();
        } else {
          this.timer = setTimeout(() => this.wake(), this.options.pollMs ?? 500);
          this.timer.unref();
        }
      });
  }

  /** Stops taking new items; resolves once the attempts in flight are done. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.options.queue.onEnqueued = () => undefined;
    await this.scanning;
    while (this.inFlight.size > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  private async scan(): Promise<void> {
    const items = await this.options.queue.pending();
    const seen = new Set<string>();
    const limit = this.options.perOrgConcurrency ?? 4;
    for (const item of items) {
      // Only a lane's first item may go; the rest wait for it.
      if (seen.has(item.lane)) continue;
      seen.add(item.lane);
      if (this.inFlight.has(item.lane) || item.dueAt > this.now()) continue;
      const busy = this.perOrg.get(item.orgId) ?? 0;
      if (busy >= limit) continue;
      this.perOrg.set(item.orgId, busy + 1);
      this.inFlight.set(item.lane, item);
      void this.run(item);
    }
  }

  private async run(item: LocalQueueItem): Promise<void> {
    try {
      const result = await this.options.attempt(item).catch(async (error: unknown) => {
        this.options.warn('delivery attempt failed; retrying', { error, deliveryId: item.deliveryId });
        return { outcome: 'retry', afterMs: ERROR_RETRY_MS } as const;
      });
      if (result.outcome === 'retry') await this.options.queue.postpone(item, this.now() + result.afterMs);
      else await this.options.queue.remove(item);
    } catch (error) {
      this.options.warn('delivery queue update failed; the item is delivered again', { error, deliveryId: item.deliveryId });
    } finally {
      this.inFlight.delete(item.lane);
      this.perOrg.set(item.orgId, (this.perOrg.get(item.orgId) ?? 1) - 1);
      this.wake();
    }
  }
}
