// parseEventTime, formatUtcMicros and sortableTime: exact microsecond instants, fixed-width output.
import { describe, expect, it } from 'vitest';
import { ValidationError } from '#domain/errors';
import { InvalidEventError } from '#domain/lineage/errors';
import {
  epochMicrosOfDate,
  eventTimeProblem,
  formatUtcMicros,
  MAX_EPOCH_MICROS,
  MIN_EPOCH_MICROS,
  parseEventTime,
  sortableTime,
  SORTABLE_TIME_WIDTH,
} from '#domain/lineage/event-time';

describe('parseEventTime', () => {
  it.each([
    // [input, normalized UTC]
    ['2021-11-03T10:53:52.427343123Z', '2021-11-03T10:53:52.427343+00:00'],
    ['2021-11-03T10:53:52.427343Z', '2021-11-03T10:53:52.427343+00:00'],
    ['2021-11-03T10:53:52.4Z', '2021-11-03T10:53:52.400000+00:00'],
    ['2021-11-03T10:53:52Z', '2021-11-03T10:53:52.000000+00:00'],
    ['2020-02-22T22:42:42.000', '2020-02-22T22:42:42.000000+00:00'],
    ['2020-12-28T19:51:01.641499', '2020-12-28T19:51:01.641499+00:00'],
    ['2020-12-28T19:52:00.001+10:00', '2020-12-28T09:52:00.001000+00:00'],
    ['2020-12-28T19:52:00.001+1000', '2020-12-28T09:52:00.001000+00:00'],
    ['2020-12-28T19:52:00.001+10', '2020-12-28T09:52:00.001000+00:00'],
    ['2020-12-28T19:52:00.001-05:30', '2020-12-29T01:22:00.001000+00:00'],
    ['2020-12-28T19:52:00.001+00:00', '2020-12-28T19:52:00.001000+00:00'],
    ['2020-12-28t19:52:00z', '2020-12-28T19:52:00.000000+00:00'],
    ['2020-12-28 19:52:00Z', '2020-12-28T19:52:00.000000+00:00'],
  ])('reads %s as %s', (text, iso) => {
    expect(parseEventTime(text).iso).toBe(iso);
  });

  describe('offsets that cross midnight', () => {
    it.each([
      ['2020-12-31T23:30:00-01:00', '2021-01-01T00:30:00.000000+00:00'],
      ['2021-01-01T00:30:00+01:00', '2020-12-31T23:30:00.000000+00:00'],
      ['2021-03-01T00:15:00+01:00', '2021-02-28T23:15:00.000000+00:00'],
      ['2020-03-01T00:15:00+01:00', '2020-02-29T23:15:00.000000+00:00'],
      ['2020-02-28T23:59:59.999999-00:01', '2020-02-29T00:00:59.999999+00:00'],
    ])('moves %s to %s', (text, iso) => {
      expect(parseEventTime(text).iso).toBe(iso);
    });
  });

  describe('leap days', () => {
    it.each(['2020-02-29T12:00:00Z', '2000-02-29T12:00:00Z', '2400-02-29T12:00:00Z'])('accepts %s', (text) => {
      expect(parseEventTime(text).iso).toBe(`${text.slice(0, 19)}.000000+00:00`);
    });

    it.each(['2021-02-29T12:00:00Z', '2100-02-29T12:00:00Z', '2023-04-31T00:00:00Z'])('refuses %s', (text) => {
      expect(eventTimeProblem(text)).toBe('must be a date-time');
    });
  });

  it('keeps microseconds and truncates nanoseconds rather than rounding into the next day', () => {
    // Act
    const time = parseEventTime('2021-12-31T23:59:59.9999999999Z');
    // Assess
    expect(time).toEqual({ epochMicros: 1_640_995_199_999_999n, iso: '2021-12-31T23:59:59.999999+00:00' });
  });

  it('computes exact epoch microseconds', () => {
    expect(parseEventTime('2021-11-03T10:53:52.427343123Z').epochMicros).toBe(1_635_936_832_427_343n);
    expect(parseEventTime('1970-01-01T00:00:00Z').epochMicros).toBe(0n);
    expect(parseEventTime('9999-12-31T23:59:59.999999Z').epochMicros).toBe(MAX_EPOCH_MICROS);
  });

  it('reads a zone-less time as UTC', () => {
    expect(parseEventTime('2020-02-22T22:42:42').epochMicros).toBe(parseEventTime('2020-02-22T22:42:42Z').epochMicros);
  });

  describe('leap seconds', () => {
    it('accepts 23:59:60 UTC and stores the first instant of the next minute', () => {
      expect(parseEventTime('2016-12-31T23:59:60Z').iso).toBe('2017-01-01T00:00:00.000000+00:00');
    });

    it('accepts a leap second written in another zone', () => {
      expect(parseEventTime('2017-01-01T00:59:60+01:00').iso).toBe('2017-01-01T00:00:00.000000+00:00');
    });

    it('refuses second 60 at any other minute', () => {
      expect(eventTimeProblem('2016-12-31T12:00:60Z')).toBe('must be a date-time');
    });
  });

  it.each([
    '',
    'yesterday',
    '2020-01-01',
    '2020-01-01T00:00Z',
    '2020-13-01T00:00:00Z',
    '2020-00-10T00:00:00Z',
    '2020-01-00T00:00:00Z',
    '2020-01-01T24:00:00Z',
    '2020-01-01T00:60:00Z',
    '2020-01-01T00:00:61Z',
    '2020-01-01T00:00:00+24:00',
    '2020-01-01T00:00:00+01:60',
    '2020-01-01T00:00:00.Z',
    '2020-01-01T00:00:00 Z',
    '20200101T000000Z',
    '+002020-01-01T00:00:00Z',
    '２０２０-01-01T00:00:00Z',
  ])('refuses %j as not a date-time', (text) => {
    expect(eventTimeProblem(text)).toBe('must be a date-time');
  });

  it.each([
    '1969-12-31T23:59:59.999999Z',
    '1970-01-01T00:30:00+01:00',
    '0099-01-01T00:00:00Z',
    '0000-01-01T00:00:00Z',
    '9999-12-31T23:30:00-01:00',
  ])('refuses %s as outside 1970..9999 UTC', (text) => {
    expect(eventTimeProblem(text)).toBe('must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999999Z');
  });

  it('throws an InvalidEventError naming the field', () => {
    // Act
    const attempt = () => parseEventTime('nope', 'run.facets.nominalTime.nominalStartTime');
    // Assess
    expect(attempt).toThrow(InvalidEventError);
    expect(attempt).toThrow(ValidationError);
    expect(attempt).toThrow('run.facets.nominalTime.nominalStartTime: must be a date-time');
  });

  it('names eventTime by default', () => {
    expect(() => parseEventTime('1960-01-01T00:00:00Z')).toThrow(
      'eventTime: must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999999Z',
    );
  });

  it('agrees with Date on a thousand random instants', () => {
    // Prepare: deterministic pseudo-random milliseconds over the whole range.
    let seed = 42;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    for (let i = 0; i < 1_000; i++) {
      const millis = Math.floor(next() * 253_402_300_799_999);
      const iso = new Date(millis).toISOString();
      // Act
      const time = parseEventTime(iso);
      // Assess
      expect(time.epochMicros).toBe(BigInt(millis) * 1_000n);
      expect(time.iso).toBe(`${iso.slice(0, 23)}000+00:00`);
    }
  });
});

