/**
 * @module event-time
 * Parses OpenLineage `eventTime` strings into exact microsecond instants and formats them back as
 * fixed-width UTC strings. Integer arithmetic throughout: `Date` keeps only milliseconds and maps
 * years 0–99 to 1900–1999, and neither is acceptable for a value that orders stored events.
 */
import { InvalidEventError } from './errors.ts';

/** Smallest instant the service stores: 1970-01-01T00:00:00Z. */
export const MIN_EPOCH_MICROS = 0n;
/** Largest instant the service stores: 9999-12-31T23:59:59.999999Z. */
export const MAX_EPOCH_MICROS = 253_402_300_799_999_999n;

/** Width of {@link sortableTime}'s output: the number of digits of {@link MAX_EPOCH_MICROS}. */
export const SORTABLE_TIME_WIDTH = 18;

/** An event time, read exactly. */
export interface EventTime {
  /** Microseconds since 1970-01-01T00:00:00Z. Digits past the sixth fractional one are dropped. */
  readonly epochMicros: bigint;
  /** The instant in UTC, always in the form `YYYY-MM-DDTHH:MM:SS.ffffff+00:00`. */
  readonly iso: string;
}

/** Reason given for text that is not a date-time at all. */
export const NOT_A_DATE_TIME = 'must be a date-time';
/** Reason given for a well-formed date-time outside the stored range. */
export const OUT_OF_RANGE =
  'must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999999Z';

// The grammar ajv-formats' `date-time` accepts (RFC 3339 with `T`, `t` or whitespace between date
// and time, any number of fractional digits, `Z`, `±hh`, `±hhmm` or `±hh:mm`), except that the
// zone is optional here: OpenLineage's Python client emits zone-less times, which we read as UTC.
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt\s](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;
const SECONDS_PER_DAY = 86_400;
const MINUTES_PER_DAY = 1_440;

/**
 * Why `text` is not an acceptable event time, or `null` when it is.
 *
 * @param text - the `eventTime` value as sent
 * @returns a reason without the field name (`must be a date-time`), or `null`
 */
export function eventTimeProblem(text: string): string | null {
  const result = read(text);
  return typeof result === 'string' ? result : null;
}

/**
 * Parses an OpenLineage event time: an ISO-8601 date-time with 0 or more fractional digits and a
 * `Z`/`±hh:mm` offset or no zone at all (read as UTC).
 *
 * @param text - the value as sent
 * @param field - the field path used in the error message
 * @throws {InvalidEventError} when the text is malformed or outside 1970-01-01..9999-12-31 (UTC)
 * @example parseEventTime('2021-11-03T12:53:52.427343123+02:00')
 * // { epochMicros: 1635936832427343n, iso: '2021-11-03T10:53:52.427343+00:00' }
 */
export function parseEventTime(text: string, field = 'eventTime'): EventTime {
  const result = read(text);
  if (typeof result === 'string') throw new InvalidEventError(field, `${field}: ${result}`);
  return { epochMicros: result, iso: formatUtcMicros(result) };
}

/**
 * Formats an instant as `YYYY-MM-DDTHH:MM:SS.ffffff+00:00` (fixed width, so it also sorts).
 *
 * @throws {RangeError} outside {@link MIN_EPOCH_MICROS}..{@link MAX_EPOCH_MICROS}
 */
export function formatUtcMicros(epochMicros: bigint): string {
  assertInRange(epochMicros);
  // Both parts fit a double exactly: seconds stay below 2^38.
  const seconds = Number(epochMicros / 1_000_000n);
  const micros = Number(epochMicros % 1_000_000n);
  const days = Math.floor(seconds / SECONDS_PER_DAY);
  const secondOfDay = seconds - days * SECONDS_PER_DAY;
  const { year, month, day } = civilFromDays(days);
  const hh = Math.floor(secondOfDay / 3_600);
  const mm = Math.floor((secondOfDay % 3_600) / 60);
  const ss = secondOfDay % 60;
  return (
    `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}` +
    `T${pad(hh, 2)}:${pad(mm, 2)}:${pad(ss, 2)}.${pad(micros, 6)}+00:00`
  );
}

/**
 * A fixed-width string whose lexicographic order is the order of the instants: the microsecond
 * count, zero-padded to {@link SORTABLE_TIME_WIDTH} digits. Suited to DynamoDB string sort keys.
 *
 * @throws {RangeError} outside {@link MIN_EPOCH_MICROS}..{@link MAX_EPOCH_MICROS}
 * @example sortableTime(1635936832427343n) // '001635936832427343'
 */
export function sortableTime(epochMicros: bigint): string {
  assertInRange(epochMicros);
  return epochMicros.toString().padStart(SORTABLE_TIME_WIDTH, '0');
}

/**
 * Microseconds since the epoch of a `Date` (which carries milliseconds).
 *
 * @throws {RangeError} for an invalid date
 */
export function epochMicrosOfDate(date: Date): bigint {
  const millis = date.getTime();
  if (!Number.isFinite(millis)) throw new RangeError('invalid Date');
  return BigInt(millis) * 1_000n;
}

/** Parses `text` to epoch microseconds, or returns the reason it cannot. */
function read(text: string): bigint | string {
  const m = DATE_TIME.exec(text);
  if (m === null) return NOT_A_DATE_TIME;
  const [, y, mo, d, h, mi, s, fraction, zulu, sign, offH, offM] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return NOT_A_DATE_TIME;
  if (hour > 23 || minute > 59 || second > 60) return NOT_A_DATE_TIME;

  let offsetMinutes = 0;
  if (zulu === undefined && sign !== undefined) {
    const oh = Number(offH);
    const om = Number(offM ?? '0');
    if (oh > 23 || om > 59) return NOT_A_DATE_TIME;
    offsetMinutes = (sign === '-' ? -1 : 1) * (oh * 60 + om);
  }
  // A leap second is only real at 23:59:60 UTC (the rule ajv-formats applies as well). It is
  // stored as the first instant of the next minute, the way POSIX clocks repeat it.
  if (second === 60) {
    const utcMinuteOfDay = mod(hour * 60 + minute - offsetMinutes, MINUTES_PER_DAY);
    if (utcMinuteOfDay !== MINUTES_PER_DAY - 1) return NOT_A_DATE_TIME;
  }

  const seconds =
    daysFromCivil(year, month, day) * SECONDS_PER_DAY + hour * 3_600 + minute * 60 + second - offsetMinutes * 60;
  // Keep microseconds; nanosecond digits (Java and Go producers send them) are truncated, not
  // rounded, so a time never moves into the next microsecond, second or day.
  const micros = fraction === undefined ? 0 : Number(fraction.slice(0, 6).padEnd(6, '0'));
  const epochMicros = BigInt(seconds) * 1_000_000n + BigInt(micros);
  if (epochMicros < MIN_EPOCH_MICROS || epochMicros > MAX_EPOCH_MICROS) return OUT_OF_RANGE;
  return epochMicros;
}

function assertInRange(epochMicros: bigint): void {
  if (epochMicros < MIN_EPOCH_MICROS || epochMicros > MAX_EPOCH_MICROS) {
    throw new RangeError(`epoch microseconds ${epochMicros} outside 1970-01-01..9999-12-31`);
  }
}

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2 && isLeapYear(year)) return 29;
  return DAYS_IN_MONTH[month - 1] ?? 0;
}

/** Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's `days_from_civil`). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** The inverse of {@link daysFromCivil}. */
function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1_460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

function mod(n: number, m: number): number {
  return ((n % m) + m) % m;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}
