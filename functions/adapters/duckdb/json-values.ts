/**
 * @module duckdb/json-values
 * DuckDB values as JSON. The rule for numbers is one rule: a value is a JSON number when a double
 * carries it exactly as DuckDB printed it, and a string of its exact digits otherwise. So integers
 * beyond ±(2^53 − 1) (BIGINT, HUGEINT, UBIGINT, ...) and decimals with more than 15 significant
 * digits are strings, everything else is a number; a column may mix the two, and no value is ever
 * silently rounded. Temporal values are ISO 8601 text, BLOBs base64, nested values JSON arrays and
 * objects, NaN and infinities strings (JSON has no literal for them).
 */
import type {
  DuckDBBlobValue,
  DuckDBDecimalValue,
  DuckDBIntervalValue,
  DuckDBMapType,
  DuckDBMapValue,
  DuckDBType,
  DuckDBTypeId,
  DuckDBUnionType,
  DuckDBUnionValue,
  DuckDBValue,
  DuckDBValueConverter,
} from '@duckdb/node-api';
import { loadDuckDB, type DuckDBModule } from './driver.ts';

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
/** Decimals of up to 15 significant digits survive a trip through a double (DBL_DIG). */
const MAX_EXACT_DECIMAL_UNSCALED = 10n ** 15n;

const integer = (value: DuckDBValue): Json => {
  if (typeof value === 'number') return value;
  const big = BigInt(value as bigint);
  return big <= MAX_SAFE && big >= -MAX_SAFE ? Number(big) : big.toString();
};

const decimal = (value: DuckDBValue): Json => {
  const d = value as DuckDBDecimalValue;
  const magnitude = d.value < 0n ? -d.value : d.value;
  // Both operands are exact doubles and IEEE division rounds correctly, so the result is the
  // double nearest the decimal, which prints back as the same digits.
  if (magnitude < MAX_EXACT_DECIMAL_UNSCALED) return Number(d.value) / 10 ** d.scale;
  return d.toString();
};

const float = (value: DuckDBValue): Json => {
  const n = value as number;
  if (!Number.isFinite(n)) return String(n);
  // A FLOAT arrives widened to double (0.1f is 0.10000000149011612); print the shortest decimal
  // that reads back as the same float instead.
  for (let digits = 1; digits <= 9; digits++) {
    const candidate = Number(n.toPrecision(digits));
    if (Math.fround(candidate) === n) return candidate;
  }
  return n;
};

const double = (value: DuckDBValue): Json => (Number.isFinite(value as number) ? (value as number) : String(value));

const text = (value: DuckDBValue): Json => String(value);

/** DuckDB prints `2024-03-01 12:00:00.5`; ISO 8601 puts a `T` between date and time. */
const timestamp = (value: DuckDBValue): Json => String(value).replace(/^(-?\d{4,}-\d{2}-\d{2}) /, '$1T');

/** TIMESTAMPTZ prints in UTC as `… +00`; ISO 8601 (RFC 3339) says `Z`. */
const timestampTz = (value: DuckDBValue): Json => {
  const iso = timestamp(value) as string;
  return iso.replace(/\+00(?::00)?$/, 'Z');
};

/** INTERVAL as an ISO 8601 duration: months, days and time kept apart, as DuckDB keeps them. */
export const isoDuration = (iv: Pick<DuckDBIntervalValue, 'months' | 'days' | 'micros'>): string => {
  const years = Math.trunc(iv.months / 12);
  const months = iv.months % 12;
  let micros = iv.micros;
  const sign = micros < 0n ? '-' : '';
  if (micros < 0n) micros = -micros;
  const hours = micros / 3_600_000_000n;
  const minutes = (micros / 60_000_000n) % 60n;
  const seconds = (micros / 1_000_000n) % 60n;
  const fraction = micros % 1_000_000n;
  const date = `${years ? `${years}Y` : ''}${months ? `${months}M` : ''}${iv.days ? `${iv.days}D` : ''}`;
  const secondsText = fraction ? `${seconds}.${fraction.toString().padStart(6, '0').replace(/0+$/, '')}` : `${seconds}`;
  const time = micros ? `${hours ? `${sign}${hours}H` : ''}${minutes ? `${sign}${minutes}M` : ''}${seconds || fraction ? `${sign}${secondsText}S` : ''}` : '';
  if (!date && !time) return 'PT0S';
  return `P${date}${time ? `T${time}` : ''}`;
};

