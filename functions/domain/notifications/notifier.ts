/**
 * @module notifications/notifier
 * The {@link AlertNotifier} the alerts side calls: each notice becomes one delivery per destination
 * of the org that takes its alert kind, recorded in the delivery log (PENDING) and put on the
 * durable queue before `notify` returns. A delivery's id is derived from (destination, alert,
 * sequence), so a notice given twice records and queues nothing new: its log entry exists, and the
 * queue drops (or the worker skips) the copy.
 */
import { createHash } from 'node:crypto';
import type { Delivery, DeliveryQueue, NotificationStore, QueuedDelivery } from './deliveries.ts';
import { receives } from './destinations.ts';
import { noticeBody } from './payloads.ts';
import type { AlertNotice, AlertNotifier } from './ports.ts';

/** The id of a notice's delivery to a destination: `msg_` + 32 hex digits of a hash of the three. */
export const deliveryIdOf = (destinationId: string, alertId: string, sequence: number): string =>
  `msg_${createHash('sha256').update(`${destinationId}\n${alertId}\n${sequence}`).digest('hex').slice(0, 32)}`;

/** Queues notices for delivery. */
export class QueueingNotifier implements AlertNotifier {
  constructor(private readonly deps: { readonly store: NotificationStore; readonly queue: DeliveryQueue; readonly now: () => Date }) {}

  async notify(notice: AlertNotice): Promise<void> {
    const destinations = (await this.deps.store.allDestinations(notice.orgId)).filter((d) => receives(d, notice.kind));
    const queued: QueuedDelivery[] = [];
    for (const destination of destinations) {
      const delivery: Delivery = {
        orgId: notice.orgId,
        destinationId: destination.id,
        id: deliveryIdOf(destination.id, notice.alertId, notice.sequence),
        test: false,
        alertId: notice.alertId,
        alertKind: notice.kind,
        transition: notice.transition,
        sequence: notice.sequence,
        status: 'PENDING',
        attempts: 0,
        createdAt: this.deps.now().toISOString(),
        body: noticeBody(destination.kind, notice),
      };
      // Queued even when the entry existed: a crash between the two writes must not lose the delivery.
      await this.deps.store.createDelivery(delivery);
      queued.push({ orgId: notice.orgId, destinationId: destination.id, deliveryId: delivery.id, alertId: notice.alertId, sequence: notice.sequence });
    }
    if (queued.length > 0) await this.deps.queue.enqueue(queued);
  }
}
