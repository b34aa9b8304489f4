// The object reads and search: namespaces, jobs, a job's runs newest first, datasets, a
// dataset's versions as its schema history, search by substring, type, namespace and time;
// every list paged in a stable order.
import { describe, expect, it } from 'vitest';
import { applyEventsToLineageModel } from '#domain/lineage-graph/apply';
import { datasetVersionIdOf } from '#domain/lineage-graph/ids';
import { getDataset, getDatasetVersion, getJob, getJobRun, getNamespace, listDatasets, listDatasetVersions, listJobRuns, listJobs, listNamespaces } from '#domain/lineage-graph/objects';
import { searchLineage } from '#domain/lineage-graph/search';
import { MemoryLineageStore } from '../../../helpers/memory-lineage-store.ts';
import { newRunId, runEvent } from './events.ts';

const ORG = 'org-o';
const F = { _producer: 'https://p.example/producer', _schemaURL: 'https://openlineage.io/spec/facets/1-2-0/SchemaDatasetFacet.json' };
const schema = (...fields: string[]) => ({ schema: { ...F, fields: fields.map((name) => ({ name, type: 'STRING', description: `the ${name}` })) } });
const hour = (h: number) => `2024-05-01T${String(h).padStart(2, '0')}:00:00Z`;
const page = (limit: number, offset = 0) => ({ limit, offset });

