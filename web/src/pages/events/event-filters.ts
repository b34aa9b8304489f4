/**
 * @module pages/events/event-filters
 * The events page's filters, kept in the page's URL (shareable, back/forward work) and turned
 * into the parameters of `GET /api/v1/events`: every filter of the contract.
 */
import type { EventsParams, RunState } from '../../api/types.ts';
import { RUN_STATES } from '../../api/types.ts';

/** Time range presets; `custom` uses `from`/`to`. */
export const RANGES = [
  { id: 'all', label: 'All time', seconds: undefined },
  { id: '1h', label: 'Last hour', seconds: 3600 },
  { id: '24h', label: 'Last 24 hours', seconds: 86_400 },
  { id: '7d', label: 'Last 7 days', seconds: 7 * 86_400 },
  { id: '30d', label: 'Last 30 days', seconds: 30 * 86_400 },
  { id: 'custom', label: 'Custom range', seconds: undefined },
] as const;

/** A range preset id. */
export type RangeId = (typeof RANGES)[number]['id'];

/** Page sizes offered (the API allows 1..1000). */
export const PAGE_SIZES = [30, 100, 500, 1000] as const;

/** The filters as the page holds them. */
export interface EventFilters {
  readonly range: RangeId;
  /** `datetime-local` value (the reader's zone), with `range: 'custom'`. */
  readonly from: string;
  readonly to: string;
  readonly states: readonly RunState[];
  readonly namespace: string;
  readonly job: string;
  readonly run: string;
  readonly integrations: string;
  readonly sortBy: 'EVENT_TIME' | 'EVENT_SIZE_IN_BYTES';
  readonly order: 'ASC' | 'DESC';
  readonly limit: number;
  readonly offset: number;
}

/** The end of time the API stores (year 10000), so "all time" includes every event. */
const END_OF_TIME = 253_402_300_800;

/** Reads the filters from the page's search parameters. */
export const filtersFromSearch = (search: URLSearchParams): EventFilters => {
  const range = RANGES.some((r) => r.id === search.get('range')) ? (search.get('range') as RangeId) : 'all';
  const states = (search.get('states') ?? '').split(',').filter((s): s is RunState => (RUN_STATES as readonly string[]).includes(s));
  const limit = Number(search.get('limit'));
  const offset = Number(search.get('offset'));
  return {
    range,
    from: search.get('from') ?? '',
    to: search.get('to') ?? '',
    states,
    namespace: search.get('namespace') ?? '',
    job: search.get('job') ?? '',
    run: search.get('run') ?? '',
    integrations: search.get('integrations') ?? '',
    sortBy: search.get('sort_by') === 'EVENT_SIZE_IN_BYTES' ? 'EVENT_SIZE_IN_BYTES' : 'EVENT_TIME',
    order: search.get('order') === 'ASC' ? 'ASC' : 'DESC',
    limit: Number.isInteger(limit) && limit > 0 ? limit : 30,
    offset: Number.isInteger(offset) && offset > 0 ? offset : 0,
  };
};

/** Writes the filters as search parameters (defaults left out, so URLs stay short). */
export const searchFromFilters = (filters: EventFilters): URLSearchParams => {
  const search = new URLSearchParams();
  if (filters.range !== 'all') search.set('range', filters.range);
  if (filters.range === 'custom') {
    if (filters.from) search.set('from', filters.from);
    if (filters.to) search.set('to', filters.to);
  }
  if (filters.states.length) search.set('states', filters.states.join(','));
  for (const name of ['namespace', 'job', 'run', 'integrations'] as const) if (filters[name].trim()) search.set(name, filters[name].trim());
  if (filters.sortBy !== 'EVENT_TIME') search.set('sort_by', filters.sortBy);
  if (filters.order !== 'DESC') search.set('order', filters.order);
  if (filters.limit !== 30) search.set('limit', String(filters.limit));
  if (filters.offset > 0) search.set('offset', String(filters.offset));
  return search;
};

const epochSeconds = (local: string, fallback: number): number => {
  const ms = new Date(local).getTime();
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : fallback;
};

/** The API parameters of the filters, relative ranges measured from `now`. */
export const toEventsParams = (filters: EventFilters, now: Date): EventsParams => {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const preset = RANGES.find((r) => r.id === filters.range);
  let start = 0;
  let end = END_OF_TIME;
  if (preset?.seconds !== undefined) {
    start = nowSeconds - preset.seconds;
    end = nowSeconds + 1;
  } else if (filters.range === 'custom') {
    start = epochSeconds(filters.from, 0);
    end = epochSeconds(filters.to, END_OF_TIME);
  }
  const params: EventsParams = {
    start,
    end,
    sort_by: filters.sortBy,
    order: filters.order,
    limit: filters.limit,
    offset: filters.offset,
  };
  if (filters.states.length) params.states = filters.states.join(',');
  if (filters.namespace.trim()) params.namespace = filters.namespace.trim();
  if (filters.job.trim()) params.job = filters.job.trim();
  if (filters.run.trim()) params.run = filters.run.trim();
  if (filters.integrations.trim()) params.integrations = filters.integrations.trim();
  return params;
};

/** Whether anything narrows the listing beyond the defaults. */
export const isFiltered = (filters: EventFilters): boolean =>
  filters.range !== 'all' || filters.states.length > 0 || [filters.namespace, filters.job, filters.run, filters.integrations].some((v) => v.trim() !== '');
