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
import { EVENT_TIME_PATTERN } from './event-time-pattern.ts';

/** Prefix of the components made from the OpenLineage schema (`OpenLineageRunEvent`, …). */
const PREFIX = 'OpenLineage';

export { EVENT_TIME_PATTERN };

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

/** The facet definitions a facets map holds (each `allOf` BaseFacet in the core schema). */
const FACET_DEFINITIONS = ['RunFacet', 'JobFacet', 'DatasetFacet', 'InputDatasetFacet', 'OutputDatasetFacet'] as const;

/**
 * A facet as the validator reads it (`domain/lineage/validate.ts`, ADR 0008): any value, kept as
 * sent with a warning when it breaks the core schema's facet shape (which `BaseFacet` still
 * documents), except that `_producer` and `_schemaURL`, when present, are strings.
 */
const tolerantFacet = (name: string, official: Json): Json => ({
  description: `${(official as { description?: string }).description ?? name}, shaped as \`${PREFIX}BaseFacet\` says (\`_producer\` and \`_schemaURL\` URIs, both required; \`_deleted\` a boolean). A facet that breaks that shape (null, not an object, a field missing, a relative URI) is kept as sent, with a warning on the stored event; only \`_producer\` and \`_schemaURL\` that are present but not strings are refused.`,
  properties: {
    _producer: { type: 'string', description: 'URI identifying the producer of this metadata' },
    _schemaURL: { type: 'string', description: 'URI of the JSON Schema this facet follows' },
  },
});

/** The components: every definition of the relaxed core schema, plus `OpenLineageEvent` (one of the three). */
export const openLineageComponents = (): Record<string, Json> => {
  const schema = relaxedCoreSchema() as unknown as { $defs: Record<string, Json>; $id: string };
  const components: Record<string, Json> = Object.fromEntries(
    Object.entries(schema.$defs).map(([name, def]) => [`${PREFIX}${name}`, (FACET_DEFINITIONS as readonly string[]).includes(name) ? tolerantFacet(name, def) : rewrite(def)]),
  );
  components[`${PREFIX}Event`] = {
    description: `An OpenLineage RunEvent, DatasetEvent or JobEvent (${schema.$id}). \`schemaURL\` may be omitted. A facet that breaks its schema (say, without \`_producer\`) is kept as sent, with a warning on the stored event.`,
    oneOf: ['RunEvent', 'DatasetEvent', 'JobEvent'].map((name) => ({ $ref: `#/components/schemas/${PREFIX}${name}` })),
  };
  return components;
};

/** A reference to the event component. */
export const OPENLINEAGE_EVENT_REF = { $ref: `#/components/schemas/${PREFIX}Event` } as const;
