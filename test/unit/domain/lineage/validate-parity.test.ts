// validateEvent against the oracle: ajv (draft 2020-12 + ajv-formats) over the official, unpatched
// OpenLineage.json from shared/, on every reference event. Verdicts must match, except for the
// deliberate relaxations listed below, each by file name with its reason.
import fs from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { eventTimeProblem } from '#domain/lineage/event-time';
import { validateEvent } from '#domain/lineage/validate';
import { example, loadExamples, OFFICIAL_SCHEMA_PATH, REPO_ROOT } from './examples.ts';

const NO_SCHEMA_URL = 'no schemaURL: the service accepts events without it (Marquez does; producers in the wild omit it)';
const NO_ZONE = 'eventTime has no zone offset: the service reads it as UTC; ajv-formats date-time requires a zone';

/** Files the service accepts although the official schema rejects them. */
const ACCEPTED_DESPITE_SCHEMA: Readonly<Record<string, string>> = {
  'marquez/apples/1_pick_apples.json': NO_SCHEMA_URL,
  'marquez/apples/2_apple_filling.json': NO_SCHEMA_URL,
  'marquez/apples/3_apple_cider.json': NO_SCHEMA_URL,
  'marquez/apples/5_apple_vinegar.json': NO_SCHEMA_URL,
  'marquez/apples/6_apple_pie.json': NO_SCHEMA_URL,
  'marquez/apples/7_pick_different_apples.json': NO_SCHEMA_URL,
  'marquez/apples/8_apple_filling.json': NO_SCHEMA_URL,
  'marquez/apples/9_apple_pie.json': NO_SCHEMA_URL,
  'marquez/event_without_schema_url.json': NO_SCHEMA_URL,
  'marquez/listener/1.json': NO_SCHEMA_URL,
  'marquez/listener/2.json': NO_SCHEMA_URL,
  'marquez/event_required_no_timezone.json': NO_ZONE,
  'client/serde_example_run_event.json': NO_ZONE,
  'client/serde_example_job_event.json': NO_ZONE,
  'client/serde_example_dataset_event.json': NO_ZONE,
};

function officialValidator() {
  const schema: unknown = JSON.parse(fs.readFileSync(OFFICIAL_SCHEMA_PATH, 'utf8'));
  // strict: false only because the oracle must take the schema exactly as published (`example`).
  const ajv = new Ajv2020({ strict: false });
  addFormats(ajv);
  return ajv.compile(schema as object);
}

