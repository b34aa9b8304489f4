// deriveStoredEvent: every field of the contract's "Stored lineage event", from the reference events.
import { describe, expect, it } from 'vitest';
import { deriveStoredEvent, prepareEvent, toPublicEvent } from '#domain/lineage/derive';
import { InvalidEventError } from '#domain/lineage/errors';
import { eventId } from '#domain/lineage/event-id';
import { validateEvent } from '#domain/lineage/validate';
import { example, loadExamples } from './examples.ts';

const RECEIVED_AT = new Date('2024-05-01T12:00:00.123Z');
const RECEIVED_ISO = '2024-05-01T12:00:00.123000+00:00';

/** The contract's table, in its order. */
const CONTRACT_FIELDS = [
  'id',
  'run_id',
  'run_state',
  'received_at',
  'job_name',
  'job_namespace',
  'event_time',
  'event_schema',
  'event_schema_version',
  'event_size_in_bytes',
  'event_raw',
  'produced_by',
  'integration',
  'integration_version',
  'parent_run_id',
  'parent_job_namespace',
  'parent_job_name',
  'inputs',
  'outputs',
];

const CLIENT_PRODUCER = 'https://github.com/OpenLineage/OpenLineage/blob/v1-0-0/client';
const PYTHON_PRODUCER = 'https://github.com/OpenLineage/OpenLineage/tree/0.0.1/client/python';

/** A deep copy with every object's keys in reverse order. */
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reverseKeys(v)]));
}

function derive(name: string) {
  const { json, bytes } = example(name);
  return { json, bytes, stored: deriveStoredEvent(json, bytes, RECEIVED_AT) };
}

