/**
 * @module list-marquez-events
 * `GET /api/v1/events/lineage?after=&before=&sortDirection=&limit=&offset=` (Marquez's events
 * path): one page of the caller's stored events as sent, by event time. `GET /api/v1/events` is
 * the contract's own listing, unchanged.
 */
import { listMarquezEvents, type MarquezEventsView } from '#domain/lineage/marquez-events';
import { platform } from '#composition/index';
import { ListMarquezEvents } from '#shared/contracts';
import { httpHandler } from '#composition/http';
import { pageTooLarge } from '#handlers/get-events';

/** Lambda entry point. */
export const handler = httpHandler(
  ListMarquezEvents,
  async ({ principal, query }) => ({ statusCode: 200, body: await listMarquezEvents(platform().events, principal.orgId, query) }),
  // The same refusal as the events endpoint's, counted over the page's events.
  (result, limits) => pageTooLarge({ ...result, body: (result.body as MarquezEventsView).events }, limits),
);
