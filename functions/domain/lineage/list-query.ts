/**
 * @module list-query
 * Reads the query parameters of `GET /api/v1/events` into an {@link EventListQuery}. Every
 * parameter is checked, and a bad one is refused with a 400 whose message starts with its name
 * (`limit: must be an integer between 1 and 1000`).
 */
import { ValidationError } from '../errors.ts';
import { MAX_EPOCH_MICROS, MIN_EPOCH_MICROS } from './event-time.ts';
import { SORT_FIELDS, SORT_ORDERS, type EventListQuery, type SortField, type SortOrder } from './ports.ts';
import { foldForSearch } from './search-fold.ts';
import { RUN_STATES, type RunState } from './types.ts';

/** Page size when `limit` is absent (the contract's default). */
export const DEFAULT_LIMIT = 30;
/** Largest `limit` (ARCHITECTURE §3). */
export const MAX_LIMIT = 1_000;
/**
 * Largest `offset`: none beyond what a JSON number holds exactly. Deep pages stay cheap because the
 * store resumes a listing from where the page before it ended (adapters/dynamodb/listing-continuations.ts),
 * so a client paging with `offset += limit` through a window of any size is never refused.
 */
export const MAX_OFFSET = Number.MAX_SAFE_INTEGER;
/** Most names accepted in `integrations` (DynamoDB's `IN` takes at most 100 operands). */
export const MAX_INTEGRATIONS = 100;
/** The parameters the endpoint knows; any other name is refused, so a typo cannot silently widen a query. */
export const EVENTS_QUERY_PARAMETERS = ['start', 'end', 'sort_by', 'order', 'run', 'states', 'namespace', 'job', 'integrations', 'limit', 'offset'] as const;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const MICROS_PER_SECOND = 1_000_000n;
// ajv's `uuid` format (what the schema accepts for run.runId): optional `urn:uuid:`, any case.
const UUID = /^(?:urn:uuid:)?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/**
 * Validates the query string of a listing request.
 *
 * Enumerated values (`sort_by`, `order`, `states`) are matched case-insensitively; `namespace`,
 * `job` and `integrations` are folded for case-insensitive matching. An empty `namespace` or `job`
 * filters nothing (every name contains the empty string); an empty list in `states` or
 * `integrations` is refused, since it could only match nothing.
 *
 * @param params - the query string parameters (repeated parameters already joined with commas,
 *   as API Gateway does)
 * @throws {ValidationError} naming the first bad parameter
 */
export function parseListQuery(params: Readonly<Record<string, string | undefined>>): EventListQuery {
  const unknown = Object.keys(params).find((name) => !(EVENTS_QUERY_PARAMETERS as readonly string[]).includes(name));
  if (unknown !== undefined) {
    throw new ValidationError(`${shorten(unknown)}: is not a parameter of this endpoint (expected ${EVENTS_QUERY_PARAMETERS.join(', ')})`);
  }
  const start = epochSeconds(params, 'start');
  const end = epochSeconds(params, 'end');
  // An end at or before start is a window that holds no event: an empty page, as the contract's
  // `event_time >= start` and `< end` read (the OpenAPI document cannot relate two parameters).

  const query: {
    -readonly [K in keyof EventListQuery]: EventListQuery[K];
  } = {
    // The bounds are clamped to the storable range; a window wholly outside it is simply empty.
    startMicros: clamp(start * MICROS_PER_SECOND, MIN_EPOCH_MICROS, MAX_EPOCH_MICROS + 1n),
    endMicros: clamp(end * MICROS_PER_SECOND, MIN_EPOCH_MICROS, MAX_EPOCH_MICROS + 1n),
    sortBy: oneOf<SortField>(params, 'sort_by', SORT_FIELDS, 'EVENT_TIME'),
    order: oneOf<SortOrder>(params, 'order', SORT_ORDERS, 'DESC'),
    limit: integerIn(params, 'limit', 1, MAX_LIMIT, DEFAULT_LIMIT),
    offset: integerIn(params, 'offset', 0, MAX_OFFSET, 0, `offset: must be a non-negative integer, at most ${MAX_OFFSET}`),
  };
  const run = params.run;
  if (run !== undefined) {
    const match = UUID.exec(run.trim());
    if (!match?.[1]) throw new ValidationError('run: must be a UUID');
    query.runId = match[1].toLowerCase();
  }
  const states = list(params, 'states');
  if (states !== undefined) query.states = runStates(states);
  const namespace = params.namespace;
  if (namespace !== undefined && namespace !== '') query.namespace = foldForSearch(namespace);
  const job = params.job;
  if (job !== undefined && job !== '') query.job = foldForSearch(job);
  const integrations = list(params, 'integrations');
  if (integrations !== undefined) {
    if (integrations.length > MAX_INTEGRATIONS) throw new ValidationError(`integrations: must list at most ${MAX_INTEGRATIONS} names`);
    query.integrations = [...new Set(integrations.map(foldForSearch))];
  }
  return query;
}

