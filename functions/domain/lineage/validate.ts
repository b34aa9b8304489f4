/**
 * @module validate
 * Decides whether an incoming document is an OpenLineage event the service accepts, and which of
 * the core schema's three definitions it is. Verdicts equal ajv's over the official schema except
 * for the relaxations listed in `schema.ts` and the nesting limit below.
 */
import { describeProblems, joinProblems, ROOT_FIELD } from './error-messages.ts';
import { KIND_VALIDATORS } from './schema.ts';
import type { EventKind } from './types.ts';

/** The verdict on one document. */
export type ValidationResult =
  | { readonly ok: true; readonly kind: EventKind }
  | { readonly ok: false; readonly error: string; readonly field: string };

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
  if (validator(event)) return { ok: true, kind };
  const problems = describeProblems(validator.errors ?? [], event);
  const first = problems[0];
  if (first === undefined) return invalid(ROOT_FIELD, `${ROOT_FIELD}: is not a valid ${kind}`);
  return invalid(first.field, joinProblems(problems));
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
