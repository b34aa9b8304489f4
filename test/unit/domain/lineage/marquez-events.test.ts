// Marquez's events path's parameters: after/before as ISO times, sortDirection, limit, offset.
import { describe, expect, it } from 'vitest';
import { MAX_EPOCH_MICROS } from '#domain/lineage/event-time';
import { parseMarquezEventsQuery } from '#domain/lineage/marquez-events';

describe('parseMarquezEventsQuery', () => {
  it("Should read Marquez's parameters, with its defaults: every time, newest first, 100 events", () => {
    expect(parseMarquezEventsQuery({})).toEqual({ startMicros: 0n, endMicros: MAX_EPOCH_MICROS + 1n, sortBy: 'EVENT_TIME', order: 'DESC', limit: 100, offset: 0 });
    expect(parseMarquezEventsQuery({ after: '2024-01-01T00:00:00Z', before: '2024-01-01T01:00:00.5+01:00', sortDirection: 'ASC', limit: '5', offset: '10' })).toEqual({
      startMicros: 1_704_067_200_000_000n,
      endMicros: 1_704_067_200_500_000n,
      sortBy: 'EVENT_TIME',
      order: 'ASC',
      limit: 5,
      offset: 10,
    });
  });

  it('Should read a window that holds no event (before at or before after) as one, not as an error', () => {
    expect(parseMarquezEventsQuery({ after: '2024-01-02T00:00:00Z', before: '2024-01-01T00:00:00Z' })).toMatchObject({ startMicros: 1_704_153_600_000_000n, endMicros: 1_704_067_200_000_000n });
  });

  it.each([
    [{ after: 'yesterday' }, 'after: must be an ISO-8601 date-time with a zone (2024-01-31T12:00:00Z)'],
    [{ before: '' }, 'before: must be an ISO-8601 date-time with a zone (2024-01-31T12:00:00Z)'],
    [{ sortDirection: 'up' }, 'sortDirection: must be asc or desc'],
    [{ limit: '0' }, 'limit: must be an integer between 1 and 1000'],
    [{ offset: '-1' }, `offset: must be an integer between 0 and ${Number.MAX_SAFE_INTEGER}`],
    [{ start: '0' }, 'start: is not a parameter of this endpoint (expected after, before, sortDirection, limit, offset)'],
  ])('Should refuse %j naming the parameter', (params, message) => {
    expect(() => parseMarquezEventsQuery(params)).toThrow(message);
  });
});
