/**
 * @module openlineage-spec
 * Validates events against the official OpenLineage schema and the schema of every facet they
 * carry (named by each facet's `_schemaURL`), both read from `shared/openlineage/spec/` beside the
 * repository. The service's own validator checks the core schema only; lineage lakeline emits
 * must also be right facet by facet.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const SPEC_DIR = path.resolve(fileURLToPath(new URL('../../../../', import.meta.url)), '..', 'shared', 'openlineage', 'spec');

const ajv = new Ajv2020({ allErrors: true, strict: false });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema(JSON.parse(fs.readFileSync(path.join(SPEC_DIR, 'OpenLineage.json'), 'utf8')) as object);
for (const file of fs.readdirSync(path.join(SPEC_DIR, 'facets')).filter((f) => f.endsWith('.json'))) {
  ajv.addSchema(JSON.parse(fs.readFileSync(path.join(SPEC_DIR, 'facets', file), 'utf8')) as object);
}

const validatorFor = (url: string) => {
  const validate = ajv.getSchema(url);
  if (!validate) throw new Error(`no schema known for ${url}`);
  return validate;
};

type Facets = Record<string, { _schemaURL?: string }>;

const facetsOf = (event: Record<string, unknown>): [string, Facets][] => {
  const out: [string, Facets][] = [];
  const add = (where: string, facets: unknown) => {
    if (facets && typeof facets === 'object') out.push([where, facets as Facets]);
  };
  add('run.facets', (event.run as Record<string, unknown> | undefined)?.facets);
  add('job.facets', (event.job as Record<string, unknown> | undefined)?.facets);
  for (const [i, d] of ((event.inputs as Record<string, unknown>[] | undefined) ?? []).entries()) {
    add(`inputs[${i}].facets`, d.facets);
    add(`inputs[${i}].inputFacets`, d.inputFacets);
  }
  for (const [i, d] of ((event.outputs as Record<string, unknown>[] | undefined) ?? []).entries()) {
    add(`outputs[${i}].facets`, d.facets);
    add(`outputs[${i}].outputFacets`, d.outputFacets);
  }
  return out;
};

/**
 * The problems of an event against the spec: the RunEvent schema, then each facet against the
 * schema its `_schemaURL` names. Empty when the event is valid.
 */
export const specProblems = (event: object): string[] => {
  const problems: string[] = [];
  const core = validatorFor(`https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent`);
  if (!core(event)) problems.push(...(core.errors ?? []).map((e) => `event${e.instancePath}: ${e.message}`));
  for (const [where, facets] of facetsOf(event as Record<string, unknown>)) {
    for (const [name, value] of Object.entries(facets)) {
      if (!value._schemaURL) {
        problems.push(`${where}.${name}: has no _schemaURL`);
        continue;
      }
      const validate = validatorFor(value._schemaURL);
      if (!validate(value)) problems.push(...(validate.errors ?? []).map((e) => `${where}.${name}${e.instancePath}: ${e.message}`));
    }
  }
  return problems;
};
