/**
 * @module error-messages
 * Rewrites ajv's errors into the messages the API returns: the offending field as a dotted path,
 * then a reason a person can act on (`run.runId: must be a UUID`, `job.name: is required`).
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import { eventTimeProblem, NOT_A_DATE_TIME } from './event-time.ts';
import { EVENT_TIME_FORMAT } from './schema.ts';

/** How the document itself is named in messages. */
export const ROOT_FIELD = 'event';

/** At most this many problems are spelled out; the rest are counted. */
export const MAX_REPORTED_PROBLEMS = 5;

/** One problem: the field path and the full `path: reason` text. */
export interface FieldProblem {
  readonly field: string;
  readonly message: string;
}

// Keywords that only say "a sub-schema failed"; the sub-schema's own errors are more specific.
const COMPOSITE_KEYWORDS = new Set(['anyOf', 'oneOf', 'allOf', 'not', 'if', 'then', 'else']);

const FORMAT_REASONS: Readonly<Record<string, string>> = {
  uuid: 'must be a UUID',
  uri: 'must be a URI',
  [EVENT_TIME_FORMAT]: NOT_A_DATE_TIME,
};

const TYPE_NAMES: Readonly<Record<string, string>> = {
  object: 'an object',
  array: 'an array',
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
  null: 'null',
};

const MAX_KEY_LENGTH = 64;

/**
 * The distinct problems in `errors`, in ajv's order (the schema's order: eventTime, producer,
 * schemaURL, then run, job, datasets). Composite keywords (`anyOf`, `oneOf`, ...) only say that a
 * sub-schema failed, so they are dropped whenever a concrete error explains them.
 *
 * @param errors - ajv's errors for `data`
 * @param data - the validated document (used to tell array indexes from object keys)
 */
export function describeProblems(errors: readonly ErrorObject[], data: unknown): FieldProblem[] {
  const concrete = errors.filter((e) => !COMPOSITE_KEYWORDS.has(e.keyword));
  const chosen = concrete.length > 0 ? concrete : errors;
  const seen = new Set<string>();
  const problems: FieldProblem[] = [];
  for (const error of chosen) {
    const problem = describe(error, data);
    if (seen.has(problem.message)) continue;
    seen.add(problem.message);
    problems.push(problem);
  }
  return problems;
}

/**
 * Joins problems into one message: `a: reason; b: reason (and 3 more)`.
 */
export function joinProblems(problems: readonly FieldProblem[]): string {
  const shown = problems.slice(0, MAX_REPORTED_PROBLEMS).map((p) => p.message);
  const hidden = problems.length - shown.length;
  return hidden > 0 ? `${shown.join('; ')} (and ${hidden} more)` : shown.join('; ');
}

function describe(error: ErrorObject, data: unknown): FieldProblem {
  const params: Readonly<Record<string, unknown>> = error.params;
  const segments = pointerSegments(error.instancePath);
  if (error.keyword === 'required' && typeof params.missingProperty === 'string') {
    segments.push(params.missingProperty);
  }
  const field = fieldPath(segments, data);
  return { field, message: `${field}: ${reason(error, params, data, segments)}` };
}

function reason(error: ErrorObject, params: Readonly<Record<string, unknown>>, data: unknown, segments: string[]): string {
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'type': {
      const types = Array.isArray(params.type) ? params.type : [params.type];
      return `must be ${types.map((t) => TYPE_NAMES[String(t)] ?? String(t)).join(' or ')}`;
    }
    case 'format': {
      const format = String(params.format);
      if (format === EVENT_TIME_FORMAT) {
        // The format check only says yes or no; ask the parser why (malformed or out of range).
        const value = valueAt(data, segments);
        return (typeof value === 'string' ? eventTimeProblem(value) : null) ?? NOT_A_DATE_TIME;
      }
      return FORMAT_REASONS[format] ?? `must be a ${format}`;
    }
    case 'enum':
      return `must be one of ${(Array.isArray(params.allowedValues) ? params.allowedValues : []).map(String).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    default:
      return error.message ?? 'is invalid';
  }
}

/** Splits a JSON pointer (`/run/facets/a~1b`) into unescaped segments. */
function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * Renders segments as `inputs[0].facets["spark.logicalPlan"]._producer`: indexes of arrays in
 * brackets, identifier-like keys after a dot, any other key quoted (and shortened, since keys come
 * from the caller and may be huge).
 */
export function fieldPath(segments: readonly string[], data: unknown): string {
  let path = '';
  let node: unknown = data;
  for (const segment of segments) {
    if (Array.isArray(node)) {
      path += `[${segment}]`;
    } else if (/^[A-Za-z_$][\w$]*$/.test(segment) && segment.length <= MAX_KEY_LENGTH) {
      path += path === '' ? segment : `.${segment}`;
    } else {
      const shown = segment.length > MAX_KEY_LENGTH ? `${segment.slice(0, MAX_KEY_LENGTH)}…` : segment;
      path += `[${JSON.stringify(shown)}]`;
    }
    node = step(node, segment);
  }
  return path === '' ? ROOT_FIELD : path;
}

function valueAt(data: unknown, segments: readonly string[]): unknown {
  return segments.reduce<unknown>(step, data);
}

function step(node: unknown, segment: string): unknown {
  if (node === null || typeof node !== 'object') return undefined;
  // Own properties only: a key such as `__proto__` must not walk into the prototype.
  return Object.hasOwn(node, segment) ? (node as Record<string, unknown>)[segment] : undefined;
}