/** The same event with the cause of its listed exception removed. */
function withoutException(json: Record<string, unknown>, reason: string): Record<string, unknown> {
  if (reason === NO_SCHEMA_URL) return { ...json, schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent' };
  return { ...json, eventTime: `${String(json.eventTime)}Z` };
}

/**
 * Date-times with a zone, where ajv-formats' `date-time` and the service must agree, except:
 * - years before 1970 (and instants after 9999 UTC): well-formed, but outside what the service stores;
 * - impossible leap seconds that ajv-formats lets through because its leap-second rule does not
 *   re-check hour and minute (`24:59:60+01:00`, `23:99:60+00:40`).
 */
type DateTimeVerdict = 'agree' | 'range' | 'ajv-leap-second-quirk';
const DATE_TIMES_WITH_ZONE: readonly (readonly [string, DateTimeVerdict])[] = [
  ['2021-11-03T10:53:52.427343123Z', 'agree'],
  ['2021-11-03T10:53:52Z', 'agree'],
  ['2021-11-03t10:53:52z', 'agree'],
  ['2021-11-03 10:53:52+01:00', 'agree'],
  ['2021-11-03\t10:53:52+01:00', 'agree'],
  ['2021-11-03T10:53:52+0100', 'agree'],
  ['2021-11-03T10:53:52+01', 'agree'],
  ['2021-11-03T10:53:52-23:59', 'agree'],
  ['2021-11-03T10:53:52+24:00', 'agree'],
  ['2021-11-03T10:53:52+01:60', 'agree'],
  ['2021-11-03T10:53:52.Z', 'agree'],
  ['2021-11-03T10:53Z', 'agree'],
  ['2021-11-03T24:00:00Z', 'agree'],
  ['2021-11-03T10:60:00Z', 'agree'],
  ['2021-02-29T10:00:00Z', 'agree'],
  ['2020-02-29T10:00:00Z', 'agree'],
  ['2021-04-31T10:00:00Z', 'agree'],
  ['2021-13-01T10:00:00Z', 'agree'],
  ['2016-12-31T23:59:60Z', 'agree'],
  ['2016-12-31T23:59:60.5Z', 'agree'],
  ['2017-01-01T00:59:60+01:00', 'agree'],
  ['2016-12-31T22:59:60-01:00', 'agree'],
  ['2016-12-31T12:00:60Z', 'agree'],
  ['2016-12-31T23:59:61Z', 'agree'],
  ['2021-11-03T10:53:52 Z', 'agree'],
  ['2021-11-03TT10:53:52Z', 'agree'],
  ['1970-01-01T00:00:00Z', 'agree'],
  ['9999-12-31T23:59:59.999999Z', 'agree'],
  ['1969-12-31T23:59:59Z', 'range'],
  ['0001-01-01T00:00:00Z', 'range'],
  ['1970-01-01T00:30:00+01:00', 'range'],
  ['9999-12-31T23:30:00-01:00', 'range'],
  ['2016-12-31T24:59:60+01:00', 'ajv-leap-second-quirk'],
  ['2016-12-31T23:99:60+00:40', 'ajv-leap-second-quirk'],
];

describe('eventTime parity with ajv-formats date-time', () => {
  const ajv = new Ajv2020();
  addFormats(ajv, ['date-time']);
  const dateTime = ajv.compile({ type: 'string', format: 'date-time' });

  it.each(DATE_TIMES_WITH_ZONE)('%j: %s', (text, verdict) => {
    // Act
    const ours = eventTimeProblem(text) === null;
    const theirs = dateTime(text);
    // Assess
    if (verdict === 'agree') expect(ours).toBe(theirs);
    else expect({ ours, theirs }).toEqual({ ours: false, theirs: true });
  });

  it('differs on zone-less times, which the service reads as UTC', () => {
    expect([eventTimeProblem('2020-02-22T22:42:42.000'), dateTime('2020-02-22T22:42:42.000')]).toEqual([null, false]);
  });
});

describe('validateEvent parity with ajv over the official OpenLineage schema', () => {
  const official = officialValidator();
  const examples = loadExamples();

  it('finds the reference events and bundles an unmodified copy of the official schema', () => {
    // Prepare
    const bundled = fs.readFileSync(path.join(REPO_ROOT, 'functions/domain/lineage/schema/OpenLineage.json'), 'utf8');
    // Act
    const upstream = fs.readFileSync(OFFICIAL_SCHEMA_PATH, 'utf8');
    // Assess
    expect(examples.length).toBeGreaterThanOrEqual(38);
    expect(bundled).toBe(upstream);
  });

  it('lists only exceptions that exist among the example files', () => {
    const names = new Set(examples.map((e) => e.name));
    expect(Object.keys(ACCEPTED_DESPITE_SCHEMA).filter((name) => !names.has(name))).toEqual([]);
  });

  it.each(examples.map((e) => [e.name]))('%s gets the same verdict as ajv unless listed', (name) => {
    // Prepare
    const { json } = example(name);
    const exception = ACCEPTED_DESPITE_SCHEMA[name];
    // Act
    const ours = validateEvent(json);
    const theirs = official(json);
    // Assess
    if (exception === undefined) {
      expect(ours.ok).toBe(theirs);
    } else {
      expect({ ours: ours.ok, theirs }).toEqual({ ours: true, theirs: false });
      // The listed reason is the whole difference: remove it and the official schema agrees.
      expect(official(withoutException(json, exception))).toBe(true);
    }
  });

  it('accepts nanosecond times exactly as ajv does', () => {
    const { json } = example('marquez/event_required_nanoseconds.json');
    const nanos = { ...json, eventTime: '2021-11-03T10:53:52.427343123Z' };
    expect([validateEvent(nanos).ok, official(nanos)]).toEqual([true, true]);
  });

  it('names the missing field of the fluentd event without a runId', () => {
    const result = validateEvent(example('fluentd/event_no_run_id.json').json);
    expect(result).toEqual({ ok: false, field: 'run.runId', error: 'run.runId: is required' });
  });

  it('lists every missing required field of a facet sent as if it were an event', () => {
    const result = validateEvent(example('client/nominal_time_without_end.json').json);
    expect(result).toEqual({
      ok: false,
      field: 'eventTime',
      error: 'eventTime: is required; producer: is required; run: is required; job: is required',
    });
  });

  it('accepts fluentd events whose facets break only the facet schemas, as the core schema does', () => {
    const names = examples.map((e) => e.name).filter((n) => n.startsWith('fluentd/event_invalid_'));
    expect(names).toHaveLength(5);
    for (const name of names) expect(validateEvent(example(name).json)).toEqual({ ok: true, kind: 'RunEvent', warnings: [] });
  });

  it.each([
    ['marquez/event_full.json', 'RunEvent'],
    ['marquez/event_required_only.json', 'RunEvent'],
    ['marquez/event_dataset_event.json', 'DatasetEvent'],
    ['client/serde_example_dataset_event.json', 'DatasetEvent'],
    ['marquez/event_job_event.json', 'JobEvent'],
    ['client/serde_example_job_event.json', 'JobEvent'],
  ])('%s is recognised as a %s', (name, kind) => {
    expect(validateEvent(example(name).json)).toEqual({ ok: true, kind, warnings: [] });
  });
});
