/**
 * @module text-bounds
 * Enforces the `maxLength` of query and path parameters as their route contract declares it, before
 * the route's own parser reads them. The contract's zod schema is what the OpenAPI document prints,
 * so a bound in the document is the bound enforced, and a longer value is a 400 naming the
 * parameter and the limit (`namespace: must be at most 2,048 characters`). Bodies need no such
 * step: zod parses them, `.max()` included.
 */
import type { ZodType } from 'zod';
import { ValidationError } from '#domain/errors';
import { tooLongMessage } from '#domain/input-limits';

type Params = Readonly<Record<string, string | undefined>>;

/** The `maxLength` of a string schema, through `.optional()`, `.default()` and `.openapi()` wrappers. */
export const maxLengthOf = (schema: ZodType | undefined): number | undefined => {
  let current: unknown = schema;
  for (let depth = 0; depth < 8 && current; depth++) {
    const s = current as { maxLength?: number | null; unwrap?: () => unknown; def?: { innerType?: unknown } };
    if (typeof s.maxLength === 'number') return s.maxLength;
    current = s.def?.innerType ?? (typeof s.unwrap === 'function' ? s.unwrap() : undefined);
  }
  return undefined;
};

/**
 * Refuses the first parameter longer than its schema's `maxLength`.
 * @param schemas - the parameters' schemas by name (a query object's shape, or a route's path parameters)
 * @throws {ValidationError} naming the parameter and its limit
 */
export const checkTextBounds = (schemas: Readonly<Record<string, ZodType>>, params: Params): void => {
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    const max = maxLengthOf(schemas[name]);
    if (max !== undefined && value.length > max) throw new ValidationError(`${name}: ${tooLongMessage(max)}`);
  }
};
