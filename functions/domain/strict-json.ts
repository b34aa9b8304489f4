/**
 * @module strict-json
 * Reading JSON text so that what is stored is exactly what was sent: `JSON.parse` alone accepts
 * numbers too large for a double (`1e999` becomes Infinity, which serializes back as `null`) and
 * `\ud800`-style escapes of lone surrogates (not Unicode; a UTF-8 store turns them into U+FFFD).
 * Both are refused here with a 400 naming where they are. Invalid UTF-8 bytes never reach this
 * module: the request reader decodes bodies strictly (`shared/request.ts`).
 */
import { ValidationError } from './errors.ts';

/** Longest path or value quoted in a message. */
const MAX_QUOTED = 64;

/**
 * Parses JSON text and checks every number is finite and every string (keys included) is
 * well-formed Unicode.
 *
 * @param text - the JSON text
 * @param field - how the document is named in messages (`body`, `body[3]`)
 * @throws {ValidationError} (400) naming the field: invalid JSON, a non-finite number, a lone surrogate
 */
export function parseStrictJson(text: string, field = 'body'): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ValidationError(`${field}: must be valid JSON (${(err as Error).message})`);
  }
  const problem = firstProblem(value, field);
  if (problem !== undefined) throw new ValidationError(problem);
  return value;
}

/**
 * The first value of a parsed document that JSON text cannot carry faithfully, as a message, or
 * undefined. Iterative: the document may nest deeper than the call stack allows.
 *
 * Nearly every document is faithful, so it is first checked without naming paths, and walked again
 * with them only to say where a problem is: building a path string for every member cost 34 µs
 * per ingested event of the ingest benchmark (490 members), the check without them 10 µs.
 */
export function firstProblem(root: unknown, field: string): string | undefined {
  return isFaithful(root) ? undefined : describeFirstProblem(root, field);
}

/** Whether every number of a parsed document is finite and every string and key well-formed Unicode. */
function isFaithful(root: unknown): boolean {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return false;
    } else if (typeof value === 'string') {
      if (!value.isWellFormed()) return false;
    } else if (Array.isArray(value)) {
      for (const item of value) pending.push(item);
    } else if (value !== null && typeof value === 'object') {
      for (const key of Object.keys(value)) {
        if (!key.isWellFormed()) return false;
        pending.push((value as Record<string, unknown>)[key]);
      }
    }
  }
  return true;
}

/** {@link firstProblem}'s message, by a walk in document order that names each value's path. */
function describeFirstProblem(root: unknown, field: string): string | undefined {
  const pending: { readonly value: unknown; readonly path: string }[] = [{ value: root, path: field }];
  while (pending.length > 0) {
    const { value, path } = pending.pop() as { value: unknown; path: string };
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return `${shorten(path)}: is a number too large to represent (it would be stored as null); send it as a string`;
    } else if (typeof value === 'string') {
      if (!value.isWellFormed()) return `${shorten(path)}: contains a lone surrogate (${loneSurrogate(value)}), which is not valid Unicode`;
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) pending.push({ value: value[i], path: `${path}[${i}]` });
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (!key.isWellFormed()) return `${shorten(path)}: has a key with a lone surrogate (${loneSurrogate(key)}), which is not valid Unicode`;
        pending.push({ value: child, path: /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key.slice(0, MAX_QUOTED))}]` });
      }
    }
  }
  return undefined;
}

/** The first lone surrogate of a string, as its `\uXXXX` escape. */
const loneSurrogate = (text: string): string => {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const high = c >= 0xd800 && c <= 0xdbff;
    const low = c >= 0xdc00 && c <= 0xdfff;
    if (high && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      i += 1;
      continue;
    }
    if (high || low) return `\\u${c.toString(16).padStart(4, '0')}`;
  }
  return '';
};

const shorten = (path: string): string => (path.length > 4 * MAX_QUOTED ? `${path.slice(0, 4 * MAX_QUOTED)}…` : path);
