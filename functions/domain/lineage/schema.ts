/**
 * @module schema
 * The official OpenLineage core schema (the copy in `schema/OpenLineage.json`), relaxed where the
 * service deliberately accepts more, and compiled once per cold start: one validator per top-level
 * definition, so errors can be reported against the definition the event is shaped like.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import officialSchema from './schema/OpenLineage.json' with { type: 'json' };
import { eventTimeProblem } from './event-time.ts';
import type { EventKind } from './types.ts';

/** Name of the format that replaces `date-time` on `eventTime` (see {@link relaxedCoreSchema}). */
export const EVENT_TIME_FORMAT = 'openlineage-event-time';

/** `$id` of the bundled core schema, e.g. `https://openlineage.io/spec/2-0-2/OpenLineage.json`. */
export const CORE_SCHEMA_ID: string = officialSchema.$id;

/**
 * The core schema with the service's two relaxations, both documented in
 * `docs/adr/0008-event-validation.md`:
 * - `schemaURL` is optional: Marquez accepts events without it and producers in the wild omit it;
 * - `eventTime` uses {@link EVENT_TIME_FORMAT}: RFC 3339 as ajv-formats reads it, plus zone-less
 *   times (read as UTC), restricted to 1970..9999 so that every accepted time can be stored.
 *
 * @throws {Error} when the bundled schema no longer has the shape these patches expect, so an
 *   updated schema file cannot silently drop a relaxation
 */
export function relaxedCoreSchema(): typeof officialSchema {
  const schema = structuredClone(officialSchema);
  const base = schema.$defs.BaseEvent;
  if (!base.required.includes('schemaURL') || base.properties.eventTime.format !== 'date-time') {
    throw new Error('OpenLineage.json: BaseEvent changed shape; review the relaxations in schema.ts');
  }
  base.required = base.required.filter((name) => name !== 'schemaURL');
  base.properties.eventTime.format = EVENT_TIME_FORMAT;
  return schema;
}

function compileValidators(): Readonly<Record<EventKind, ValidateFunction>> {
  // allErrors: a rejected event gets every problem in one answer. The schema has no pattern or
  // uniqueItems keywords, so reporting all errors costs no more than stopping at the first.
  const ajv = new Ajv2020({ allErrors: true });
  // `example` is an annotation the OpenLineage schema uses on many properties.
  ajv.addKeyword('example');
  addFormats(ajv, ['uri', 'uuid']);
  ajv.addFormat(EVENT_TIME_FORMAT, { type: 'string', validate: (text: string) => eventTimeProblem(text) === null });
  ajv.addSchema(relaxedCoreSchema());
  const compile = (kind: EventKind): ValidateFunction => ajv.compile({ $ref: `${CORE_SCHEMA_ID}#/$defs/${kind}` });
  return { RunEvent: compile('RunEvent'), DatasetEvent: compile('DatasetEvent'), JobEvent: compile('JobEvent') };
}

/**
 * One compiled validator per core-schema definition. Compiled at module load (~100 ms cold), never
 * per call.
 */
export const KIND_VALIDATORS = compileValidators();