function epochSeconds(params: Readonly<Record<string, string | undefined>>, name: 'start' | 'end'): bigint {
  const text = params[name];
  if (text === undefined || text.trim() === '') throw new ValidationError(`${name}: is required (UNIX epoch seconds)`);
  if (!/^\s*-?\d+\s*$/.test(text)) throw new ValidationError(`${name}: must be an integer (UNIX epoch seconds)`);
  const value = BigInt(text.trim());
  if (value < INT64_MIN || value > INT64_MAX) throw new ValidationError(`${name}: must be a 64-bit integer (UNIX epoch seconds)`);
  return value;
}

function integerIn(params: Readonly<Record<string, string | undefined>>, name: string, min: number, max: number, fallback: number, message = `${name}: must be an integer between ${min} and ${max}`): number {
  const text = params[name];
  if (text === undefined) return fallback;
  if (!/^\s*-?\d+\s*$/.test(text)) throw new ValidationError(message);
  const value = Number(text.trim());
  if (!Number.isSafeInteger(value) || value < min || value > max) throw new ValidationError(message);
  return value;
}

function oneOf<T extends string>(params: Readonly<Record<string, string | undefined>>, name: string, allowed: readonly T[], fallback: T): T {
  const text = params[name];
  if (text === undefined) return fallback;
  const wanted = text.trim().toUpperCase();
  const found = allowed.find((value) => value === wanted);
  if (found === undefined) throw new ValidationError(`${name}: must be one of ${allowed.join(', ')}`);
  return found;
}

/** A comma-separated list, trimmed, empty entries dropped; refused when nothing is left. */
function list(params: Readonly<Record<string, string | undefined>>, name: 'states' | 'integrations'): string[] | undefined {
  const text = params[name];
  if (text === undefined) return undefined;
  const items = text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  if (items.length === 0) {
    throw new ValidationError(name === 'states' ? `states: must list at least one of ${RUN_STATES.join(', ')}` : 'integrations: must list at least one integration name');
  }
  return items;
}

function runStates(items: readonly string[]): RunState[] {
  const states = new Set<RunState>();
  for (const item of items) {
    const state = RUN_STATES.find((s) => s === item.toUpperCase());
    if (state === undefined) throw new ValidationError(`states: ${shorten(item)} is not one of ${RUN_STATES.join(', ')}`);
    states.add(state);
  }
  // In the order of RUN_STATES, so equal requests make equal queries.
  return RUN_STATES.filter((s) => states.has(s));
}

function clamp(value: bigint, min: bigint, max: bigint): bigint {
  if (value < min) return min;
  return value > max ? max : value;
}

/** Caller-supplied text echoed in a message, cut so an error body stays small. */
function shorten(text: string): string {
  return text.length > 64 ? `${text.slice(0, 64)}…` : text;
}
