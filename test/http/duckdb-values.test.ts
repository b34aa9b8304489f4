/**
 * How DuckDB values come back as JSON through the legacy endpoint: a number whenever a double
 * carries the value exactly as DuckDB printed it, else a string with the exact digits; ISO 8601
 * for temporal values; base64 for BLOBs; arrays and objects for nested values.
 */
import { describe, expect, inject, it } from 'vitest';
import { warehouseApi } from './warehouse-api.ts';

const stack = inject('stack');
const api = warehouseApi(stack.baseUrl, stack.apiKey);

const one = async (expression: string): Promise<{ value: unknown; type: string }> => {
  const answer = await api.query({ query: `SELECT ${expression} AS v` });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return { value: answer.body.results?.rows[0]?.[0], type: answer.body.results?.column_types[0] as string };
};

describe('JSON values: numbers', () => {
  it.each([
    ['9007199254740991::BIGINT', 9007199254740991, 'BIGINT'],
    ['9007199254740992::BIGINT', '9007199254740992', 'BIGINT'],
    ['-9007199254740993::BIGINT', '-9007199254740993', 'BIGINT'],
    ['42::HUGEINT', 42, 'HUGEINT'],
    ['170141183460469231731687303715884105727::HUGEINT', '170141183460469231731687303715884105727', 'HUGEINT'],
    ['18446744073709551615::UBIGINT', '18446744073709551615', 'UBIGINT'],
    ['7::TINYINT', 7, 'TINYINT'],
    ['1234.50::DECIMAL(15,2)', 1234.5, 'DECIMAL(15,2)'],
    ['0.10::DECIMAL(4,2)', 0.1, 'DECIMAL(4,2)'],
    ['-99999999999.9999::DECIMAL(15,4)', -99999999999.9999, 'DECIMAL(15,4)'],
    ['12345678901234567.89::DECIMAL(38,2)', '12345678901234567.89', 'DECIMAL(38,2)'],
    ['0.1::FLOAT', 0.1, 'FLOAT'],
    ['1.0/3', 1 / 3, 'DOUBLE'],
    ["'NaN'::DOUBLE", 'NaN', 'DOUBLE'],
    ["'-inf'::DOUBLE", '-Infinity', 'DOUBLE'],
  ])('%s → %j (%s)', async (expression, value, type) => {
    // Act
    const got = await one(expression);
    // Assess
    expect(got).toEqual({ value, type });
  });
});

describe('JSON values: text, time and bytes', () => {
  it.each([
    ["'héllo'", 'héllo', 'VARCHAR'],
    ["DATE '2024-02-29'", '2024-02-29', 'DATE'],
    ["TIMESTAMP '2024-03-01 12:34:56.5'", '2024-03-01T12:34:56.5', 'TIMESTAMP'],
    ["TIMESTAMP '2024-03-01 12:34:56'", '2024-03-01T12:34:56', 'TIMESTAMP'],
    ["TIMESTAMPTZ '2024-03-01 12:00:00.123456+02'", '2024-03-01T10:00:00.123456Z', 'TIMESTAMP WITH TIME ZONE'],
    ["'2024-03-01 12:00:00.123456789'::TIMESTAMP_NS", '2024-03-01T12:00:00.123456789', 'TIMESTAMP_NS'],
    ["TIME '01:02:03.25'", '01:02:03.25', 'TIME'],
    ["INTERVAL '1 year 2 months 3 days 04:05:06.7'", 'P1Y2M3DT4H5M6.7S', 'INTERVAL'],
    ["INTERVAL '0 seconds'", 'PT0S', 'INTERVAL'],
    ["'\\xDE\\xAD\\xBE\\xEF'::BLOB", '3q2+7w==', 'BLOB'],
    ["'00000000-0000-4000-8000-000000000001'::UUID", '00000000-0000-4000-8000-000000000001', 'UUID'],
    ['true', true, 'BOOLEAN'],
    ['NULL::INTEGER', null, 'INTEGER'],
  ])('%s → %j (%s)', async (expression, value, type) => {
    // Act
    const got = await one(expression);
    // Assess
    expect(got).toEqual({ value, type });
  });
});

describe('JSON values: nested', () => {
  it.each([
    ['[1, 2, NULL]', [1, 2, null], 'INTEGER[]'],
    ["{'a': 1, 'b': [9007199254740993::BIGINT]}", { a: 1, b: ['9007199254740993'] }, 'STRUCT(a INTEGER, b BIGINT[])'],
    ["MAP {'x': 1.5::DECIMAL(3,1)}", { x: 1.5 }, 'MAP(VARCHAR, DECIMAL(3,1))'],
    ["MAP {1: 'one'}", { '1': 'one' }, 'MAP(INTEGER, VARCHAR)'],
    ['[1, 2]::INTEGER[2]', [1, 2], 'INTEGER[2]'],
    ["union_value(k := 'hi')", 'hi', 'UNION(k VARCHAR)'],
  ])('%s → %j (%s)', async (expression, value, type) => {
    // Act
    const got = await one(expression);
    // Assess
    expect(got.value).toEqual(value);
    expect(got.type.replaceAll('"', '')).toBe(type);
  });
});
