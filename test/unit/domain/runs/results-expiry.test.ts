/**
 * Expiry of results tables: only `lakeline_results` tables, of every org, older than the retention
 * by their metadata's `last-updated-ms`; one table's failure is reported and does not stop the sweep.
 */
import { describe, expect, it } from 'vitest';
import type { CatalogTable } from '#domain/lake/ports';
import type { TableName } from '#domain/core/names';
import type { Org } from '#domain/orgs/org';
import { expireResultTables, retentionMs, type ResultsExpiryDeps } from '#domain/runs/results-expiry';

const NOW = new Date('2026-11-23T12:00:00Z');
const DAY = 86_400_000;

/** A catalog of tables with their last-updated times, and a writer that records drops. */
const lake = (tables: Record<string, { name: TableName; updatedMs: number | 'broken' }[]>, dropFails: string[] = []) => {
  const drops: string[] = [];
  const metadata = new Map<string, string>();
  const catalogTables = (orgId: string): CatalogTable[] =>
    (tables[orgId] ?? []).map(({ name, updatedMs }) => {
      const location = `file:///wh/${orgId}/${name.namespace}/${name.table}/metadata/1.metadata.json`;
      metadata.set(location, updatedMs === 'broken' ? '{"format-version": 2}' : JSON.stringify({ 'format-version': 2, 'last-updated-ms': updatedMs }));
      return { ...name, metadataLocation: location };
    });
  const deps: ResultsExpiryDeps = {
    orgs: { list: async () => Object.keys(tables).map((orgId) => ({ orgId }) as Org) },
    catalog: { listTables: async (orgId, namespace) => catalogTables(orgId).filter((t) => namespace === undefined || t.namespace === namespace) },
    storage: { readText: async (uri) => metadata.get(uri) ?? '' },
    writer: {
      drop: async (orgId, name, options) => {
        const key = `${orgId}/${name.namespace}.${name.table}`;
        if (!options?.purge) throw new Error('results tables must be purged, not only forgotten');
        if (dropFails.includes(key)) throw new Error('the lake writer is unavailable');
        drops.push(key);
        return true;
      },
    },
  };
  return { deps, drops };
};

const results = (table: string) => ({ namespace: 'lakeline_results', table });

describe('expireResultTables', () => {
  it('Should drop the results tables older than the retention, of every org, and keep the rest', async () => {
    // Prepare
    const { deps, drops } = lake({
      a: [
        { name: results('r_old'), updatedMs: NOW.getTime() - 8 * DAY },
        { name: results('r_new'), updatedMs: NOW.getTime() - 1 * DAY },
      ],
      b: [{ name: results('r_old'), updatedMs: NOW.getTime() - 30 * DAY }],
    });
    // Act
    const report = await expireResultTables(deps, NOW, retentionMs(7));
    // Assess
    expect(drops).toEqual(['a/lakeline_results.r_old', 'b/lakeline_results.r_old']);
    expect(report).toEqual({ dropped: ['a/lakeline_results.r_old', 'b/lakeline_results.r_old'], kept: 1, failed: [] });
  });

  it('Should never touch a table outside lakeline_results, however old', async () => {
    // Prepare
    const { deps, drops } = lake({ a: [{ name: { namespace: 'tpch', table: 'orders' }, updatedMs: 0 }] });
    // Act
    const report = await expireResultTables(deps, NOW, retentionMs(7));
    // Assess
    expect(drops).toEqual([]);
    expect(report).toEqual({ dropped: [], kept: 0, failed: [] });
  });

  it('Should keep a table changed exactly at the cutoff', async () => {
    const { deps, drops } = lake({ a: [{ name: results('r_edge'), updatedMs: NOW.getTime() - 7 * DAY }] });
    await expireResultTables(deps, NOW, retentionMs(7));
    expect(drops).toEqual([]);
  });

  it('Should report a table it cannot read or drop and go on with the others', async () => {
    // Prepare
    const { deps, drops } = lake(
      {
        a: [
          { name: results('r_broken'), updatedMs: 'broken' },
          { name: results('r_stuck'), updatedMs: 0 },
          { name: results('r_old'), updatedMs: 0 },
        ],
      },
      ['a/lakeline_results.r_stuck'],
    );
    // Act
    const report = await expireResultTables(deps, NOW, retentionMs(7));
    // Assess
    expect(drops).toEqual(['a/lakeline_results.r_old']);
    expect(report.failed).toEqual([
      { table: 'a/lakeline_results.r_broken', error: 'the table metadata has no last-updated-ms' },
      { table: 'a/lakeline_results.r_stuck', error: 'the lake writer is unavailable' },
    ]);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('Should refuse a retention of %s days', (days) => {
    expect(() => retentionMs(days)).toThrow(RangeError);
  });
});
