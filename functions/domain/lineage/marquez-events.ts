/**
 * @module lineage/marquez-events
 * Marquez's events path, `GET /api/v1/events/lineage?after=&before=&sortDirection=&limit=&offset=`:
 * the org's stored events as sent (the OpenLineage documents), by event time, in Marquez's
 * `{events, totalCount}` shape. It reads the same store as `GET /api/v1/events` (whose contract is
 * unchanged); only the parameters and the shape are Marquez's. `totalCount` counts the whole window,
 * as Marquez's web UI pages by it (ADR 0042: its cost grows with the window).
 */
import { ValidationError } from '../errors.ts';
import { MAX_EPOCH_MICROS, MIN_EPOCH_MICROS, parseEventTime } from './event-time.ts';
import { MAX_OFFSET } from './list-query.ts';
import type { EventListQuery, EventStore } from './ports.ts';

/** The parameters Marquez's events path takes; any other is refused, so a typo cannot widen a query. */
export const MARQUEZ_EVENTS_PARAMETERS = ['after', 'before', 'sortDirection', 'limit', 'offset'] as const;
/** Page size when `limit` is absent (Marquez's default). */
export const MARQUEZ_EVENTS_DEFAULT_LIMIT = 100;
/** Largest `limit` (the events endpoint's). */
export const MARQUEZ_EVENTS_MAX_LIMIT = 1_000;

/** `{events, totalCount}`: one page of the OpenLineage events as sent, and how many the window holds. */
export interface MarquezEventsView {
  readonly events: ReadonlyArray<Readonly<Record<string, unknown>>>;
  readonly totalCount: number;
}

type Params = Readonly<Record<string, string | undefined>>;

const shorten = (text: string): string => (text.length > 64 ? `${text.slice(0, 64)}…` : text);

const bound = (params: Params, name: 'after' | 'before', fallback: bigint): bigint => {
  const text = params[name];
  if (text === undefined) return fallback;
  try {
    return parseEventTime(text.trim(), name).epochMicros;
  } catch {
    throw new ValidationError(`${name}: must be an ISO-8601 date-time with a zone (2024-01-31T12:00:00Z)`);
  }
};

const integerIn = (params: Params, name: string, min: number, max: number, fallback: number): number => {
  const text = params[name];
  if (text === undefined) return fallback;
  const value = /^\s*\d+\s*$/.test(text) ? Number(text.trim()) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) throw new ValidationError(`${name}: must be an integer between ${min} and ${max}`);
  return value;
};

/**
 * Reads the query string of Marquez's events path: `after` (inclusive) and `before` (exclusive)
 * ISO-8601 times, open when absent; `sortDirection` `desc` (default) or `asc`; `limit` 1–1000
 * (default 100); `offset` (default 0, at most the events endpoint's bound).
 * @throws {ValidationError} naming the first bad parameter
 */
export function parseMarquezEventsQuery(params: Params): EventListQuery {
  const unknown = Object.keys(params).find((name) => !(MARQUEZ_EVENTS_PARAMETERS as readonly string[]).includes(name));
  if (unknown !== undefined) throw new ValidationError(`${shorten(unknown)}: is not a parameter of this endpoint (expected ${MARQUEZ_EVENTS_PARAMETERS.join(', ')})`);
  const startMicros = bound(params, 'after', MIN_EPOCH_MICROS);
  const endMicros = bound(params, 'before', MAX_EPOCH_MICROS + 1n);
  // `before` at or before `after` is a window that holds no event: an empty page, as the events
  // endpoint answers one (list-query.ts), not an error.
  const direction = (params.sortDirection ?? 'desc').trim().toLowerCase();
  if (direction !== 'asc' && direction !== 'desc') throw new ValidationError('sortDirection: must be asc or desc');
  return {
    startMicros,
    endMicros,
    sortBy: 'EVENT_TIME',
    order: direction === 'asc' ? 'ASC' : 'DESC',
    limit: integerIn(params, 'limit', 1, MARQUEZ_EVENTS_MAX_LIMIT, MARQUEZ_EVENTS_DEFAULT_LIMIT),
    offset: integerIn(params, 'offset', 0, MAX_OFFSET, 0),
  };
}

/** One page of the org's events as sent, and the window's count, in Marquez's shape. */
export async function listMarquezEvents(store: EventStore, orgId: string, query: EventListQuery): Promise<MarquezEventsView> {
  const [page, totalCount] = await Promise.all([store.list(orgId, query), store.count(orgId, query)]);
  return { events: page.events.map((e) => e.event_raw), totalCount };
}