describe('objects', async () => {
  const store = new MemoryLineageStore();
  const runs = [newRunId(), newRunId(), newRunId()];
  // One job writing `mart.orders` three times, its schema growing; a second job reading it.
  await applyEventsToLineageModel(store, ORG, [
    ...runs.flatMap((runId, i) => [
      runEvent({ eventType: 'START', time: hour(2 * i), runId, job: 'build_orders', inputs: ['pg:raw.orders'] }),
      runEvent({
        eventType: 'COMPLETE',
        time: hour(2 * i + 1),
        runId,
        job: 'build_orders',
        inputs: ['pg:raw.orders'],
        outputs: [{ namespace: 'pg', name: 'mart.orders', facets: schema(...['id', 'total', 'status'].slice(0, i + 1)), outputFacets: { outputStatistics: { ...F, rowCount: 10 * (i + 1) } } }],
        jobFacets: { documentation: { ...F, description: 'Builds the orders mart' } },
      }),
    ]),
    runEvent({ eventType: 'COMPLETE', time: hour(9), runId: newRunId(), job: { namespace: 'reports', name: 'daily_revenue' }, inputs: ['pg:mart.orders'], outputs: ['s3://reports:revenue'] }),
  ]);

  it('Should list namespaces by name with their first and last times', async () => {
    const all = await listNamespaces(store, ORG, page(100));
    expect(all.totalCount).toBe(4);
    expect(all.namespaces.map((n) => n.name)).toEqual(['etl', 'pg', 'reports', 's3://reports']);
    expect(all.namespaces[0]).toEqual({ name: 'etl', createdAt: '2024-05-01T00:00:00.000000+00:00', updatedAt: '2024-05-01T05:00:00.000000+00:00', ownerName: 'anonymous', description: null, isHidden: false });
    expect((await listNamespaces(store, ORG, page(2, 1))).namespaces.map((n) => n.name)).toEqual(['pg', 'reports']);
  });

  it("Should describe a job: latest run, current inputs and outputs, facets, type, version", async () => {
    const job = await getJob(store, ORG, { namespace: 'etl', name: 'build_orders' });
    expect(job).toMatchObject({
      id: { namespace: 'etl', name: 'build_orders' },
      type: 'BATCH',
      inputs: [{ namespace: 'pg', name: 'raw.orders' }],
      outputs: [{ namespace: 'pg', name: 'mart.orders' }],
      description: 'Builds the orders mart',
      createdAt: '2024-05-01T00:00:00.000000+00:00',
      updatedAt: '2024-05-01T05:00:00.000000+00:00',
      facets: { documentation: { description: 'Builds the orders mart' } },
    });
    expect(job.latestRun).toMatchObject({ id: runs[2], state: 'COMPLETED', startedAt: '2024-05-01T04:00:00.000000+00:00', durationMs: 3_600_000 });
    expect(job.latestRun?.outputDatasetVersions?.[0]?.facets).toMatchObject({ outputStatistics: { rowCount: 30 } });
    expect((await listJobs(store, ORG, 'etl', page(10))).jobs.map((j) => j.name)).toEqual(['build_orders']);
    await expect(getJob(store, ORG, { namespace: 'etl', name: 'nope' })).rejects.toMatchObject({ name: 'NotFoundError' });
  });

  it("Should page a job's runs newest first, each with the versions it read and wrote", async () => {
    const job = { namespace: 'etl', name: 'build_orders' };
    const first = await listJobRuns(store, ORG, job, page(2));
    const second = await listJobRuns(store, ORG, job, page(2, 2));
    expect([first.totalCount, [...first.runs, ...second.runs].map((r) => r.id)]).toEqual([3, [runs[2], runs[1], runs[0]]]);
    expect(second.runs[0]?.outputDatasetVersions?.[0]?.datasetVersionId).toEqual({ namespace: 'pg', name: 'mart.orders', version: datasetVersionIdOf({ namespace: 'pg', name: 'mart.orders' }, runs[0] as string) });
    // The report read the version the third run wrote.
    const report = await getJob(store, ORG, { namespace: 'reports', name: 'daily_revenue' });
    expect(report.latestRun?.inputDatasetVersions?.[0]?.datasetVersionId.version).toBe(datasetVersionIdOf({ namespace: 'pg', name: 'mart.orders' }, runs[2] as string));
  });

  it('Should describe a dataset: columns, facets, last modification, the job that wrote it, current version', async () => {
    const dataset = await getDataset(store, ORG, { namespace: 'pg', name: 'mart.orders' });
    expect(dataset).toMatchObject({
      id: { namespace: 'pg', name: 'mart.orders' },
      type: 'DB_TABLE',
      physicalName: 'mart.orders',
      sourceName: 'pg',
      fields: [
        { name: 'id', type: 'STRING', tags: [], description: 'the id' },
        { name: 'total', type: 'STRING', tags: [], description: 'the total' },
        { name: 'status', type: 'STRING', tags: [], description: 'the status' },
      ],
      lastModifiedAt: '2024-05-01T05:00:00.000000+00:00',
      producedBy: { namespace: 'etl', name: 'build_orders' },
      currentVersion: datasetVersionIdOf({ namespace: 'pg', name: 'mart.orders' }, runs[2] as string),
      deleted: false,
      columnLineage: null,
    });
    expect(Object.keys(dataset.facets)).toEqual(['schema']);
    expect((await listDatasets(store, ORG, 'pg', page(10))).datasets.map((d) => d.name)).toEqual(['mart.orders', 'raw.orders']);
    await expect(getDataset(store, ORG, { namespace: 'pg', name: 'nope' })).rejects.toMatchObject({ name: 'NotFoundError' });
  });

  it("Should list a dataset's versions newest first: its schema history", async () => {
    const versions = await listDatasetVersions(store, ORG, { namespace: 'pg', name: 'mart.orders' }, page(10));
    expect(versions.totalCount).toBe(3);
    expect(versions.versions.map((v) => [v.createdByRun.id, v.fields.map((f) => f.name)])).toEqual([
      [runs[2], ['id', 'total', 'status']],
      [runs[1], ['id', 'total']],
      [runs[0], ['id']],
    ]);
    expect(versions.versions[0]?.facets).toMatchObject({ outputStatistics: { rowCount: 30 } });
    expect((await listDatasetVersions(store, ORG, { namespace: 'pg', name: 'mart.orders' }, page(1, 1))).versions.map((v) => v.createdByRun.id)).toEqual([runs[1]]);
  });

  it('Should search names case-insensitively, by type, namespace, name or time, paged', async () => {
    const search = (q: string, more: Partial<Parameters<typeof searchLineage>[2]> = {}) => searchLineage(store, ORG, { q, sort: 'NAME', limit: 10, offset: 0, ...more });
    expect((await search('ORDERS')).results.map((r) => r.nodeId)).toEqual(['job:etl:build_orders', 'dataset:pg:mart.orders', 'dataset:pg:raw.orders']);
    expect((await search('orders', { filter: 'DATASET' })).results.map((r) => r.name)).toEqual(['mart.orders', 'raw.orders']);
    expect((await search('e', { namespace: 'reports' })).results.map((r) => r.name)).toEqual(['daily_revenue']);
    const byTime = await search('r', { sort: 'UPDATED_AT' });
    expect(byTime.results.map((r) => [r.name, r.updatedAt])).toEqual([
      ['daily_revenue', '2024-05-01T09:00:00.000000+00:00'],
      ['revenue', '2024-05-01T09:00:00.000000+00:00'],
      ['build_orders', '2024-05-01T05:00:00.000000+00:00'],
      // Written last by the third run's COMPLETE; reading it (the report, at 09:00) changes nothing.
      ['mart.orders', '2024-05-01T05:00:00.000000+00:00'],
      // Only ever read: last updated when first seen.
      ['raw.orders', '2024-05-01T00:00:00.000000+00:00'],
    ]);
    const paged = await search('r', { limit: 2, offset: 2 });
    expect([paged.totalCount, paged.results.map((r) => r.name)]).toEqual([5, ['mart.orders', 'raw.orders']]);
    expect((await search('zzz')).results).toEqual([]);
  });

  it('Should get a namespace, a run and a dataset version by the ids the lists give, and 404 an unknown one', async () => {
    expect(await getNamespace(store, ORG, 's3://reports')).toMatchObject({ name: 's3://reports', createdAt: '2024-05-01T09:00:00.000000+00:00' });
    await expect(getNamespace(store, ORG, 'nowhere')).rejects.toThrow('namespace nowhere not found');
    const run = await getJobRun(store, ORG, runs[1] as string);
    expect(run).toMatchObject({ id: runs[1], state: 'COMPLETED', jobVersion: { namespace: 'etl', name: 'build_orders' } });
    expect(run.outputDatasetVersions?.map((v) => v.datasetVersionId.name)).toEqual(['mart.orders']);
    await expect(getJobRun(store, ORG, newRunId())).rejects.toThrow(/not found/);
    const listed = (await listDatasetVersions(store, ORG, { namespace: 'pg', name: 'mart.orders' }, page(10))).versions;
    for (const v of listed) expect(await getDatasetVersion(store, ORG, { namespace: 'pg', name: 'mart.orders' }, v.version)).toEqual(v);
    await expect(getDatasetVersion(store, ORG, { namespace: 'pg', name: 'mart.orders' }, newRunId())).rejects.toThrow(/not found/);
  });
});

