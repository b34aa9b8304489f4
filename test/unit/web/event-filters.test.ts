/**
 * The events page's filters: read from and written to the URL without loss, and turned into the
 * parameters of `GET /api/v1/events` (every filter of the contract; ranges in epoch seconds).
 */
import { describe, expect, it } from 'vitest';
import { filtersFromSearch, isFiltered, searchFromFilters, toEventsParams } from '../../../web/src/pages/events/event-filters.ts';

describe('event filters', () => {
  it('Should default to all time, newest first, 30 per page', () => {
    const filters = filtersFromSearch(new URLSearchParams());
    expect(isFiltered(filters)).toBe(false);
    expect(searchFromFilters(filters).toString()).toBe('');
    expect(toEventsParams(filters, new Date('2026-01-01T00:00:00Z'))).toEqual({ start: 0, end: 253402300800, sort_by: 'EVENT_TIME', order: 'DESC', limit: 30, offset: 0 });
  });

  it('Should carry every filter of the contract through the URL into the API parameters', () => {
    const search = new URLSearchParams('range=custom&from=2020-09-01T00:00:00Z&to=2020-10-01T00:00:00Z&states=START,FAIL,NOPE&namespace=kitchen&job=pie&run=abc&integrations=spark,airflow&sort_by=EVENT_SIZE_IN_BYTES&order=ASC&limit=100&offset=200');
    const filters = filtersFromSearch(search);
    expect(filters.states).toEqual(['START', 'FAIL']);
    expect(isFiltered(filters)).toBe(true);
    expect(filtersFromSearch(searchFromFilters(filters))).toEqual(filters);
    expect(toEventsParams(filters, new Date())).toEqual({
      start: Date.UTC(2020, 8, 1) / 1000,
      end: Date.UTC(2020, 9, 1) / 1000,
      sort_by: 'EVENT_SIZE_IN_BYTES',
      order: 'ASC',
      limit: 100,
      offset: 200,
      states: 'START,FAIL',
      namespace: 'kitchen',
      job: 'pie',
      run: 'abc',
      integrations: 'spark,airflow',
    });
  });

  it('Should measure relative ranges from now, end exclusive just after it', () => {
    const now = new Date('2026-03-01T12:00:00Z');
    const params = toEventsParams(filtersFromSearch(new URLSearchParams('range=24h')), now);
    expect(Number(params.end) - Number(params.start)).toBe(86_400 + 1);
    expect(Number(params.end)).toBe(now.getTime() / 1000 + 1);
  });
});
