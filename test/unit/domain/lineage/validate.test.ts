// validateEvent on malformed and hostile documents: every refusal names the offending field.
import { describe, expect, it } from 'vitest';
import { MAX_NESTING_DEPTH, MAX_WARNINGS, validateEvent } from '#domain/lineage/validate';

const RUN_ID = 'ea041791-68bc-4ae1-bd89-4c8106a157e4';
const FACET_BASE = { _producer: 'https://example.com/producer', _schemaURL: 'https://example.com/schema#/Facet' };

/** A minimal valid RunEvent; cases spread it and override one thing. */
const base = {
  eventType: 'START',
  eventTime: '2024-05-01T12:00:00.000Z',
  producer: 'https://github.com/OpenLineage/OpenLineage/tree/1.19.0/integration/spark',
  schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
  run: { runId: RUN_ID },
  job: { namespace: 'ns', name: 'job' },
} as const;

function errorOf(event: unknown): string {
  const result = validateEvent(event);
  if (result.ok) throw new Error(`expected a refusal, got ${result.kind}`);
  return result.error;
}

describe('validateEvent', () => {
  it('accepts the minimal RunEvent', () => {
    expect(validateEvent(base)).toEqual({ ok: true, kind: 'RunEvent', warnings: [] });
  });

  it.each([
    ['null', null],
    ['a number', 42],
    ['a string', '{"eventTime": "2024-05-01T12:00:00Z"}'],
    ['a boolean', true],
    ['undefined', undefined],
  ])('refuses %s as not a JSON object', (_label, document) => {
    expect(validateEvent(document)).toEqual({ ok: false, field: 'event', error: 'event: must be a JSON object' });
  });

  it('refuses an array, saying so (a batch sent to the single-event endpoint)', () => {
    expect(errorOf([base])).toBe('event: must be a JSON object, not an array');
  });

  it('names every missing field of an empty object', () => {
    expect(errorOf({})).toBe('eventTime: is required; producer: is required; run: is required; job: is required');
  });

  it('names job when an event has a run but no job', () => {
    const { job: _job, ...noJob } = base;
    expect(validateEvent(noJob)).toEqual({ ok: false, field: 'job', error: 'job: is required' });
  });

  it('reads an event with a job and no run as a JobEvent, as the schema does', () => {
    const { run: _run, ...noRun } = base;
    expect(validateEvent(noRun)).toEqual({ ok: true, kind: 'JobEvent', warnings: [] });
  });

  it('refuses a run that is not an object', () => {
    expect(errorOf({ ...base, run: 'r-1' })).toBe('run: must be an object');
  });

  it.each([
    ['not-a-uuid', 'run.runId: must be a UUID'],
    ['ea041791-68bc-4ae1-bd89-4c8106a157e', 'run.runId: must be a UUID'],
    [42, 'run.runId: must be a string'],
  ])('refuses runId %j', (runId, message) => {
    expect(errorOf({ ...base, run: { runId } })).toBe(message);
  });

  it('accepts an upper-case runId and the urn:uuid form, as ajv-formats does', () => {
    expect(validateEvent({ ...base, run: { runId: RUN_ID.toUpperCase() } }).ok).toBe(true);
    expect(validateEvent({ ...base, run: { runId: `urn:uuid:${RUN_ID}` } }).ok).toBe(true);
  });

  it.each([
    ['yesterday', 'eventTime: must be a date-time'],
    ['2024-05-01', 'eventTime: must be a date-time'],
    ['2024-05-01T12:00Z', 'eventTime: must be a date-time'],
    ['2024-02-30T12:00:00Z', 'eventTime: must be a date-time'],
    ['2024-05-01T25:00:00Z', 'eventTime: must be a date-time'],
    ['2024-05-01T12:00:00+24:00', 'eventTime: must be a date-time'],
    ['1969-12-31T23:59:59Z', 'eventTime: must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999999Z'],
  ])('refuses eventTime %j', (eventTime, message) => {
    expect(errorOf({ ...base, eventTime })).toBe(message);
  });

  it('refuses an eventTime that is not a string', () => {
    expect(errorOf({ ...base, eventTime: 1714564800 })).toBe('eventTime: must be a string');
  });

  it.each(['2021-11-03T10:53:52.427343123Z', '2020-02-22T22:42:42.000', '2020-02-22 22:42:42+0100', '2020-02-22t22:42:42z'])(
    'accepts eventTime %j',
    (eventTime) => {
      expect(validateEvent({ ...base, eventTime }).ok).toBe(true);
    },
  );

  it('refuses an unknown eventType, listing the allowed ones', () => {
    expect(errorOf({ ...base, eventType: 'DONE' })).toBe(
      'eventType: must be one of START, RUNNING, COMPLETE, ABORT, FAIL, OTHER',
    );
  });

  it('accepts a RunEvent without eventType', () => {
    const { eventType: _t, ...noType } = base;
    expect(validateEvent(noType)).toEqual({ ok: true, kind: 'RunEvent', warnings: [] });
  });

  it.each([
    ['https://openlineage.io/spec/1-0-5/OpenLineage.json#/definitions/RunEvent'],
    ['https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent'],
  ])('accepts schemaURL %s', (schemaURL) => {
    expect(validateEvent({ ...base, schemaURL }).ok).toBe(true);
  });

  it('accepts an event without schemaURL', () => {
    const { schemaURL: _s, ...noSchemaUrl } = base;
    expect(validateEvent(noSchemaUrl).ok).toBe(true);
  });

  it.each([
    ['schemaURL', 'not a uri', 'schemaURL: must be a URI'],
    ['producer', 'spark', 'producer: must be a URI'],
    ['producer', 7, 'producer: must be a string'],
  ])('refuses %s %j', (field, value, message) => {
    expect(errorOf({ ...base, [field]: value })).toBe(message);
  });

  it('names job fields with their dotted path', () => {
    expect(errorOf({ ...base, job: { namespace: 'ns' } })).toBe('job.name: is required');
    expect(errorOf({ ...base, job: { namespace: 'ns', name: 5 } })).toBe('job.name: must be a string');
  });

  it('names datasets by index', () => {
    const inputs = [{ namespace: 'a', name: 'x' }, { namespace: 'a' }];
    expect(errorOf({ ...base, inputs })).toBe('inputs[1].name: is required');
    expect(errorOf({ ...base, outputs: { namespace: 'a', name: 'x' } })).toBe('outputs: must be an array');
  });

  it('accepts a facet without the base facet fields with a warning naming it, quoting keys that are not identifiers', () => {
    // Prepare
    const facets = { parent: { _producer: 'https://example.com/p' }, 'spark.logicalPlan': { _schemaURL: FACET_BASE._schemaURL } };
    // Act
    const verdict = validateEvent({ ...base, run: { runId: RUN_ID, facets } });
    // Assess
    expect(verdict).toEqual({
      ok: true,
      kind: 'RunEvent',
      warnings: ['run.facets.parent._schemaURL: is required (facet kept as sent)', 'run.facets["spark.logicalPlan"]._producer: is required (facet kept as sent)'],
    });
  });

  describe('facet slips of real producers: accepted, with a warning, the event kept as sent', () => {
    // The OpenLineage Spark integration (1.53) with spark.openlineage.facets.debug.disabled=false:
    // its `debug` run facet has no _producer and no _schemaURL.
    const sparkDebug = {
      classpath: { sparkVersion: '3.5.1', openLineageVersion: '1.53.0', scalaVersion: '2.12', jars: ['iceberg-spark-runtime-3.5_2.12-1.12.0.jar'], classDetails: [] },
      system: { sparkDeployMode: 'client', javaVersion: '17.0.15', javaVendor: 'Debian', osArch: 'amd64', osName: 'Linux', osVersion: '6.1', userLanguage: 'en', userTimezone: 'UTC' },
      config: { extraListeners: 'io.openlineage.spark.agent.OpenLineageSparkListener', openLineageConfig: { transport: { type: 'http' } }, catalogClass: 'org.apache.spark.sql.internal.CatalogImpl', extensions: '' },
      logicalPlan: { nodes: [{ id: 'InsertIntoHadoopFsRelationCommand@1', desc: 'InsertIntoHadoopFsRelationCommand', children: [] }] },
      metrics: { metrics: [], prefix: 'openlineage.spark' },
    };
    it.each([
      ['the Spark debug run facet without _producer and _schemaURL', { run: { runId: RUN_ID, facets: { debug: sparkDebug } } }, ['run.facets.debug._producer: is required', 'run.facets.debug._schemaURL: is required']],
      ['a custom job facet with a relative _schemaURL', { job: { namespace: 'ns', name: 'j', facets: { team: { _producer: FACET_BASE._producer, _schemaURL: '/schemas/team.json', name: 'data' } } } }, ['job.facets.team._schemaURL: must be a URI']],
      ['a dataset facet whose _deleted is a string', { inputs: [{ namespace: 'a', name: 'x', facets: { schema: { ...FACET_BASE, _deleted: 'true' } } }] }, ['inputs[0].facets.schema._deleted: must be a boolean']],
      ['an output facet that is null', { outputs: [{ namespace: 'a', name: 'x', outputFacets: { outputStatistics: null } }] }, ['outputs[0].outputFacets.outputStatistics: must be an object']],
      ['an input facet that is a string', { inputs: [{ namespace: 'a', name: 'x', inputFacets: { dataQualityMetrics: 'n/a' } }] }, ['inputs[0].inputFacets.dataQualityMetrics: must be an object']],
    ])('Should accept %s', (_name, patch, problems) => {
      // Act
      const verdict = validateEvent({ ...base, ...patch });
      // Assess
      expect(verdict).toEqual({ ok: true, kind: 'RunEvent', warnings: problems.map((p) => `${p} (facet kept as sent)`) });
    });

    it('Should keep the event-level rules strict while tolerating a facet slip in the same event', () => {
      // Act
      const verdict = validateEvent({ ...base, run: { runId: 'not-a-uuid', facets: { debug: sparkDebug } } });
      // Assess
      expect(verdict).toEqual({ ok: false, field: 'run.runId', error: 'run.runId: must be a UUID' });
    });

    it('Should still refuse a facets map that is not an object', () => {
      expect(errorOf({ ...base, run: { runId: RUN_ID, facets: [] } })).toBe('run.facets: must be an object');
    });

    it(`Should keep at most ${MAX_WARNINGS} warnings and count the rest`, () => {
      // Prepare
      const facets = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}`, {}]));
      // Act
      const verdict = validateEvent({ ...base, job: { namespace: 'ns', name: 'j', facets } });
      // Assess
      expect(verdict.ok && verdict.warnings).toHaveLength(MAX_WARNINGS + 1);
      expect(verdict.ok && verdict.warnings.at(-1)).toBe('and 40 more facet problems');
    });
  });

  it('accepts facets that carry the base facet fields', () => {
    const facets = { parent: { ...FACET_BASE, run: { runId: RUN_ID }, job: { namespace: 'a', name: 'b' } } };
    expect(validateEvent({ ...base, run: { runId: RUN_ID, facets } }).ok).toBe(true);
  });

  it('reports the first five problems and counts the rest', () => {
    // Prepare
    const inputs = Array.from({ length: 8 }, () => ({ namespace: 'a' }));
    // Act
    const message = errorOf({ ...base, inputs });
    // Assess
    expect(message).toBe(
      'inputs[0].name: is required; inputs[1].name: is required; inputs[2].name: is required; ' +
        'inputs[3].name: is required; inputs[4].name: is required (and 3 more)',
    );
  });

  describe('huge values', () => {
    const huge = 'a'.repeat(1_000_000);

    it.each([
      ['run.runId', { ...base, run: { runId: huge } }, 'run.runId: must be a UUID'],
      ['eventTime', { ...base, eventTime: `2024-05-01T12:00:00.${'1'.repeat(1_000_000)}x` }, 'eventTime: must be a date-time'],
      ['producer', { ...base, producer: huge }, 'producer: must be a URI'],
      ['eventType', { ...base, eventType: huge }, 'eventType: must be one of START, RUNNING, COMPLETE, ABORT, FAIL, OTHER'],
    ])('refuses a 1 MB %s quickly, without echoing it', (_field, event, message) => {
      // Act
      const started = performance.now();
      const error = errorOf(event);
      const elapsedMs = performance.now() - started;
      // Assess
      expect(error).toBe(message);
      expect(elapsedMs).toBeLessThan(500);
    });

    it('shortens a huge facet key in the warning', () => {
      const verdict = validateEvent({ ...base, run: { runId: RUN_ID, facets: { [huge]: {} } } });
      expect(verdict.ok && verdict.warnings).toEqual([
        `run.facets["${'a'.repeat(64)}…"]._producer: is required (facet kept as sent)`,
        `run.facets["${'a'.repeat(64)}…"]._schemaURL: is required (facet kept as sent)`,
      ]);
    });

    it('accepts a 1 MB job name: the schema sets no length limit', () => {
      expect(validateEvent({ ...base, job: { namespace: 'ns', name: huge } }).ok).toBe(true);
    });
  });

  it(`refuses nesting deeper than ${MAX_NESTING_DEPTH} levels instead of overflowing the stack later`, () => {
    // Prepare: a facet whose payload nests 100,000 arrays (JSON.parse builds it without complaint).
    const deep: unknown = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    const facets = { custom: { ...FACET_BASE, payload: deep } };
    // Act
    const result = validateEvent({ ...base, run: { runId: RUN_ID, facets } });
    // Assess
    expect(result).toEqual({
      ok: false,
      field: 'event',
      error: `event: must not nest objects and arrays more than ${MAX_NESTING_DEPTH} levels deep`,
    });
  });

  it(`accepts nesting of exactly ${MAX_NESTING_DEPTH} levels`, () => {
    // The event is level 1, run 2, facets 3, custom 4, payload 5: 495 more arrays reach the limit.
    const payload: unknown = JSON.parse(`${'['.repeat(MAX_NESTING_DEPTH - 4)}${']'.repeat(MAX_NESTING_DEPTH - 4)}`);
    const event = { ...base, run: { runId: RUN_ID, facets: { custom: { ...FACET_BASE, payload } } } };
    expect(validateEvent(event).ok).toBe(true);
  });

  it('handles a __proto__ key as data, not as a prototype', () => {
    // Prepare: JSON.parse makes "__proto__" an own property.
    const event: unknown = JSON.parse(JSON.stringify({ ...base, run: { runId: RUN_ID, facets: {} } }).replace('"facets":{}', '"facets":{"__proto__":{}}'));
    // Act
    const verdict = validateEvent(event);
    // Assess
    expect(verdict.ok && verdict.warnings).toEqual(['run.facets.__proto__._producer: is required (facet kept as sent)', 'run.facets.__proto__._schemaURL: is required (facet kept as sent)']);
  });

  describe('events with both job and dataset but no run (JobEvent or DatasetEvent)', () => {
    const dataset = { namespace: 'ds', name: 'table' };

    it('refuses the event when it is valid as both', () => {
      const { run: _run, ...jobEvent } = base;
      expect(validateEvent({ ...jobEvent, dataset })).toEqual({
        ok: false,
        field: 'dataset',
        error: 'dataset: must not be sent together with job unless run is present (the event is both a JobEvent and a DatasetEvent)',
      });
    });

    it('accepts it as a DatasetEvent when the job is not a valid job', () => {
      const { run: _run, ...jobEvent } = base;
      expect(validateEvent({ ...jobEvent, job: { name: 'x' }, dataset })).toEqual({ ok: true, kind: 'DatasetEvent', warnings: [] });
    });

    it('accepts it as a JobEvent when the dataset is not a valid dataset', () => {
      const { run: _run, ...jobEvent } = base;
      expect(validateEvent({ ...jobEvent, dataset: { name: 'x' } })).toEqual({ ok: true, kind: 'JobEvent', warnings: [] });
    });
  });

  it('accepts a DatasetEvent that also carries a run but no job', () => {
    const { job: _job, ...runOnly } = base;
    expect(validateEvent({ ...runOnly, dataset: { namespace: 'ds', name: 't' } })).toEqual({ ok: true, kind: 'DatasetEvent', warnings: [] });
  });

  it('names the dataset fields of a DatasetEvent', () => {
    const { job: _job, run: _run, ...rest } = base;
    expect(errorOf({ ...rest, dataset: { namespace: 'ds' } })).toBe('dataset.name: is required');
  });
});