describe('objects: namespace times and tags', () => {
  it("Should never show a namespace's updatedAt before its createdAt, in its first hour or later", async () => {
    // Prepare
    const store = new MemoryLineageStore();
    const at = (time: string) => runEvent({ eventType: 'COMPLETE', time, runId: newRunId(), job: { namespace: 'first-hour', name: 'j' } });

    // Act
    await applyEventsToLineageModel(store, ORG, [at('2024-05-01T10:15:00Z')]);
    const first = await getNamespace(store, ORG, 'first-hour');
    await applyEventsToLineageModel(store, ORG, [at('2024-05-01T10:40:00Z')]);
    const sameHour = await getNamespace(store, ORG, 'first-hour');
    await applyEventsToLineageModel(store, ORG, [at('2024-05-01T12:05:00Z')]);
    const later = await getNamespace(store, ORG, 'first-hour');

    // Assess
    expect([first.createdAt, first.updatedAt]).toEqual(['2024-05-01T10:15:00.000000+00:00', '2024-05-01T10:15:00.000000+00:00']);
    // The record keeps the latest hour seen (it stays cool, and the same in any order of arrival);
    // within the first hour that hour is shown no earlier than createdAt.
    expect(sameHour.updatedAt).toBe('2024-05-01T10:15:00.000000+00:00');
    expect(later.updatedAt).toBe('2024-05-01T12:00:00.000000+00:00');
  });

  it("Should give jobs, datasets, versions and columns the tags of their OpenLineage tags facets", async () => {
    // Prepare
    const store = new MemoryLineageStore();
    const tags = (...entries: Array<Record<string, string>>) => ({ tags: { ...F, _schemaURL: 'https://openlineage.io/spec/facets/1-0-0/TagsJobFacet.json', tags: entries } });
    const runId = newRunId();
    const output = { namespace: 'pg', name: 'mart.customers', facets: { ...schema('id', 'email'), ...tags({ key: 'tier', value: 'gold', source: 'USER' }, { key: 'pii', value: 'true', field: 'email' }) } };

    // Act
    await applyEventsToLineageModel(store, ORG, [
      runEvent({ eventType: 'COMPLETE', time: hour(1), runId, job: 'build_customers', outputs: [output], jobFacets: tags({ key: 'team', value: 'growth', source: 'CONFIG' }, { key: 'critical', value: '' }) }),
    ]);

    // Assess
    expect((await getJob(store, ORG, { namespace: 'etl', name: 'build_customers' })).tags).toEqual(['team:growth', 'critical']);
    const dataset = await getDataset(store, ORG, { namespace: 'pg', name: 'mart.customers' });
    expect(dataset.tags).toEqual(['tier:gold']);
    expect(dataset.fields.map((f) => [f.name, f.tags])).toEqual([['id', []], ['email', ['pii']]]);
    const [version] = (await listDatasetVersions(store, ORG, { namespace: 'pg', name: 'mart.customers' }, page(1))).versions;
    expect([version?.tags, version?.fields.map((f) => f.tags)]).toEqual([['tier:gold'], [[], ['pii']]]);
  });
});
