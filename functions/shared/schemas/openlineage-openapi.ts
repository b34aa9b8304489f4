/**
 * @module schemas/openlineage-openapi
 * The request body of the ingestion endpoints in the OpenAPI document, generated from the very
 * JSON Schema the validator compiles (the official OpenLineage core schema with the service's
 * relaxations, `domain/lineage/schema.ts`), so the document cannot drift from what is accepted.
 * OpenAPI 3.1 schemas are JSON Schema 2020-12: each `$defs` entry becomes a component.
 *
 * Where the validator uses a rule JSON Schema cannot name (the event-time format), the document
 * states a pattern that is a strict subset of what is accepted: a request the document calls valid
 * is never refused for that field.
 */
import { relaxedCoreSchema } from '#domain/lineage/schema';

/** Prefix of the components made from the OpenLineage schema (`OpenLineageRunEvent`, …). */
const PREFIX = 'OpenLineage';

/**
 * `eventTime` as the document states it: RFC 3339 with `T`, `t` or a space, up to nanoseconds,
 * a zone or none, years 1971 to 9998 (inside the storable range whatever the zone) and only
 * days every year has (the validator also takes 29 February of leap years and leap seconds).
 */
export const EVENT_TIME_PATTERN =
  '^(197[1-9]|19[89]\\d|[2-8]\\d{3}|9[0-8]\\d{2}|99[0-8]\\d)-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))[Tt ](?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d{1,9})?(?:[Zz]|[+-](?:[01]\\d|2[0-3])(?::?[0-5]\\d)?)?$';

type Json = unknown;

/** Rewrites one schema node: `$ref`s to components, the custom event-time format to a pattern. */
const rewrite = (node: Json): Json => {
  if (Array.isArray(node)) return node.map(rewrite);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(node)) {
    // `example` annotations are dropped: some contradict their own schema (eventType's is
    // "START|RUNNING|…"), and tools that send examples would send requests the API must refuse.
    if (key === 'example') continue;
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#/$defs/')) out.$ref = `#/components/schemas/${PREFIX}${value.slice('#/$defs/'.length)}`;
    else if (key === 'format' && value === 'openlineage-event-time') {
      out.pattern = EVENT_TIME_PATTERN;
      out.description = 'When the event occurred: an RFC 3339 date-time (a time without a zone is read as UTC), between 1970 and 9999.';
    } else out[key] = rewrite(value);
  }
  return out;
};

/** The components: every definition of the relaxed core schema, plus `OpenLineageEvent` (one of the three). */
export const openLineageComponents = (): Record<string, Json> => {
  const schema = relaxedCoreSchema() as unknown as { $defs: Record<string, Json>; $id: string };
  const components: Record<string, Json> = Object.fromEntries(Object.entries(schema.$defs).map(([name, def]) => [`${PREFIX}${name}`, rewrite(def)]));
  components[`${PREFIX}Event`] = {
    description: `An OpenLineage RunEvent, DatasetEvent or JobEvent (${schema.$id}). \`schemaURL\` may be omitted. A facet that breaks its schema (say, without \`_producer\`) is kept as sent, with a warning on the stored event.`,
    oneOf: ['RunEvent', 'DatasetEvent', 'JobEvent'].map((name) => ({ $ref: `#/components/schemas/${PREFIX}${name}` })),
  };
  return components;
};

/** A reference to the event component. */
export const OPENLINEAGE_EVENT_REF = { $ref: `#/components/schemas/${PREFIX}Event` } as const;
