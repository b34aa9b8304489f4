/**
 * @module get-events
 * `GET /api/v1/events`: one page of the caller's stored lineage events, filtered, sorted and
 * paginated as the contract describes. Every bad parameter is a 400 naming it. A page always holds
 * `limit` events unless the listing ends, so a client paging with `offset += limit` sees every
 * event. Large pages are gzip-compressed for callers that accept it; a page that still exceeds the
 * deployment's response limit (Lambda's 6 MB; none locally) is refused with a 400 naming `limit`
 * and the largest limit that fits, never cut short.
 */
import { ValidationError } from '#domain/errors';
import type { StoredLineageEvent } from '#domain/lineage/types';
import { platform } from '#composition/index';
import { GetEvents } from '#shared/contracts';
import { httpHandler } from '#composition/http';
import type { TooLargeExplainer } from '#shared/middleware';

/** The 400 for a page above the response limit, in the contract's terms: ask for fewer events. */
export const pageTooLarge: TooLargeExplainer = (result, { sentBytes, maxBytes, compressed }) => {
  const events = result.body as readonly StoredLineageEvent[];
  // The events' share of the bytes is about even; 10% slack for the ones that are larger.
  const fit = Math.floor((events.length * maxBytes * 0.9) / sentBytes);
  const gzipHint = compressed ? '' : ' or send Accept-Encoding: gzip (events compress about tenfold)';
  if (fit >= 1) {
    return new ValidationError(`limit: these ${events.length} events take ${sentBytes} bytes, more than one response can carry (${maxBytes}); ask for at most ${fit} events${gzipHint}`);
  }
  return new ValidationError(
    `limit: the event ${events[0]?.id ?? ''} at this offset alone takes more than one response can carry (${maxBytes} bytes)${compressed ? ' even compressed' : ''}; ${compressed ? 'page past it with offset + 1' : 'send Accept-Encoding: gzip'}`,
  );
};

/** Lambda entry point. */
export const handler = httpHandler(
  GetEvents,
  async ({ principal, query }) => ({
    statusCode: 200,
    body: (await platform().events.list(principal.orgId, query)).events,
  }),
  pageTooLarge,
);
