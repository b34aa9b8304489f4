/**
 * The lineage tables' domain: an event as a row (typed statistics facets, the error message, the
 * raw event), the subscriber's batching into lake writer requests, and the scheduled upkeep.
 */
import { describe, expect, it } from 'vitest';
import { feedMarkOf } from '#domain/feed/marks';
import { lineageTablesSubscriber, requestParts } from '#domain/lineage-tables/feed-subscriber';
import { firstDayKept, maintainLineageTables } from '#domain/lineage-tables/maintenance';
import type { CompactionOutcome, ExportOutcome, LineageTablesStore } from '#domain/lineage-tables/ports';
import { runEventRow, type RunEventRow } from '#domain/lineage-tables/rows';
import { newRunId, runEventJson, stored } from '../lineage-graph/events.ts';

const outputStats = (stats: Record<string, unknown>) => ({ namespace: 's3://b', name: 't', outputFacets: { outputStatistics: { _producer: 'p', _schemaURL: 's', ...stats } } });

/** A store that records what it was asked (the real one is the lake writer, tested in pytest and through HTTP). */
const recordingStore = (failFor = new Set<string>()) => {
  const exports: { orgId: string; rows: readonly RunEventRow[]; mark: string }[] = [];
  const calls: string[] = [];
  const store: LineageTablesStore = {
    export: async (orgId, rows, mark): Promise<ExportOutcome> => {
      exports.push({ orgId, rows, mark });
      return { appended: rows.length, runsWritten: 0, mark };
    },
    exportedMark: async () => '',
    compact: async (orgId): Promise<CompactionOutcome> => {
      calls.push(`compact ${orgId}`);
      if (failFor.has(orgId)) throw new Error('lake writer failed');
      return { days: 1, filesRewritten: 3, runsRewritten: false, snapshotsExpired: 2 };
    },
    expire: async (orgId, before) => void calls.push(`expire ${orgId} ${before}`),
    drop: async () => [],
  };
  return { store, exports, calls };
};

describe('runEventRow', () => {
  it('Should type the statistics facets the spec fixes and leave others null', () => {
    // Prepare
    const raw = runEventJson({ eventType: 'COMPLETE', time: '2026-03-01T00:00:00Z', runId: newRunId(), job: 'j' });
    const event = stored({
      ...raw,
      run: { ...(raw.run as object), facets: { errorMessage: { _producer: 'p', _schemaURL: 's', message: 'boom', programmingLanguage: 'python' } } },
      inputs: [{ namespace: 'pg', name: 'orders', inputFacets: { inputStatistics: { _producer: 'p', _schemaURL: 's', rowCount: 5, size: 50 } } }],
      outputs: [outputStats({ rowCount: 7, size: 70, fileCount: 1 }), outputStats({ rowCount: '7', size: -1 })],
    });
    // Act
    const row = runEventRow(event);
    // Assess
    expect(row.inputs).toEqual([{ namespace: 'pg', name: 'orders', row_count: 5, bytes: 50, file_count: null }]);
    expect(row.outputs).toEqual([
      { namespace: 's3://b', name: 't', row_count: 7, bytes: 70, file_count: 1 },
      { namespace: 's3://b', name: 't', row_count: null, bytes: null, file_count: null },
    ]);
    expect(row).toMatchObject({ error_message: 'boom', event_id: event.id, mark: feedMarkOf(event), event_type: 'COMPLETE', event_kind: 'RunEvent' });
    expect(JSON.parse(row.event)).toEqual(event.event_raw);
  });
});

describe('the lineage tables subscriber', () => {
  it('Should export a batch in stored order, split under the request limit, each part with the mark of its last row', async () => {
    // Prepare
    const events = Array.from({ length: 5 }, (_, i) =>
      stored(runEventJson({ eventType: 'START', time: `2026-03-01T00:00:0${i}Z`, runId: newRunId(), job: `j${i}` })),
    ).map((e, i) => ({ ...e, received_at: `2026-03-01T00:00:0${4 - i}.000000+00:00` }));
    const { store, exports } = recordingStore();
    const oneRow = Buffer.byteLength(JSON.stringify(runEventRow(events[0] as (typeof events)[0])));
    // Act
    const parts = requestParts(events.map(runEventRow), oneRow * 2 + 10);
    await lineageTablesSubscriber(() => store).handle('org', events);
    // Assess
    expect(parts.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(exports).toHaveLength(1);
    const marks = exports[0]?.rows.map((r) => r.mark) ?? [];
    expect(marks).toEqual([...marks].sort());
    expect(exports[0]?.mark).toBe(marks[marks.length - 1]);
  });
});

describe('maintainLineageTables', () => {
  it("Should compact every org, expire before the retention's first day, and go on past an org that fails", async () => {
    // Prepare
    const { store, calls } = recordingStore(new Set(['b']));
    const orgs = { list: async () => [{ orgId: 'a' }, { orgId: 'b' }, { orgId: 'c' }] } as never;
    // Act
    const report = await maintainLineageTables({ orgs, tables: store }, new Date('2026-03-31T12:00:00Z'), 30);
    // Assess
    expect(firstDayKept(new Date('2026-03-31T12:00:00Z'), 30)).toBe('2026-03-01');
    expect(calls).toEqual(['expire a 2026-03-01', 'compact a', 'expire b 2026-03-01', 'compact b', 'expire c 2026-03-01', 'compact c']);
    expect(report.compacted.map((c) => c.orgId)).toEqual(['a', 'c']);
    expect(report.failed).toEqual([{ orgId: 'b', error: 'lake writer failed' }]);
  });
});
