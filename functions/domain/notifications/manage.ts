/**
 * @module notifications/manage
 * The destinations' use cases behind `/api/v1/webhooks`: create (the URL checked against the
 * address policy after resolving its host; the secret answered this once), list, get, delete, a
 * test delivery, and a destination's delivery log. Every one is scoped to the caller's org: another
 * org's destination is not found.
 */
import { randomBytes } from 'node:crypto';
import { NotFoundError } from '#domain/errors';
import { checkDestinationUrl, type AddressPolicy, type HostResolver } from './address-policy.ts';
import type { Delivery, DeliveryQueue, NotificationStore, PageRequest, Paged } from './deliveries.ts';
import { destinationView, newDestinationId, newSigningSecret, type CreatedDestination, type Destination, type DestinationKind, type DestinationView } from './destinations.ts';
import { testBody } from './payloads.ts';
import type { AlertKind } from './ports.ts';

/** What the destinations' use cases are given. */
export interface DestinationDeps {
  readonly store: NotificationStore;
  readonly queue: DeliveryQueue;
  readonly policy: AddressPolicy;
  readonly resolver: HostResolver;
  readonly now: () => Date;
}

/** A destination to create, as the request gives it. */
export interface NewDestination {
  readonly url: string;
  readonly kind: DestinationKind;
  readonly description?: string;
  readonly alertKinds: readonly AlertKind[];
}

/** Creates a destination; the answer carries its secret, which no later answer does. */
export const createDestination = async (deps: Pick<DestinationDeps, 'store' | 'policy' | 'resolver' | 'now'>, orgId: string, request: NewDestination): Promise<CreatedDestination> => {
  const url = await checkDestinationUrl(request.url, deps.policy, deps.resolver);
  const destination: Destination = {
    orgId,
    id: newDestinationId(),
    kind: request.kind,
    url,
    ...(request.description === undefined ? {} : { description: request.description }),
    alertKinds: [...new Set(request.alertKinds)],
    secret: newSigningSecret(),
    createdAt: deps.now().toISOString(),
  };
  await deps.store.putDestination(destination);
  // The creator sent the URL: this answer shows it whole (a Slack URL included), with the secret.
  return { ...destinationView(destination), url: destination.url, secret: destination.secret };
};

/** Reads one of the org's destinations; 404 when the org has none by that id. */
export const findDestination = async (store: NotificationStore, orgId: string, id: string): Promise<Destination> => {
  const found = await store.getDestination(orgId, id);
  if (!found) throw new NotFoundError(`webhook ${id} not found`);
  return found;
};

/** One destination, as the API shows it. */
export const getDestination = async (store: NotificationStore, orgId: string, id: string): Promise<DestinationView> => destinationView(await findDestination(store, orgId, id));

/** A page of the org's destinations. */
export const listDestinations = async (store: NotificationStore, orgId: string, page: PageRequest): Promise<Paged<DestinationView>> => {
  const found = await store.listDestinations(orgId, page);
  return { items: found.items.map(destinationView), ...(found.next === undefined ? {} : { next: found.next }) };
};

/** Deletes a destination (its queued deliveries end FAILED when their turn comes); answers what was deleted. */
export const deleteDestination = async (store: NotificationStore, orgId: string, id: string): Promise<DestinationView> => {
  const found = await findDestination(store, orgId, id);
  if (!(await store.deleteDestination(orgId, id))) throw new NotFoundError(`webhook ${id} not found`);
  return destinationView(found);
};

/** A test delivery's id: `msg_test_` + random hex (unique per request). */
const newTestDeliveryId = (): string => `msg_test_${randomBytes(12).toString('hex')}`;

/** The lane of a destination's test deliveries (they leave in the order they were asked for). */
export const TEST_LANE = 'test';

/** Queues a test delivery to a destination and answers its log entry (PENDING). */
export const sendTestDelivery = async (deps: DestinationDeps, orgId: string, id: string): Promise<Delivery> => {
  const destination = await findDestination(deps.store, orgId, id);
  const now = deps.now();
  const delivery: Delivery = {
    orgId,
    destinationId: id,
    id: newTestDeliveryId(),
    test: true,
    status: 'PENDING',
    attempts: 0,
    createdAt: now.toISOString(),
    body: testBody(destination.kind, id, now.toISOString()),
  };
  await deps.store.createDelivery(delivery);
  // The sequence orders test deliveries of one destination by when they were asked for.
  await deps.queue.enqueue([{ orgId, destinationId: id, deliveryId: delivery.id, alertId: TEST_LANE, sequence: now.getTime() }]);
  return delivery;
};

/** A page of a destination's delivery log, newest first; 404 for another org's destination. */
export const listDeliveries = async (store: NotificationStore, orgId: string, id: string, page: PageRequest): Promise<Paged<Delivery>> => {
  await findDestination(store, orgId, id);
  return store.listDeliveries(orgId, id, page);
};
