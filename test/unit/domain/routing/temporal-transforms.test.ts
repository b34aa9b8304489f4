/**
 * Iceberg's temporal transforms on literals: which instants a literal can denote for each column
 * type, and the ordinals of year, month, day and hour, before 1970 too.
 */
import { describe, expect, it } from 'vitest';
import { literalInstants, ordinalOf, partitionOrdinal } from '#domain/routing/temporal-transforms';

const HOUR = 3_600_000;
const at = (iso: string): number => Date.parse(iso);

describe('literalInstants', () => {
  it.each([
    ['2024-03-01', 'date', [at('2024-03-01T00:00:00Z'), at('2024-03-01T00:00:00Z')]],
    ['2024-03-01 10:30', 'timestamp', [at('2024-03-01T10:30:00Z'), at('2024-03-01T10:30:00Z')]],
    ['2024-03-01T10:30:15.123456', 'timestamp_ns', [at('2024-03-01T10:30:15Z'), at('2024-03-01T10:30:15Z')]],
    ['2024-03-01 10:00:00-05', 'timestamptz', [at('2024-03-01T15:00:00Z'), at('2024-03-01T15:00:00Z')]],
    ['2024-03-01 10:00:00+0530', 'timestamptz', [at('2024-03-01T04:30:00Z'), at('2024-03-01T04:30:00Z')]],
    ['2024-03-01 10:00:00', 'timestamptz', [at('2024-03-01T10:00:00Z') - 14 * HOUR, at('2024-03-01T10:00:00Z') + 14 * HOUR]],
  ])('Should read %s against a %s column', (literal, columnType, expected) => {
    expect(literalInstants(literal, columnType)).toEqual(expected);
  });

  it.each([
    ['2024-03-01 10:00', 'date'],
    ['2024-03-01+02:00', 'date'],
    ['2024-03-01 10:00+02:00', 'timestamp'],
    ['2024-13-01', 'timestamp'],
    ['2023-02-29', 'timestamp'],
    ['2024-03-01 10:60', 'timestamp'],
    ['2024-03-01 10:00+15:00', 'timestamptz'],
    ['2024-03-01', 'string'],
    ['March 1st', 'timestamp'],
  ])('Should not read %s against a %s column', (literal, columnType) => {
    expect(literalInstants(literal, columnType)).toBeUndefined();
  });
});

describe('ordinalOf and partitionOrdinal', () => {
  it.each([
    ['2024-03-01T01:30:00Z', { year: 54, month: 650, day: 19783, hour: 474793 }],
    ['1970-01-01T00:00:00Z', { year: 0, month: 0, day: 0, hour: 0 }],
    ['1969-12-31T23:30:00Z', { year: -1, month: -1, day: -1, hour: -1 }],
  ])('Should give the ordinals of %s', (iso, expected) => {
    const ms = at(iso);
    expect({ year: ordinalOf(ms, 'year'), month: ordinalOf(ms, 'month'), day: ordinalOf(ms, 'day'), hour: ordinalOf(ms, 'hour') }).toEqual(expected);
  });

  it('Should read day values given as ISO dates or ints, and nothing else', () => {
    expect(partitionOrdinal('2024-03-01', 'day')).toBe(19783);
    expect(partitionOrdinal(19783, 'day')).toBe(19783);
    expect(partitionOrdinal(650, 'month')).toBe(650);
    expect(partitionOrdinal('2024-03', 'month')).toBeUndefined();
    expect(partitionOrdinal(1.5, 'hour')).toBeUndefined();
    expect(partitionOrdinal(null, 'day')).toBeUndefined();
  });
});
