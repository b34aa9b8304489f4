/**
 * @module list-events
 * The listing use case behind `GET /api/v1/events`: validate the parameters, then ask the store
 * for one page of the caller's org only.
 */
import { parseListQuery } from './list-query.ts';
import type { EventPage, EventStore } from './ports.ts';

/**
 * Lists one page of an org's events.
 *
 * @param params - the raw query string parameters
 * @throws {ValidationError} (a 400) naming the first bad parameter
 */
export async function listEvents(store: EventStore, orgId: string, params: Readonly<Record<string, string | undefined>>): Promise<EventPage> {
  return store.list(orgId, parseListQuery(params));
}
