/**
 * @module schemas/polars
 * Validation of the polars endpoint's body against `PolarsRequest` (schemas/query.ts), with
 * messages that name the field. The rules across fields (query needs tables, script needs no query)
 * are the use case's (`domain/polars`).
 */
import { ValidationError } from '#domain/errors';
import { PolarsRequest } from './query.ts';
import type { z } from './zod.ts';

/** A polars request as the schema parsed it. */
export type PolarsRequestBody = z.infer<typeof PolarsRequest>;

const issueText = (issue: z.core.$ZodIssue): string => {
  const field = issue.path.length ? issue.path.map(String).join('.') : 'body';
  if (field === 'vcpus') return 'vcpus: must be one of 2, 4, 8, 16, 32';
  if (issue.code === 'unrecognized_keys') return `${issue.keys.join(', ')}: ${issue.keys.length > 1 ? 'are not fields' : 'is not a field'} of this request`;
  if (issue.code === 'invalid_type') return issue.input === undefined ? `${field}: is required` : `${field}: must be ${issue.expected === 'object' ? 'a JSON object' : `a ${issue.expected}`}`;
  if (issue.code === 'too_small') return `${field}: must not be empty`;
  return `${field}: ${issue.message}`;
};

/**
 * Validates a polars request body.
 *
 * @throws {ValidationError} naming the offending fields (400 `{error, details}`)
 */
export const parsePolarsRequest = (value: unknown): PolarsRequestBody => {
  const parsed = PolarsRequest.safeParse(value, { reportInput: true });
  if (parsed.success) return parsed.data;
  const text = parsed.error.issues.map(issueText).join('; ');
  throw new ValidationError(text, { details: text });
};
