/**
 * @module event-id
 * The id of a stored event: a UUID computed from the event's content, so the same event sent twice
 * (in any key order or formatting) gets the same id and is stored once.
 */
import { createHash } from 'node:crypto';

// Versions the canonical form: if it ever changes, ids change with it knowingly, never by accident.
const DOMAIN = 'lakeline/openlineage-event/v1\n';

/**
 * Deepest nesting {@link canonicalJson} serializes. Above `validateEvent`'s own limit, so it never
 * refuses an accepted event; it exists so that direct callers get a RangeError, not a stack overflow.
 */
export const MAX_CANONICAL_DEPTH = 1_000;

/**
 * Serializes a JSON value canonically: object keys sorted by UTF-16 code units, no whitespace,
 * strings and numbers as `JSON.stringify` writes them. For values parsed from JSON this is the
 * JSON Canonicalization Scheme (RFC 8785).
 *
 * Hand-written rather than `JSON.stringify` with a key-sorting replacer: objects enumerate
 * integer-like keys (`"9"`, `"10"`) first whatever their insertion order, so a replacer cannot
 * produce code-unit order.
 *
 * @throws {RangeError} for documents nested deeper than {@link MAX_CANONICAL_DEPTH}
 * @example canonicalJson({ b: [1, { d: 1, c: 'x' }], a: null }) // '{"a":null,"b":[1,{"c":"x","d":1}]}'
 */
export function canonicalJson(value: unknown): string {
  return serialize(value, 0);
}

function serialize(value: unknown, depth: number): string {
  if (value === null || typeof value !== 'object') {
    // Scalars; `undefined` (only possible in an array) becomes null, as in JSON.stringify.
    return JSON.stringify(value) ?? 'null';
  }
  if (depth >= MAX_CANONICAL_DEPTH) throw new RangeError(`document nests deeper than ${MAX_CANONICAL_DEPTH} levels`);
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      out += serialize(value[i], depth + 1);
    }
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  let out = '{';
  let first = true;
  for (const key of Object.keys(record).sort()) {
    const member = record[key];
    // JSON.stringify drops undefined members; JSON.parse never produces them anyway.
    if (member === undefined) continue;
    if (!first) out += ',';
    first = false;
    out += `${JSON.stringify(key)}:${serialize(member, depth + 1)}`;
  }
  return `${out}}`;
}

/**
 * The event's id: a version-8 UUID (RFC 9562 §5.8) made of the first 128 bits of the SHA-256 of
 * the canonical form, with the version and variant bits set. Version 8 rather than 5 because
 * version 5 means SHA-1 by definition; RFC 9562 appendix B.2 shows this exact SHA-256 use.
 *
 * @param event - the event as parsed
 * @example eventId({ a: 1, b: 2 }) === eventId({ b: 2, a: 1 }) // true
 */
export function eventId(event: unknown): string {
  const digest = createHash('sha256').update(DOMAIN).update(canonicalJson(event), 'utf8').digest();
  const bytes = digest.subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x80;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
