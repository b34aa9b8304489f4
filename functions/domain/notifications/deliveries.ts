/**
 * @module notifications/deliveries
 * A delivery is one notice (or one test) on its way to one destination, and the delivery log's
 * entry for it: status, attempts, the last error, timestamps. The ports the notifier and the
 * delivery worker stand on (the store, the durable queue, the HTTP sender) are here too, beside
 * the alerts side's contract in `ports.ts`.
 */
import type { AlertKind, AlertTransition } from './ports.ts';
import type { Destination } from './destinations.ts';

/** Where a delivery stands: PENDING until it is delivered, or has failed for good. */
export type DeliveryStatus = 'PENDING' | 'DELIVERED' | 'FAILED';

/** One delivery, as the log keeps it. */
export interface Delivery {
  readonly orgId: string;
  readonly destinationId: string;
  /** Also the `webhook-id` header: the same on every attempt, so a receiver can drop a redelivery. */
  readonly id: string;
  /** `true` for a test delivery (`POST /api/v1/webhooks/{id}/test`). */
  readonly test: boolean;
  readonly alertId?: string;
  readonly alertKind?: AlertKind;
  readonly transition?: AlertTransition;
  readonly sequence?: number;
  readonly status: DeliveryStatus;
  readonly attempts: number;
  /** The last attempt's HTTP status, when the endpoint answered. */
  readonly lastStatusCode?: number;
  /** Why the last attempt failed. */
  readonly lastError?: string;
  readonly createdAt: string;
  readonly lastAttemptAt?: string;
  /** When the next attempt is due (PENDING after a failed attempt). */
  readonly nextAttemptAt?: string;
  readonly deliveredAt?: string;
  /** The request body, as signed and sent on every attempt. */
  readonly body: string;
}

/** What one attempt changes in a delivery. */
export type DeliveryChange = Pick<Delivery, 'status' | 'attempts' | 'lastAttemptAt'> & Partial<Pick<Delivery, 'lastStatusCode' | 'lastError' | 'nextAttemptAt' | 'deliveredAt'>>;

/** A page of a listing; `next` continues it. */
export interface Paged<T> {
  readonly items: readonly T[];
  readonly next?: string;
}

/** A page request: at most `limit` items after the cursor a previous page gave. */
export interface PageRequest {
  readonly limit: number;
  readonly after?: string;
}

/** Port: destinations and the delivery log, per org. */
export interface NotificationStore {
  putDestination(destination: Destination): Promise<void>;
  getDestination(orgId: string, id: string): Promise<Destination | undefined>;
  listDestinations(orgId: string, page: PageRequest): Promise<Paged<Destination>>;
  /** Every destination of an org (the notifier's fan-out; an org has a handful). */
  allDestinations(orgId: string): Promise<readonly Destination[]>;
  /** Deletes a destination; `false` when it did not exist. */
  deleteDestination(orgId: string, id: string): Promise<boolean>;
  /** Records a new delivery; `false` (and nothing changed) when one with its id exists already. */
  createDelivery(delivery: Delivery): Promise<boolean>;
  getDelivery(orgId: string, destinationId: string, id: string): Promise<Delivery | undefined>;
  updateDelivery(orgId: string, destinationId: string, id: string, change: DeliveryChange): Promise<void>;
  /** A destination's deliveries, newest first. */
  listDeliveries(orgId: string, destinationId: string, page: PageRequest): Promise<Paged<Delivery>>;
}

/**
 * A delivery waiting in the queue. Deliveries of one lane (a destination and an alert) leave one at
 * a time, by `sequence`: a later notice of an alert waits for the earlier.
 */
export interface QueuedDelivery {
  readonly orgId: string;
  readonly destinationId: string;
  readonly deliveryId: string;
  /** The alert, or `test` for test deliveries. */
  readonly alertId: string;
  readonly sequence: number;
}

/** Port: the durable queue. `enqueue` returns once the items are durably queued. */
export interface DeliveryQueue {
  enqueue(items: readonly QueuedDelivery[]): Promise<void>;
}

/** One HTTP request to a destination. */
export interface OutgoingRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly timeoutMs: number;
}

/** How an attempt went: an answer (any status), a failure to get one, or an address refused (SSRF). */
export type SendResult =
  | { readonly kind: 'answered'; readonly status: number }
  | { readonly kind: 'failed'; readonly error: string }
  | { readonly kind: 'refused'; readonly error: string };

/** Port: sends one request, never following redirects, to an address the policy allows. */
export interface DeliverySender {
  send(request: OutgoingRequest): Promise<SendResult>;
}

/** A delivery as the API shows it: no org, no body. */
export interface DeliveryView extends Omit<Delivery, 'orgId' | 'destinationId' | 'body'> {
  readonly webhookId: string;
}

/** What the delivery log shows of a delivery. */
export const deliveryView = (delivery: Delivery): DeliveryView => {
  const { orgId: _org, destinationId, body: _body, ...shown } = delivery;
  return { ...shown, webhookId: destinationId };
};