const blob = (value: DuckDBValue): Json => Buffer.from((value as DuckDBBlobValue).bytes).toString('base64');

/** A MAP is a JSON object keyed by its keys' text (DuckDB's own `to_json` does the same). */
const map = (value: DuckDBValue, type: DuckDBType, convert: DuckDBValueConverter<Json>): Json => {
  const t = type as DuckDBMapType;
  const out: Record<string, Json> = {};
  for (const { key, value: v } of (value as DuckDBMapValue).entries) {
    const k = key === null ? 'null' : convert(key, t.keyType, convert);
    out[typeof k === 'string' ? k : JSON.stringify(k)] = v === null ? null : convert(v, t.valueType, convert);
  }
  return out;
};

/** A UNION is its active member's value (the member's name is in the column type). */
const union = (value: DuckDBValue, type: DuckDBType, convert: DuckDBValueConverter<Json>): Json => {
  const u = value as DuckDBUnionValue;
  return u.value === null ? null : convert(u.value, (type as DuckDBUnionType).memberTypeForTag(u.tag), convert);
};

const unsupported = (_value: DuckDBValue, type: DuckDBType): Json => {
  throw new Error(`values of type ${String(type)} cannot be returned as JSON`);
};

/** The converter of every type id (the module's enum and helpers come from the loaded driver). */
const buildConverter = (duck: DuckDBModule): DuckDBValueConverter<Json> => {
  const T = duck.DuckDBTypeId;
  const converters: Record<DuckDBTypeId, DuckDBValueConverter<Json> | undefined> = {
    [T.INVALID]: unsupported,
    [T.BOOLEAN]: (v) => Boolean(v),
    [T.TINYINT]: integer,
    [T.SMALLINT]: integer,
    [T.INTEGER]: integer,
    [T.BIGINT]: integer,
    [T.UTINYINT]: integer,
    [T.USMALLINT]: integer,
    [T.UINTEGER]: integer,
    [T.UBIGINT]: integer,
    [T.HUGEINT]: integer,
    [T.UHUGEINT]: integer,
    [T.BIGNUM]: (v) => integer(BigInt(String(v))),
    [T.FLOAT]: float,
    [T.DOUBLE]: double,
    [T.DECIMAL]: decimal,
    [T.VARCHAR]: text,
    [T.ENUM]: text,
    [T.UUID]: text,
    [T.BIT]: text,
    [T.BLOB]: blob,
    [T.DATE]: text,
    [T.TIME]: text,
    [T.TIME_NS]: text,
    [T.TIME_TZ]: text,
    [T.TIMESTAMP]: timestamp,
    [T.TIMESTAMP_S]: timestamp,
    [T.TIMESTAMP_MS]: timestamp,
    [T.TIMESTAMP_NS]: timestamp,
    [T.TIMESTAMP_TZ]: timestampTz,
    [T.INTERVAL]: (v) => isoDuration(v as DuckDBIntervalValue),
    [T.LIST]: (v, t, c) => duck.arrayFromListValue(v, t, c),
    [T.ARRAY]: (v, t, c) => duck.arrayFromArrayValue(v, t, c),
    [T.STRUCT]: (v, t, c) => duck.objectFromStructValue(v, t, c),
    [T.MAP]: map,
    [T.UNION]: union,
    [T.GEOMETRY]: text,
    [T.VARIANT]: text,
    [T.SQLNULL]: () => null,
    [T.ANY]: unsupported,
    [T.STRING_LITERAL]: text,
    [T.INTEGER_LITERAL]: integer,
  };
  return duck.createDuckDBValueConverter(converters);
};

let converter: Promise<DuckDBValueConverter<Json>> | undefined;

/** The converter of DuckDB values (nested values included) to JSON, built once. */
export const jsonConverter = (): Promise<DuckDBValueConverter<Json>> => (converter ??= loadDuckDB().then(buildConverter));