describe('formatUtcMicros', () => {
  it('formats the ends of the range', () => {
    expect(formatUtcMicros(MIN_EPOCH_MICROS)).toBe('1970-01-01T00:00:00.000000+00:00');
    expect(formatUtcMicros(MAX_EPOCH_MICROS)).toBe('9999-12-31T23:59:59.999999+00:00');
  });

  it('refuses instants outside the range', () => {
    expect(() => formatUtcMicros(-1n)).toThrow(RangeError);
    expect(() => formatUtcMicros(MAX_EPOCH_MICROS + 1n)).toThrow(RangeError);
  });
});

describe('sortableTime', () => {
  it('zero-pads to a fixed width', () => {
    expect(sortableTime(0n)).toBe('0'.repeat(SORTABLE_TIME_WIDTH));
    expect(sortableTime(1_635_936_832_427_343n)).toBe('001635936832427343');
    expect(sortableTime(MAX_EPOCH_MICROS)).toBe('253402300799999999');
    expect(sortableTime(MAX_EPOCH_MICROS)).toHaveLength(SORTABLE_TIME_WIDTH);
  });

  it('sorts as the instants do, across digit-count boundaries', () => {
    // Prepare
    const instants = [MAX_EPOCH_MICROS, 1_000_000n, 999_999n, 0n, 10n, 9n, 1_635_936_832_427_343n];
    // Act
    const byString = [...instants].sort((a, b) => (sortableTime(a) < sortableTime(b) ? -1 : 1));
    // Assess
    expect(byString).toEqual([...instants].sort((a, b) => (a < b ? -1 : 1)));
  });

  it('refuses instants outside the range', () => {
    expect(() => sortableTime(-1n)).toThrow(RangeError);
    expect(() => sortableTime(MAX_EPOCH_MICROS + 1n)).toThrow(RangeError);
  });
});

describe('epochMicrosOfDate', () => {
  it('converts milliseconds to microseconds', () => {
    expect(epochMicrosOfDate(new Date('2024-05-01T12:00:00.123Z'))).toBe(1_714_564_800_123_000n);
  });

  it('refuses an invalid Date', () => {
    expect(() => epochMicrosOfDate(new Date('nope'))).toThrow(RangeError);
  });
});
