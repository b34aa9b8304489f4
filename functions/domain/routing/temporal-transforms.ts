/**
 * @module routing/temporal-transforms
 * Iceberg's `year`, `month`, `day` and `hour` partition transforms (Iceberg spec, "Partition
 * Transforms") applied to a filter's literals, so the router can tell which partitions a time
 * filter can match. Values are the transforms' ordinals: years, months, days or hours since
 * 1970-01-01T00:00 UTC. Every function answers `undefined` for what it does not understand, and
 * callers keep the file then: the estimate may only err upwards.
 */

/** The temporal partition transforms. */
export type TemporalTransform = 'year' | 'month' | 'day' | 'hour';

const TEMPORAL: ReadonlySet<string> = new Set<TemporalTransform>(['year', 'month', 'day', 'hour']);

/** Whether a partition spec's transform name is a temporal transform. */
export const isTemporalTransform = (transform: string): transform is TemporalTransform => TEMPORAL.has(transform);

/** Whether an Iceberg column type holds instants or local date-times (not plain dates). */
export const isTimestampType = (columnType: string): boolean => columnType.startsWith('timestamp');

const MS_PER_HOUR = 3_600_000;
const MS_PER_DAY = 24 * MS_PER_HOUR;

/**
 * How far a zone-less literal compared with a `timestamptz` column can be from UTC: the engine
 * reads it in the session's time zone, which lakeline does not pin, and zones run from UTC−12 to
 * UTC+14. Widening by 14 hours each way covers every zone.
 */
const SESSION_ZONE_SLACK_MS = 14 * MS_PER_HOUR;

/** `YYYY-MM-DD`, optionally a time (`T` or space) and a zone (`Z`, `±HH`, `±HH:MM`, `±HHMM`). */
const LITERAL = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** Offset of a zone suffix in ms (east positive), or undefined when malformed. */
const zoneOffsetMs = (zone: string): number | undefined => {
  if (zone.toUpperCase() === 'Z') return 0;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (hours > 14 || minutes > 59) return undefined;
  return (zone.startsWith('-') ? -1 : 1) * (hours * MS_PER_HOUR + minutes * 60_000);
};

/**
 * The instants (epoch ms, both ends inclusive) a literal can denote when compared with a column of
 * the given Iceberg type, or undefined when lakeline does not know how the engine would read it.
 *
 * - `date` columns: a date literal, read as that day's midnight.
 * - `timestamp` (local date-time) columns: a literal without a zone, read as it is written.
 * - `timestamptz` columns: a literal with a zone is one instant; without one it is read in the
 *   session's time zone, so every instant that local time can be in any zone.
 */
export const literalInstants = (literal: string, columnType: string): [number, number] | undefined => {
  const m = LITERAL.exec(literal.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, zone] = m;
  const local = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h ?? 0), Number(mi ?? 0), Number(s ?? 0));
  const back = new Date(local);
  // Date.UTC rolls 2024-02-31 over to March: a literal that does not round-trip is not a date.
  if (back.getUTCFullYear() !== Number(y) || back.getUTCMonth() !== Number(mo) - 1 || back.getUTCDate() !== Number(d)) return undefined;
  if (Number(h ?? 0) > 23 || Number(mi ?? 0) > 59 || Number(s ?? 0) > 59) return undefined;
  if (columnType === 'date') return h === undefined && zone === undefined ? [local, local] : undefined;
  if (columnType === 'timestamp' || columnType === 'timestamp_ns') return zone === undefined ? [local, local] : undefined;
  if (columnType === 'timestamptz' || columnType === 'timestamptz_ns') {
    if (zone === undefined) return [local - SESSION_ZONE_SLACK_MS, local + SESSION_ZONE_SLACK_MS];
    const offset = zoneOffsetMs(zone);
    return offset === undefined ? undefined : [local - offset, local - offset];
  }
  return undefined;
};

/** The transform's ordinal of an instant (epoch ms). */
export const ordinalOf = (epochMs: number, transform: TemporalTransform): number => {
  switch (transform) {
    case 'hour':
      return Math.floor(epochMs / MS_PER_HOUR);
    case 'day':
      return Math.floor(epochMs / MS_PER_DAY);
    case 'month': {
      const date = new Date(epochMs);
      return (date.getUTCFullYear() - 1970) * 12 + date.getUTCMonth();
    }
    case 'year':
      return new Date(epochMs).getUTCFullYear() - 1970;
  }
};

/**
 * A file's partition value as an ordinal: the manifests store ints (years, months, hours since
 * the epoch); a `day` value is an Avro date, which the manifest reader hands over as ISO text.
 */
export const partitionOrdinal = (value: unknown, transform: TemporalTransform): number | undefined => {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (transform === 'day' && typeof value === 'string') {
    const instants = literalInstants(value, 'date');
    return instants === undefined ? undefined : ordinalOf(instants[0], 'day');
  }
  return undefined;
};
