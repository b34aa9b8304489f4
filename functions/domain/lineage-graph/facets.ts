/**
 * @module lineage-graph/facets
 * Facets as last-writer-wins registers. Each facet name holds one entry stamped with a key that
 * orders writes totally; merging two maps keeps, per name, the entry with the greater key, and an
 * entry whose value has `_deleted: true` is a tombstone that hides the facet. Merging is
 * commutative, associative and idempotent, so events applied in any order, twice or replayed
 * leave the same map.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../lineage/event-id.ts';

/** One facet register: the winning write's key and value, or a tombstone. */
export interface FacetEntry {
  /** Orders writes: the greater key wins. See {@link eventKey} and {@link hourlyKey}. */
  readonly k: string;
  /** The facet as sent (absent for a tombstone). */
  readonly v?: unknown;
  /** A `_deleted: true` facet: the name is removed until a later write sets it again. */
  readonly d?: true;
}

/** Facet registers by facet name. */
export type FacetMap = Readonly<Record<string, FacetEntry>>;

/**
 * The key of a write made by an event: its time then its id. Times are fixed-width UTC strings
 * (`YYYY-MM-DDTHH:MM:SS.ffffff+00:00`) and ids fixed-width UUIDs, so string order is (time, id)
 * order. The `1` tier puts these writes above {@link hourlyKey} writes.
 */
export const eventKey = (eventTime: string, eventId: string): string => `1${eventTime}${eventId}`;

/**
 * The key of a write that only observed a dataset (an input): the hour of the event, then a hash
 * of the value. Observations rank below writes (tier `0`), and within an hour equal values have
 * equal keys, so a dataset read by thousands of runs is rewritten at most about once an hour
 * instead of once per event, still order-independently.
 */
export const hourlyKey = (eventTime: string, value: unknown): string =>
  `0${floorToHour(eventTime)}${createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, 32)}`;

/** A fixed-width UTC time truncated to its hour. */
export const floorToHour = (time: string): string => `${time.slice(0, 13)}:00:00.000000+00:00`;

/** The entry with the greater key; on equal keys the one with the greater value text, so the choice never depends on order. */
export const laterEntry = (a: FacetEntry | undefined, b: FacetEntry | undefined): FacetEntry | undefined => {
  if (a === undefined) return b;
  if (b === undefined) return a;
  if (a.k !== b.k) return a.k > b.k ? a : b;
  return entryText(a) >= entryText(b) ? a : b;
};

const entryText = (e: FacetEntry): string => (e.d ? '' : canonicalJson(e.v ?? null));

/** Joins two facet maps name by name. */
export const mergeFacetMaps = (a: FacetMap, b: FacetMap): FacetMap => {
  if (a === b) return a;
  const out: Record<string, FacetEntry> = { ...a };
  for (const [name, entry] of Object.entries(b)) out[name] = laterEntry(out[name], entry) as FacetEntry;
  return out;
};

/** The registers one event writes: every facet of an object (`run.facets`, `job.facets`, …) under one key. */
export const facetWrites = (facets: unknown, key: (value: unknown) => string): FacetMap => {
  if (facets === null || typeof facets !== 'object' || Array.isArray(facets)) return {};
  const out: Record<string, FacetEntry> = {};
  for (const [name, value] of Object.entries(facets as Record<string, unknown>)) {
    if (value === undefined) continue;
    const deleted = value !== null && typeof value === 'object' && (value as Record<string, unknown>)._deleted === true;
    out[name] = deleted ? { k: key(value), d: true } : { k: key(value), v: value };
  }
  return out;
};

/** The facets a map holds now (tombstones dropped), by name in code-unit order. */
export const liveFacets = (map: FacetMap): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(map).sort()) {
    const entry = map[name] as FacetEntry;
    if (!entry.d) out[name] = entry.v;
  }
  return out;
};

/** One live facet's value, or undefined. */
export const liveFacet = (map: FacetMap, name: string): unknown => {
  const entry = map[name];
  return entry === undefined || entry.d ? undefined : entry.v;
};
