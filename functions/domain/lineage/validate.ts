/**
 * @module validate
 * Decides whether an incoming document is an OpenLineage event the service accepts, and which of
 * the core schema's three definitions it is. Verdicts equal ajv's over the official schema except
 * for the relaxations listed in `schema.ts`, the nesting limit below, and facet slips: a facet that
 * breaks the facet schema (see {@link isInsideFacet}) is kept as sent with a warning, while the
 * event-level rules (runId, eventTime, job, dataset names, producer, schemaURL) stay strict.
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import { describeProblems, joinProblems, ROOT_FIELD } from './error-messages.ts';
import { KIND_VALIDATORS } from './schema.ts';
import type { EventKind } from './types.ts';

/** The verdict on one document. */
export type ValidationResult =
  | { readonly ok: true; readonly kind: EventKind; readonly warnings: readonly string[] }
  | { readonly ok: false; readonly error: string; readonly field: string };

/** At most this many facet warnings are kept per event; the rest are counted in the last one. */
export const MAX_WARNINGS = 20;

/**
 * Where a facet sits in an event, as a JSON pointer: `/run/facets/<name>`, `/job/facets/<name>`,
 * `/dataset/facets/<name>` (DatasetEvent), and `/inputs|outputs/<i>/facets|inputFacets|outputFacets/<name>`.
 */
// A facet's name may be empty (`""`): it is a key like any other.
const FACET_POINTER = /^\/(?:(?:run|job|dataset)\/facets|(?:inputs|outputs)\/\d+\/(?:facets|inputFacets|outputFacets))\/[^/]*(?:\/|$)/;

/**
 * Whether a schema error lies inside one facet (the facet object itself or anything in it). Real
 * producers break the facet schema in these ways, all tolerated: a facet without `_producer` or
 * `_schemaURL` (the Spark integration's `debug` run facet), `_producer`/`_schemaURL` that are not
 * absolute URIs (custom facets with relative schema paths), `_deleted` that is not a boolean, a
 * facet that is `null` or not an object. The event keeps the facet exactly as sent.
 */
export const isInsideFacet = (error: ErrorObject): boolean => FACET_POINTER.test(error.instancePath) && !isFacetIdentityTypeError(error);

/** `_producer` or `_schemaURL` of a facet, right under its name. */
const FACET_IDENTITY_POINTER = new RegExp(`${FACET_POINTER.source.slice(0, -'(?:\\/|$)'.length)}/(?:_producer|_schemaURL)$`);

/**
 * A facet's `_producer` or `_schemaURL` that is there but is no string (a number, an object): no
 * producer's slip, and no URI of any kind, so it is refused like an event-level error. The OpenAPI
 * document says the same (`schemas/openlineage-openapi.ts`): when present, they are strings.
 */
const isFacetIdentityTypeError = (error: ErrorObject): boolean => error.keyword === 'type' && FACET_IDENTITY_POINTER.test(error.instancePath);

/**
 * Deepest nesting of objects and arrays accepted. The schema itself sets none, but storing and
 * serializing the raw event recurses (V8's `JSON.stringify` overflows its stack near 5,000 levels),
 * so deeper documents are refused here with a 400 instead of failing later with a 500. Real events
 * stay far below: the deepest example, Marquez's 220 KB event, nests 16 levels.
 */
export const MAX_NESTING_DEPTH = 500;

/**
 * Validates a parsed JSON document as an OpenLineage event.
 *
 * The core schema is `oneOf` RunEvent / DatasetEvent / JobEvent, and which branch can match follows
 * from which of `run`, `job` and `dataset` are present (RunEvent needs run and job; JobEvent needs
 * job and forbids run; DatasetEvent needs dataset and forbids run together with job). So the branch
 * is picked from those keys first and validated alone: the verdict is the `oneOf` verdict, and the
 * errors are that branch's, not the noise of the branches the event was never meant to be.
 *
 * @param event - the parsed request body
 * @returns `{ ok: true, kind }`, or `{ ok: false, error, field }` where `error` reads
 *   `run.runId: must be a UUID` (several problems are joined with `; `)
 * @example validateEvent({ eventTime: 'x' }).ok // false
 */
