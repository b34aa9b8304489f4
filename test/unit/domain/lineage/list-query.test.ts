// parseListQuery: every parameter of GET /api/v1/events, its default, and every way to get it wrong.
import { describe, expect, it } from 'vitest';
import { ValidationError } from '#domain/errors';
import { MAX_EPOCH_MICROS } from '#domain/lineage/event-time';
import { parseListQuery } from '#domain/lineage/list-query';

const WINDOW = { start: '1600000000', end: '1700000000' };

const refusal = (params: Record<string, string>): string => {
  try {
    parseListQuery(params);
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return (err as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(params)}`);
};

describe('parseListQuery', () => {
  it('Should apply the contract defaults when only start and end are given', () => {
    // Act
    const query = parseListQuery(WINDOW);

    // Assess
    expect(query).toEqual({
      startMicros: 1_600_000_000_000_000n,
      endMicros: 1_700_000_000_000_000n,
      sortBy: 'EVENT_TIME',
      order: 'DESC',
      limit: 30,
      offset: 0,
    });
  });

  it('Should read every parameter', () => {
    // Act
    const query = parseListQuery({
      ...WINDOW,
      sort_by: 'EVENT_SIZE_IN_BYTES',
      order: 'ASC',
      run: 'URN:UUID:3F2504E0-4F89-41D3-9A0C-0305E82C3301',
      states: 'fail, START,,COMPLETE,START',
      namespace: 'ProdNS',
      job: 'Ünïcode_JOB',
      integrations: 'Spark,airflow,spark',
      limit: '1000',
      offset: '29970',
    });

    // Assess
    expect(query).toMatchObject({
      sortBy: 'EVENT_SIZE_IN_BYTES',
      order: 'ASC',
      runId: '3f2504e0-4f89-41d3-9a0c-0305e82c3301',
      states: ['START', 'COMPLETE', 'FAIL'],
      namespace: 'prodns',
      job: 'ünïcode_job',
      integrations: ['spark', 'airflow'],
      limit: 1000,
      offset: 29970,
    });
  });

  it('Should treat an empty namespace or job as no filter', () => {
    // Act
    const query = parseListQuery({ ...WINDOW, namespace: '', job: '' });

    // Assess
    expect(query.namespace).toBeUndefined();
    expect(query.job).toBeUndefined();
  });

  it('Should clamp the window to the storable range', () => {
    // Act
    const query = parseListQuery({ start: '-5', end: '9223372036854775807' });

    // Assess
    expect(query.startMicros).toBe(0n);
    expect(query.endMicros).toBe(MAX_EPOCH_MICROS + 1n);
  });

  it.each([
    [{ end: '1' }, 'start: is required (UNIX epoch seconds)'],
    [{ start: '1' }, 'end: is required (UNIX epoch seconds)'],
    [{ start: '', end: '5' }, 'start: is required (UNIX epoch seconds)'],
    [{ start: '1.5', end: '5' }, 'start: must be an integer (UNIX epoch seconds)'],
    [{ start: '1e9', end: '5' }, 'start: must be an integer (UNIX epoch seconds)'],
    [{ start: '2024-01-01', end: '5' }, 'start: must be an integer (UNIX epoch seconds)'],
    [{ start: '1', end: 'soon' }, 'end: must be an integer (UNIX epoch seconds)'],
    [{ start: '9223372036854775808', end: '5' }, 'start: must be a 64-bit integer (UNIX epoch seconds)'],
    [{ ...WINDOW, sort_by: 'NAME' }, 'sort_by: must be one of EVENT_TIME, EVENT_SIZE_IN_BYTES'],
    [{ ...WINDOW, order: 'UP' }, 'order: must be one of ASC, DESC'],
    [{ ...WINDOW, run: 'run-1' }, 'run: must be a UUID'],
    [{ ...WINDOW, run: '' }, 'run: must be a UUID'],
    [{ ...WINDOW, states: 'START,FOO' }, 'states: FOO is not one of START, RUNNING, COMPLETE, ABORT, FAIL, OTHER'],
    [{ ...WINDOW, states: ' , ' }, 'states: must list at least one of START, RUNNING, COMPLETE, ABORT, FAIL, OTHER'],
    [{ ...WINDOW, integrations: ',' }, 'integrations: must list at least one integration name'],
    [{ ...WINDOW, integrations: Array.from({ length: 101 }, (_, i) => `i${i}`).join(',') }, 'integrations: must list at most 100 names'],
    [{ ...WINDOW, limit: '0' }, 'limit: must be an integer between 1 and 1000'],
    [{ ...WINDOW, limit: '1001' }, 'limit: must be an integer between 1 and 1000'],
    [{ ...WINDOW, limit: 'ten' }, 'limit: must be an integer between 1 and 1000'],
    [{ ...WINDOW, limit: '' }, 'limit: must be an integer between 1 and 1000'],
    [{ ...WINDOW, offset: '-1' }, 'offset: must be a non-negative integer, at most 9007199254740991'],
    [{ ...WINDOW, offset: '9007199254740992' }, 'offset: must be a non-negative integer, at most 9007199254740991'],
    [{ ...WINDOW, offset: '2.0' }, 'offset: must be a non-negative integer, at most 9007199254740991'],
  ])('Should refuse %j with "%s"', (params, message) => {
    // Act & Assess
    expect(refusal(params as Record<string, string>)).toBe(message);
  });

  it('Should refuse an unknown parameter by name, so a typo cannot silently widen the query', () => {
    // Act & Assess
    expect(refusal({ ...WINDOW, state: 'FAIL' })).toMatch(/^state: is not a parameter of this endpoint \(expected start, end, sort_by/);
  });
});
