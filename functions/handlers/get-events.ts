/**
 * @module get-events
 * `GET /api/v1/events`: one page of the caller's stored lineage events, filtered, sorted and
 * paginated as the contract describes. Every bad parameter is a 400 naming it.
 */
import { listEvents } from '#domain/lineage/list-events';
import { eventStore } from '#shared/container';
import { httpHandler } from '#shared/middleware';

/**
 * Byte budget of a page: below Lambda's 6 MB response limit with room for JSON escaping. A page
 * cut short by it still holds at least one event; `x-lakeline-next-offset` says where to go on.
 */
export const MAX_PAGE_BYTES = 5 * 1024 * 1024;

/** Lambda entry point. */
export const handler = httpHandler('GetEvents', async ({ principal, query }) => {
  const page = await listEvents(eventStore(), principal.orgId, query, MAX_PAGE_BYTES);
  const offset = Number(query.offset ?? 0);
  return {
    statusCode: 200,
    headers: { 'x-lakeline-next-offset': String(offset + page.events.length), ...(page.truncated ? { 'x-lakeline-truncated': 'true' } : {}) },
    body: page.events,
  };
});