describe('deriveStoredEvent', () => {
  const accepted = loadExamples().filter((e) => validateEvent(JSON.parse(e.text)).ok);

  it.each(accepted.map((e) => [e.name]))('derives %s with every contract field', (name) => {
    // Act
    const { stored, bytes, json } = derive(name);
    // Assess
    expect(Object.keys(toPublicEvent(stored)).sort()).toEqual([...CONTRACT_FIELDS].sort());
    expect(stored.event_size_in_bytes).toBe(bytes);
    expect(stored.event_raw).toBe(json);
    expect(stored.received_at).toBe(RECEIVED_ISO);
    expect(stored.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // The definition named in the schemaURL fragment, when there is one, is the detected kind.
    const fragment = /#\/(?:\$defs|definitions)\/(\w+)$/.exec(String(json.schemaURL))?.[1];
    if (fragment !== undefined) expect(stored.event_schema).toBe(fragment);
  });

  it('derives the Marquez full event', () => {
    // Act
    const { stored, json, bytes } = derive('marquez/event_full.json');
    // Assess
    expect(toPublicEvent(stored)).toEqual({
      id: eventId(json),
      run_id: 'ea041791-68bc-4ae1-bd89-4c8106a157e4',
      run_state: 'COMPLETE',
      received_at: RECEIVED_ISO,
      job_name: 'myjob.mytask',
      job_namespace: 'my-scheduler-namespace',
      event_time: '2020-12-28T19:51:01.641000+00:00',
      event_schema: 'RunEvent',
      event_schema_version: '1-0-1',
      event_size_in_bytes: bytes,
      event_raw: json,
      produced_by: CLIENT_PRODUCER,
      integration: 'client',
      integration_version: '1-0-0',
      parent_run_id: '3f5e83fa-3480-44ff-99c5-ff943904e5e8',
      parent_job_namespace: 'my-scheduler-namespace',
      parent_job_name: 'myjob.mytask',
      inputs: [{ namespace: 'my-datasource-namespace', name: 'instance.schema.table' }],
      outputs: [{ namespace: 'my-datasource-namespace', name: 'instance.schema.table' }],
    });
  });

  it('adds the index fields the store keys and filters on', () => {
    const { stored } = derive('marquez/event_full.json');
    expect({
      epochMicros: stored.epochMicros,
      eventTimeKey: stored.eventTimeKey,
      jobNameFolded: stored.jobNameFolded,
      jobNamespaceFolded: stored.jobNamespaceFolded,
      integrationFolded: stored.integrationFolded,
    }).toEqual({
      epochMicros: 1_609_185_061_641_000n,
      eventTimeKey: '001609185061641000',
      jobNameFolded: 'myjob.mytask',
      jobNamespaceFolded: 'my-scheduler-namespace',
      integrationFolded: 'client',
    });
  });

  it('derives the OpenLineage client full event, whose schemaURL has no version', () => {
    const { stored } = derive('client/example_full_event.json');
    expect(stored).toMatchObject({
      run_id: 'ea041791-68bc-4ae1-bd89-4c8106a157e4',
      run_state: 'COMPLETE',
      event_time: '2020-12-28T19:51:01.641000+00:00',
      event_schema: 'RunEvent',
      event_schema_version: '',
      produced_by: CLIENT_PRODUCER,
      integration: 'client',
      integration_version: '1-0-0',
      parent_run_id: '3f5e83fa-3480-44ff-99c5-ff943904e5e8',
      parent_job_namespace: 'my-scheduler-namespace',
      parent_job_name: 'myjob.mytask',
      inputs: [{ namespace: 'my-datasource-namespace', name: 'instance.schema.table' }],
      outputs: [{ namespace: 'my-datasource-namespace', name: 'instance.schema.table' }],
    });
  });

  it('derives a DatasetEvent: no run, no job, its dataset as the output', () => {
    const { stored } = derive('marquez/event_dataset_event.json');
    expect(stored).toMatchObject({
      run_id: null,
      run_state: 'OTHER',
      job_name: null,
      job_namespace: null,
      event_time: '2020-12-28T09:52:00.001000+00:00',
      event_schema: 'DatasetEvent',
      event_schema_version: '2-8-9',
      parent_run_id: null,
      parent_job_namespace: null,
      parent_job_name: null,
      inputs: [],
      outputs: [{ namespace: 'my-dataset-namespace', name: 'my-dataset-name' }],
      jobNameFolded: '',
      jobNamespaceFolded: '',
    });
  });

  it('derives the Python client DatasetEvent with its zone-less time and $defs schemaURL', () => {
    const { stored } = derive('client/serde_example_dataset_event.json');
    expect(stored).toMatchObject({
      event_time: '2021-11-03T10:53:52.427343+00:00',
      event_schema: 'DatasetEvent',
      event_schema_version: '2-0-0',
      integration: 'python',
      integration_version: '0.0.1',
      produced_by: PYTHON_PRODUCER,
      outputs: [{ namespace: 'openlineage', name: 'name' }],
    });
  });

  it('derives a JobEvent: its job and datasets, no run, OTHER even though it carries an eventType', () => {
    const { stored } = derive('marquez/event_job_event.json');
    expect(stored).toMatchObject({
      run_id: null,
      run_state: 'OTHER',
      job_name: 'myjob',
      job_namespace: 'my-scheduler-namespace',
      event_schema: 'JobEvent',
      event_schema_version: '1-0-1',
      parent_run_id: null,
      inputs: [{ namespace: 'my-datasource-namespace', name: 'instance.schema.input-1' }],
      outputs: [{ namespace: 'my-datasource-namespace', name: 'instance.schema.output-1' }],
    });
  });

  it('keeps a parent facet whose run has no runId, without a parent_run_id', () => {
    const { stored } = derive('fluentd/event_invalid_run_facet.json');
    expect(stored).toMatchObject({ parent_run_id: null, parent_job_namespace: 'parent_namespace', parent_job_name: 'parent_name' });
  });

  it('stores a RunEvent without eventType as OTHER', () => {
    const { stored } = derive('marquez/event_required_only.json');
    expect(stored).toMatchObject({ run_state: 'OTHER', inputs: [], outputs: [], event_time: '2020-12-28T19:51:01.641000+00:00' });
  });

  it('keeps the microseconds of the Marquez nanoseconds event', () => {
    const { stored } = derive('marquez/event_required_nanoseconds.json');
    expect([stored.event_time, stored.epochMicros]).toEqual(['2020-12-28T19:51:01.641499+00:00', 1_609_185_061_641_499n]);
  });

  it('truncates nine fractional digits to microseconds', () => {
    // Prepare
    const { json } = example('marquez/event_required_nanoseconds.json');
    // Act
    const stored = deriveStoredEvent({ ...json, eventTime: '2021-11-03T10:53:52.427343123Z' }, 1, RECEIVED_AT);
    // Assess
    expect(stored.event_time).toBe('2021-11-03T10:53:52.427343+00:00');
  });

  it('reads the Marquez no-timezone event as UTC', () => {
    const { stored } = derive('marquez/event_required_no_timezone.json');
    expect(stored.event_time).toBe('2020-12-28T19:51:01.641499+00:00');
  });

  it('keeps unicode job names as sent and folds them for search', () => {
    const { stored } = derive('marquez/event_unicode.json');
    expect([stored.job_name, stored.jobNameFolded]).toEqual(['myjob.buggy_task🕷', 'myjob.buggy_task🕷']);
  });

  it('folds job names and namespaces case-insensitively', () => {
    // Prepare
    const { json } = example('marquez/event_simple.json');
    // Act
    const stored = deriveStoredEvent({ ...json, job: { namespace: 'Prod-ÉTL', name: 'Daily.Load' } }, 1, RECEIVED_AT);
    // Assess
    expect([stored.job_namespace, stored.jobNamespaceFolded, stored.jobNameFolded]).toEqual(['Prod-ÉTL', 'prod-étl', 'daily.load']);
  });

  it('lists the inputs of the apple filling in order', () => {
    const { stored } = derive('marquez/apples/8_apple_filling.json');
    expect(stored).toMatchObject({
      event_schema_version: '',
      inputs: [
        { namespace: 'grandmas.kitchen', name: 'apples' },
        { namespace: 'grandmas.kitchen', name: 'cinnamon' },
        { namespace: 'cupboard', name: 'sugar' },
      ],
      outputs: [{ namespace: 'grandmas.kitchen', name: 'apple.filling' }],
    });
  });

  it('stores run ids in one form: lower case, without urn:uuid', () => {
    // Prepare
    const { json } = example('marquez/event_simple.json');
    // Act
    const stored = deriveStoredEvent({ ...json, run: { runId: 'URN:UUID:41FB5137-F0FD-4EE5-BA5C-56F8571D1BD7' } }, 1, RECEIVED_AT);
    // Assess
    expect(stored.run_id).toBe('41fb5137-f0fd-4ee5-ba5c-56f8571d1bd7');
  });

  it('takes the integration from the processing_engine facet when the producer names none', () => {
    // Prepare
    const { json } = example('marquez/event_simple.json');
    const facets = {
      processing_engine: { _producer: 'urn:p', _schemaURL: 'urn:s', name: 'Spark', version: '3.5.1', openlineageAdapterVersion: '1.19.0' },
    };
    const event = { ...json, producer: 'urn:lakeline:test', run: { runId: '41fb5137-f0fd-4ee5-ba5c-56f8571d1bd7', facets } };
    // Act
    const stored = deriveStoredEvent(event, 1, RECEIVED_AT);
    // Assess
    expect([stored.integration, stored.integration_version, stored.integrationFolded]).toEqual(['spark', '1.19.0', 'spark']);
  });

  it('validates the event itself when no kind is given', () => {
    const { json } = example('fluentd/event_no_run_id.json');
    expect(() => deriveStoredEvent(json, 1, RECEIVED_AT)).toThrow(InvalidEventError);
    expect(() => deriveStoredEvent(json, 1, RECEIVED_AT)).toThrow('run.runId: is required');
  });

  it.each([-1, 1.5, Number.NaN])('refuses rawBytes %s', (rawBytes) => {
    const { json } = example('marquez/event_simple.json');
    expect(() => deriveStoredEvent(json, rawBytes, RECEIVED_AT)).toThrow(RangeError);
  });

  it('refuses an invalid receivedAt', () => {
    const { json } = example('marquez/event_simple.json');
    expect(() => deriveStoredEvent(json, 1, new Date('nope'))).toThrow(RangeError);
  });
});

describe('ids', () => {
  it('gives the same event the same id whatever its key order and formatting', () => {
    // Prepare
    const { text, json } = example('marquez/event_full.json');
    const reordered = reverseKeys(json) as object;
    const compact = JSON.parse(JSON.stringify(JSON.parse(text))) as object;
    expect(JSON.stringify(reordered)).not.toBe(JSON.stringify(json));
    // Act
    const ids = [json, reordered, compact].map((e) => deriveStoredEvent(e, 1, RECEIVED_AT).id);
    // Assess
    expect(new Set(ids).size).toBe(1);
  });

  it('gives the same id whenever and however large the event arrived', () => {
    const { json } = example('marquez/event_full.json');
    const first = deriveStoredEvent(json, 100, new Date('2024-01-01T00:00:00Z'));
    const again = deriveStoredEvent(json, 200, new Date('2024-06-01T00:00:00Z'));
    expect(first.id).toBe(again.id);
  });

  it('gives distinct events distinct ids', () => {
    // Prepare: the START and COMPLETE of one run differ only in eventType and eventTime.
    const ids = ['fluentd/test-start.json', 'fluentd/test-complete.json'].map((name) => derive(name).stored.id);
    // Assess
    expect(ids[0]).not.toBe(ids[1]);
  });
});

describe('prepareEvent', () => {
  it('returns the derived event of a valid document', () => {
    const { json, bytes } = example('marquez/event_job_event.json');
    const prepared = prepareEvent(json, bytes, RECEIVED_AT);
    expect(prepared.ok && prepared.event.event_schema).toBe('JobEvent');
  });

  it('returns the validation error of an invalid document', () => {
    expect(prepareEvent([], 2, RECEIVED_AT)).toEqual({ ok: false, field: 'event', error: 'event: must be a JSON object, not an array' });
  });
});

describe('toPublicEvent', () => {
  it('drops exactly the index fields', () => {
    const { stored } = derive('marquez/event_full.json');
    const fields = Object.keys(toPublicEvent(stored));
    expect(fields).toEqual(CONTRACT_FIELDS);
  });
});
