/**
 * Table references of routed SQL rewritten to the plain aliases a polars context registers: every
 * spelling of an input table, its qualified columns, and nothing else (literals, comments, other
 * names, column references that only look alike).
 */
import { describe, expect, it } from 'vitest';
import { aliasTables, polarsAlias } from '#domain/routing/table-aliases';

const nation = { namespace: 'tpch', table: 'nation' };

describe('aliasTables', () => {
  it.each([
    ['SELECT n_name FROM tpch.nation', 'SELECT n_name FROM tpch__nation'],
    ['SELECT n_name FROM lakeline.tpch.nation AS n', 'SELECT n_name FROM tpch__nation AS n'],
    ['SELECT tpch.nation.n_name FROM TPCH."nation"', 'SELECT tpch__nation.n_name FROM tpch__nation'],
    ["SELECT 'tpch.nation' AS s /* tpch.nation */ FROM tpch.nation", "SELECT 'tpch.nation' AS s /* tpch.nation */ FROM tpch__nation"],
    ['SELECT x.tpch FROM tpch.region x', 'SELECT x.tpch FROM tpch.region x'],
    ['SELECT * FROM tpch.nation JOIN tpch.region ON n_regionkey = r_regionkey', 'SELECT * FROM tpch__nation JOIN tpch__region ON n_regionkey = r_regionkey'],
  ])('Should rewrite %s', (sql, expected) => {
    expect(aliasTables(sql, 'polars', [nation, ...(sql.includes('JOIN') ? [{ namespace: 'tpch', table: 'region' }] : [])])).toBe(expected);
  });

  it('Should name the alias after namespace and table', () => {
    expect(polarsAlias({ namespace: 'Sales', table: 'Orders' })).toBe('sales__orders');
  });
});