export function validateEvent(event: unknown): ValidationResult {
  if (event === null || typeof event !== 'object' || Array.isArray(event)) {
    return invalid(ROOT_FIELD, `${ROOT_FIELD}: must be a JSON object${Array.isArray(event) ? ', not an array' : ''}`);
  }
  if (nestsDeeperThan(event, MAX_NESTING_DEPTH)) {
    return invalid(ROOT_FIELD, `${ROOT_FIELD}: must not nest objects and arrays more than ${MAX_NESTING_DEPTH} levels deep`);
  }
  const fields = event as Record<string, unknown>;
  // `!== undefined` is how ajv's `required` decides presence.
  const hasRun = fields.run !== undefined;
  const hasJob = fields.job !== undefined;
  const hasDataset = fields.dataset !== undefined;

  if (hasJob && !hasRun && hasDataset) return jobOrDatasetEvent(event);
  if (hasJob) return check(event, hasRun ? 'RunEvent' : 'JobEvent');
  if (hasDataset) return check(event, 'DatasetEvent');
  // Neither job nor dataset: no branch can match. Report against RunEvent, by far the most common
  // intent, which names the missing `job` (and `run`).
  return check(event, 'RunEvent');
}

/**
 * `job` and `dataset` without `run` fit both JobEvent and DatasetEvent; `oneOf` accepts the event
 * only when exactly one of them matches.
 */
function jobOrDatasetEvent(event: object): ValidationResult {
  const asJob = check(event, 'JobEvent');
  const asDataset = check(event, 'DatasetEvent');
  if (asJob.ok && asDataset.ok) {
    return invalid(
      'dataset',
      'dataset: must not be sent together with job unless run is present (the event is both a JobEvent and a DatasetEvent)',
    );
  }
  if (asDataset.ok) return asDataset;
  return asJob;
}

function check(event: object, kind: EventKind): ValidationResult {
  const validator = KIND_VALIDATORS[kind];
  if (validator(event)) return { ok: true, kind, warnings: [] };
  const errors = validator.errors ?? [];
  // Composite keywords (anyOf over a facets map) only say that something below failed.
  const concrete = errors.filter((e) => !COMPOSITE_KEYWORDS.has(e.keyword));
  if (concrete.length > 0 && concrete.every(isInsideFacet)) {
    return { ok: true, kind, warnings: facetWarnings(describeProblems(concrete, event).map((p) => p.message)) };
  }
  const problems = describeProblems(
    concrete.filter((e) => !isInsideFacet(e)),
    event,
  );
  const first = problems[0];
  if (first === undefined) return invalid(ROOT_FIELD, `${ROOT_FIELD}: is not a valid ${kind}`);
  return invalid(first.field, joinProblems(problems));
}

const COMPOSITE_KEYWORDS = new Set(['anyOf', 'oneOf', 'allOf', 'not', 'if', 'then', 'else']);

/** The warnings of an accepted event, each `<facet path>: <problem> (kept as sent)`, at most {@link MAX_WARNINGS}. */
function facetWarnings(messages: readonly string[]): string[] {
  const shown = messages.slice(0, MAX_WARNINGS).map((m) => `${m} (facet kept as sent)`);
  const hidden = messages.length - shown.length;
  return hidden > 0 ? [...shown, `and ${hidden} more facet problems`] : shown;
}

function invalid(field: string, error: string): ValidationResult {
  return { ok: false, error, field };
}

/** Iterative, so the check itself cannot overflow the stack it protects. */
function nestsDeeperThan(root: object, limit: number): boolean {
  const pending: unknown[] = [root];
  const depths: number[] = [1];
  while (pending.length > 0) {
    const node = pending.pop();
    const depth = depths.pop() ?? 0;
    if (depth > limit) return true;
    const children = Array.isArray(node) ? node : Object.values(node as object);
    for (const child of children) {
      if (child !== null && typeof child === 'object') {
        pending.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}
