// The lineage schemas of the OpenAPI document are never looser than what the service accepts: an
// event or a query the document calls valid is accepted (the document may be stricter).
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { eventTimeProblem } from '#domain/lineage/event-time';
import { validateEvent } from '#domain/lineage/validate';
import { buildOpenApiDocument } from '#shared/openapi';
import { EVENT_TIME_PATTERN } from '#shared/schemas/openlineage-openapi';
import { EventsQuery } from '#shared/schemas/lineage';
import { loadExamples } from '../domain/lineage/examples.ts';

/** The document's event schema, compiled as JSON Schema 2020-12 (what OpenAPI 3.1 schemas are). */
const documentedEvent = (() => {
  const doc = buildOpenApiDocument() as { components: { schemas: Record<string, unknown> } };
  const ajv = new Ajv2020({ strict: false });
  addFormats(ajv);
  ajv.addSchema({ $id: 'https://lakeline.local/openapi.json', components: doc.components });
  return ajv.compile({ $ref: 'https://lakeline.local/openapi.json#/components/schemas/OpenLineageEvent' });
})();

const base = { eventTime: '2024-01-01T00:00:00Z', producer: 'urn:p', schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent', run: { runId: '3f2504e0-4f89-41d3-9a0c-0305e82c3301' }, job: { namespace: 'n', name: 'j' } };

describe('the OpenLineage event in the OpenAPI document', () => {
  it.each(loadExamples().map((e) => [e.name, e.text] as const))('Should call %s valid only if the service accepts it', (_name, text) => {
    const event: unknown = JSON.parse(text);
    if (documentedEvent(event)) expect(validateEvent(event).ok).toBe(true);
  });

  it.each(loadExamples().filter((e) => validateEvent(JSON.parse(e.text)).ok && !e.name.startsWith('fluentd/')).map((e) => [e.name, e.text] as const))(
    'Should describe the accepted example %s as valid',
    (_name, text) => {
      expect(documentedEvent(JSON.parse(text)), JSON.stringify(documentedEvent.errors)).toBe(true);
    },
  );

  it.each([
    ['2024-02-29T00:00:00Z', false],
    ['1970-01-01T00:00:00+01:00', false],
    ['9999-12-31T23:00:00-05:00', false],
    ['2021-11-03T10:53:52.427343123Z', true],
    ['2021-11-03 10:53:52+0100', true],
    ['2021-11-03T10:53:52', true],
    ['2021-13-03T10:53:52Z', false],
  ])('Should document %s as %s, never calling a refused time valid', (time, documented) => {
    const matches = new RegExp(EVENT_TIME_PATTERN).test(time);
    expect(matches).toBe(documented);
    if (matches) expect(eventTimeProblem(time)).toBeNull();
  });

  it('Should call a run id that is not a UUID invalid, as the service does', () => {
    const event = { ...base, run: { runId: 'run-1' } };
    expect(documentedEvent(event)).toBe(false);
    expect(validateEvent(event).ok).toBe(false);
  });

  it('Should state producer and schemaURL as URIs, as the service checks them', () => {
    expect(documentedEvent({ ...base, producer: 'not a uri' })).toBe(false);
    expect(validateEvent({ ...base, producer: 'not a uri' }).ok).toBe(false);
  });
});

describe('the events query in the OpenAPI document', () => {
  it('Should type limit and offset as bounded integers', () => {
    expect(EventsQuery.safeParse({ start: 0, end: 1, limit: 0 }).success).toBe(false);
    expect(EventsQuery.safeParse({ start: 0, end: 1, limit: 1001 }).success).toBe(false);
    expect(EventsQuery.safeParse({ start: 0, end: 1, limit: 30, offset: 29970 }).success).toBe(true);
    expect(EventsQuery.safeParse({ start: 0, end: 1, offset: -1 }).success).toBe(false);
  });
});
