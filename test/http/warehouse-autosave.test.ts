/**
 * `autoSaveByHash` through the local gateway: the first call runs the query and saves its result
 * as the Iceberg table `autosave.<job name>`; later calls answer from that table without running
 * the query, which the test proves by changing the underlying table in between (the cached rows
 * still come back, and `x-lakeline-cache` says `hit`), and lineage names the saved table.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { specProblems } from '../unit/domain/query/openlineage-spec.ts';
import { buildTables, freshOrg, type QueryAnswerBody, type Answer, type WarehouseApi } from './warehouse-api.ts';

const QUERY = 'SELECT n, n * 10 AS tenfold, DATE \'2024-02-29\' AS day, 12345678901234567890::HUGEINT AS big FROM cache.counter';

describe('POST /api/v1/warehouse/query with autoSaveByHash', () => {
  let orgId: string;
  let api: WarehouseApi;
  let first: Answer<QueryAnswerBody>;
  let second: Answer<QueryAnswerBody>;
  let live: Answer<QueryAnswerBody>;

  beforeAll(async () => {
    ({ orgId, api } = await freshOrg('Autosave'));
    await buildTables(orgId, 'cache', ['counter']);
    // The first call runs and saves; then the table changes (n: 1 → 2); then the same query again.
    first = await api.query({ query: QUERY, autoSaveByHash: true });
    await buildTables(orgId, 'cache', ['bump']);
    second = await api.query({ query: QUERY, autoSaveByHash: true });
    live = await api.query({ query: QUERY });
  });

  it('Should run the first call and save its result as the Iceberg table autosave.<job name>', async () => {
    // Assess
    expect(first.status).toBe(200);
    expect(first.headers.get('x-lakeline-cache')).toBe('miss');
    expect(first.body.results?.rows).toEqual([[1, 10, '2024-02-29', '12345678901234567890']]);
    const saved = await api.table('autosave', first.body.job?.name as string);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ namespace: 'autosave', name: first.body.job?.name, record_count: '1' });
  });

  it('Should answer the second call from the saved table without running the query', () => {
    // Assess: the table changed in between, yet the saved rows come back
    expect(live.body.results?.rows[0]?.[0]).toBe(2);
    expect(second.status).toBe(200);
    expect(second.headers.get('x-lakeline-cache')).toBe('hit');
    expect(second.body.results).toEqual(first.body.results);
    expect(second.body.job).toEqual(first.body.job);
    expect(second.body.query).toBe(QUERY);
  });

  it('Should answer the first call with the saved table itself, so cached answers have the same types', () => {
    // Assess: HUGEINT has no Iceberg type; it is saved (and answered) as DECIMAL(38,0)
    expect(first.body.results?.column_types).toEqual(['BIGINT', 'BIGINT', 'DATE', 'DECIMAL(38,0)']);
    expect(second.body.results?.column_types).toEqual(first.body.results?.column_types);
    expect(live.body.results?.column_types).toEqual(['BIGINT', 'BIGINT', 'DATE', 'HUGEINT']);
  });

  it('Should record the saved table as the output of the first run, with its statistics and schema', async () => {
    // Act
    const events = await api.runEvents(first.headers.get('x-lakeline-run-id') as string);
    // Assess
    expect(events.map((e) => e.run_state)).toEqual(['START', 'COMPLETE']);
    const complete = events[1]?.event_raw as { outputs: { name: string; facets: { schema: { fields: unknown[] } }; outputFacets: { outputStatistics: Record<string, number> } }[] };
    expect(specProblems(complete)).toEqual([]);
    expect(events[1]?.outputs).toEqual([{ namespace: 'file', name: expect.stringMatching(new RegExp(`/autosave/${first.body.job?.name}$`)) }]);
    expect(events[1]?.inputs).toEqual([{ namespace: 'file', name: expect.stringMatching(/\/cache\/counter$/) }]);
    const [output] = complete.outputs;
    expect(output?.outputFacets.outputStatistics).toMatchObject({ rowCount: 1, fileCount: 1, size: expect.any(Number) });
    expect(output?.outputFacets.outputStatistics.size).toBeGreaterThan(0);
    expect(output?.facets.schema.fields).toEqual([
      { name: 'n', type: 'long', ordinal_position: 1 },
      { name: 'tenfold', type: 'long', ordinal_position: 2 },
      { name: 'day', type: 'date', ordinal_position: 3 },
      { name: 'big', type: 'decimal(38, 0)', ordinal_position: 4 },
    ]);
  });

  it('Should record the cached answer as a run that read the saved table and wrote nothing', async () => {
    // Act
    const events = await api.runEvents(second.headers.get('x-lakeline-run-id') as string);
    // Assess
    expect(events.map((e) => e.run_state)).toEqual(['START', 'COMPLETE']);
    expect(events.map((e) => e.job_name)).toEqual([first.body.job?.name, first.body.job?.name]);
    expect(events[1]?.inputs).toEqual([{ namespace: 'file', name: expect.stringMatching(new RegExp(`/autosave/${first.body.job?.name}$`)) }]);
    expect(events[1]?.outputs).toEqual([]);
  });
});
