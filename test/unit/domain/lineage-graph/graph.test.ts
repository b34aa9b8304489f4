// The lineage graph: Marquez's answer for the apples events (written out below), the graph as of a
// past moment, one-way traversals, depth, dataset start nodes, orphans, one run's graph, and one
// dataset under several names (symlinks) learned in either order.
import { describe, expect, it } from 'vitest';
import { applyEventsToLineageModel } from '#domain/lineage-graph/apply';
import { lineageGraph, type LineageGraphView } from '#domain/lineage-graph/graph';
import { datasetVersionIdOf } from '#domain/lineage-graph/ids';
import { getDataset, listDatasets } from '#domain/lineage-graph/objects';
import { searchLineage } from '#domain/lineage-graph/search';
import type { JobDataView } from '#domain/lineage-graph/views';
import { MemoryLineageStore } from '../../../helpers/memory-lineage-store.ts';
import { answers } from './answers.ts';
import { APPLES_AS_OF_OCTOBER_1, APPLES_CURRENT } from './fixtures.ts';
import { APPLES, exampleEvents, newRunId, runEvent, seeded, shuffled } from './events.ts';

const ORG = 'org-g';
const K = 'grandmas.kitchen';

/** Nodes as `id: in-edge origins | out-edge destinations`, the way the expectations are written. */
const shape = (graph: LineageGraphView): string[] =>
  graph.graph.map((n) => `${n.id}: ${n.inEdges.map((e) => e.origin).join(',')} | ${n.outEdges.map((e) => e.destination).join(',')}`);

const job = (name: string) => ({ type: 'JOB' as const, namespace: K, name });
const ds = (namespace: string, name: string) => ({ type: 'DATASET' as const, namespace, name });

describe('the apples (Marquez\'s test events)', async () => {
  const store = new MemoryLineageStore();
  await applyEventsToLineageModel(store, ORG, exampleEvents(...APPLES));


  it('Should give Marquez\'s graph from any job of it, whatever order the events came in', async () => {
    // Act
    const fromFilling = await lineageGraph(store, ORG, { nodeId: job('prepare_apple_filling'), depth: 20, direction: 'both' });
    const shuffledStore = new MemoryLineageStore();
    for (const e of shuffled(exampleEvents(...APPLES), seeded(4))) await applyEventsToLineageModel(shuffledStore, ORG, [e]);
    const fromVinegar = await lineageGraph(shuffledStore, ORG, { nodeId: job('prepare_vinegar'), depth: 20, direction: 'both' });

    // Assess
    expect(shape(fromFilling)).toEqual(APPLES_CURRENT);
    expect(fromVinegar).toEqual(fromFilling);
    const gather = fromFilling.graph.find((n) => n.id === 'job:grandmas.kitchen:gather_apples')?.data as JobDataView;
    expect([gather.latestRun?.id, gather.latestRun?.state, gather.inputs]).toEqual(['155dbf08-c4c5-43e6-bb3a-8095c4ba59b8', 'COMPLETED', [{ namespace: 'backyard', name: 'crab.apples' }]]);
  });

  it('Should show the earlier orchard as of a moment before event 7', async () => {
    // Act: 1 October 2020, after events 1, 2, 3 and 6, before 7 (15 October) and 5 (28 October).
    const graph = await lineageGraph(store, ORG, { nodeId: job('prepare_apple_filling'), depth: 20, direction: 'both', asOf: '2020-10-01T00:00:00.000000+00:00' });

    // Assess
    expect(shape(graph)).toEqual(APPLES_AS_OF_OCTOBER_1);
    const gather = graph.graph.find((n) => n.id === 'job:grandmas.kitchen:gather_apples')?.data as JobDataView;
    expect(gather.latestRun?.id).toBe('fc57cd10-90ce-49aa-ac91-29d222d66fdf');
  });

  it('Should refuse a job that did not exist yet at asOf, and a node nobody sent', async () => {
    await expect(lineageGraph(store, ORG, { nodeId: job('prepare_vinegar'), depth: 20, direction: 'both', asOf: '2020-10-01T00:00:00.000000+00:00' })).rejects.toMatchObject({ name: 'NotFoundError' });
    await expect(lineageGraph(store, ORG, { nodeId: job('make_jam'), depth: 20, direction: 'both' })).rejects.toMatchObject({ name: 'NotFoundError', message: expect.stringMatching(/^nodeId: /) });
    await expect(lineageGraph(store, ORG, { nodeId: ds(K, 'jam'), depth: 20, direction: 'both' })).rejects.toMatchObject({ name: 'NotFoundError' });
  });

  it('Should count depth in job hops from the start job, as Marquez does', async () => {
    // Act
    const jobsAt = async (depth: number) =>
      (await lineageGraph(store, ORG, { nodeId: job('prepare_apple_pie'), depth, direction: 'both' })).graph.filter((n) => n.type === 'JOB').map((n) => n.id.split(':')[2]);

    // Assess: pie → filling (shares apple.filling) → gather, cider (share apples, sugar) → vinegar.
    expect(await jobsAt(0)).toEqual(['prepare_apple_pie']);
    expect(await jobsAt(1)).toEqual(['prepare_apple_filling', 'prepare_apple_pie']);
    expect(await jobsAt(2)).toEqual(['gather_apples', 'prepare_apple_cider', 'prepare_apple_filling', 'prepare_apple_pie']);
    expect(await jobsAt(3)).toHaveLength(5);
  });

  it('Should follow edges one way only for upstream and downstream', async () => {
    // Act
    const upstream = await lineageGraph(store, ORG, { nodeId: job('prepare_apple_pie'), depth: 20, direction: 'upstream' });
    const downstream = await lineageGraph(store, ORG, { nodeId: ds(K, 'apples'), depth: 20, direction: 'downstream' });

    // Assess: the cider branch does not feed the pie; the orchard feeds everything downstream.
    expect(shape(upstream)).toEqual([
      'dataset:backyard:crab.apples:  | job:grandmas.kitchen:gather_apples',
      'dataset:cupboard:sugar:  | job:grandmas.kitchen:prepare_apple_filling',
      'dataset:grandmas.kitchen:apple.filling: job:grandmas.kitchen:prepare_apple_filling | job:grandmas.kitchen:prepare_apple_pie',
      'dataset:grandmas.kitchen:apples: job:grandmas.kitchen:gather_apples | job:grandmas.kitchen:prepare_apple_filling',
      'dataset:grandmas.kitchen:cinnamon:  | job:grandmas.kitchen:prepare_apple_filling',
      'job:grandmas.kitchen:gather_apples: dataset:backyard:crab.apples | dataset:grandmas.kitchen:apples',
      'job:grandmas.kitchen:prepare_apple_filling: dataset:cupboard:sugar,dataset:grandmas.kitchen:apples,dataset:grandmas.kitchen:cinnamon | dataset:grandmas.kitchen:apple.filling',
      'job:grandmas.kitchen:prepare_apple_pie: dataset:grandmas.kitchen:apple.filling | ',
    ]);
    expect(shape(downstream)).toEqual([
      'dataset:cupboard:apple.vinegar: job:grandmas.kitchen:prepare_vinegar | ',
      'dataset:grandmas.kitchen:apple.cider: job:grandmas.kitchen:prepare_apple_cider | job:grandmas.kitchen:prepare_vinegar',
      'dataset:grandmas.kitchen:apple.filling: job:grandmas.kitchen:prepare_apple_filling | job:grandmas.kitchen:prepare_apple_pie',
      'dataset:grandmas.kitchen:apple.pie: job:grandmas.kitchen:prepare_apple_pie | ',
      'dataset:grandmas.kitchen:apples:  | job:grandmas.kitchen:prepare_apple_cider,job:grandmas.kitchen:prepare_apple_filling',
      'job:grandmas.kitchen:prepare_apple_cider: dataset:grandmas.kitchen:apples | dataset:grandmas.kitchen:apple.cider',
      'job:grandmas.kitchen:prepare_apple_filling: dataset:grandmas.kitchen:apples | dataset:grandmas.kitchen:apple.filling',
      'job:grandmas.kitchen:prepare_apple_pie: dataset:grandmas.kitchen:apple.filling | dataset:grandmas.kitchen:apple.pie',
      'job:grandmas.kitchen:prepare_vinegar: dataset:grandmas.kitchen:apple.cider | dataset:cupboard:apple.vinegar',
    ]);
  });

  it('Should start a dataset node at its latest writer, and return a dataset no current version touches alone', async () => {
    // Act
    const fromPie = await lineageGraph(store, ORG, { nodeId: ds(K, 'apple.pie'), depth: 0, direction: 'both' });
    const orchard = await lineageGraph(store, ORG, { nodeId: ds('laurents-orchard', 'red.delicious'), depth: 20, direction: 'both' });

    // Assess
    expect(shape(fromPie)).toEqual([
      'dataset:grandmas.kitchen:apple.filling:  | job:grandmas.kitchen:prepare_apple_pie',
      'dataset:grandmas.kitchen:apple.pie: job:grandmas.kitchen:prepare_apple_pie | ',
      'job:grandmas.kitchen:prepare_apple_pie: dataset:grandmas.kitchen:apple.filling | dataset:grandmas.kitchen:apple.pie',
    ]);
    expect(shape(orchard)).toEqual(['dataset:laurents-orchard:red.delicious:  | ']);
    expect(orchard.graph[0]?.data).toMatchObject({ id: { namespace: 'laurents-orchard', name: 'red.delicious' }, type: 'DB_TABLE', fields: [] });
  });

  it("Should give one run's graph with the versions it read and wrote", async () => {
    // Act: event 8, the filling with sugar.
    const graph = await lineageGraph(store, ORG, { runId: 'e7d71919-25b3-49cc-a0f5-63ecbee72b0f', depth: 20, direction: 'both' });

    // Assess
    expect(shape(graph)).toEqual([
      'dataset:cupboard:sugar:  | job:grandmas.kitchen:prepare_apple_filling',
      'dataset:grandmas.kitchen:apple.filling: job:grandmas.kitchen:prepare_apple_filling | ',
      'dataset:grandmas.kitchen:apples:  | job:grandmas.kitchen:prepare_apple_filling',
      'dataset:grandmas.kitchen:cinnamon:  | job:grandmas.kitchen:prepare_apple_filling',
      'job:grandmas.kitchen:prepare_apple_filling: dataset:cupboard:sugar,dataset:grandmas.kitchen:apples,dataset:grandmas.kitchen:cinnamon | dataset:grandmas.kitchen:apple.filling',
    ]);
    const versionOf = (id: string) => (graph.graph.find((n) => n.id === id)?.data as { version?: string | null }).version;
    // The apples it read are those gather_apples wrote last before it began (event 7, crab apples).
    expect(versionOf('dataset:grandmas.kitchen:apples')).toBe(datasetVersionIdOf({ namespace: K, name: 'apples' }, '155dbf08-c4c5-43e6-bb3a-8095c4ba59b8'));
    expect(versionOf('dataset:grandmas.kitchen:apple.filling')).toBe(datasetVersionIdOf({ namespace: K, name: 'apple.filling' }, 'e7d71919-25b3-49cc-a0f5-63ecbee72b0f'));
    expect(versionOf('dataset:grandmas.kitchen:cinnamon')).toBe('unknown');
    const run = (graph.graph.find((n) => n.type === 'JOB')?.data as JobDataView).latestRun;
    expect(run?.outputDatasetVersions?.map((v) => v.datasetVersionId.name)).toEqual(['apple.filling']);
    await expect(lineageGraph(store, ORG, { runId: '00000000-0000-4000-8000-000000000000', depth: 1, direction: 'both' })).rejects.toMatchObject({ name: 'NotFoundError' });
    await expect(lineageGraph(store, ORG, { runId: 'e7d71919-25b3-49cc-a0f5-63ecbee72b0f', nodeId: job('prepare_vinegar'), depth: 1, direction: 'both' })).rejects.toMatchObject({ name: 'ValidationError', message: expect.stringMatching(/^nodeId: /) });
  });
});

describe('one dataset, several names (symlinks)', () => {
  const path = { namespace: 's3://lake', name: 'warehouse/sales/orders' };
  const table = { namespace: 'lakeline', name: 'sales.orders' };
  const withSymlink = { ...path, facets: { symlinks: { _producer: 'https://p.example/x', _schemaURL: 'https://p.example/s.json', identifiers: [{ ...table, type: 'TABLE' }] } } };
  const writer = newRunId();
  const reader = newRunId();
  // A Spark job writes the files and says which table they back; a tool that knows only the
  // catalog name reads the table; another reads the path without saying anything.
  const events = [
    runEvent({ eventType: 'COMPLETE', time: '2024-03-01T01:00:00Z', runId: writer, job: 'spark_load', inputs: ['s3://raw:orders.csv'], outputs: [withSymlink] }),
    runEvent({ eventType: 'COMPLETE', time: '2024-03-01T02:00:00Z', runId: reader, job: 'report', inputs: [`${table.namespace}:${table.name}`], outputs: ['s3://reports:daily'] }),
    runEvent({ eventType: 'COMPLETE', time: '2024-03-01T03:00:00Z', runId: newRunId(), job: 'audit', inputs: [`${path.namespace}:${path.name}`] }),
  ];

  const EXPECTED = [
    'dataset:lakeline:sales.orders: job:etl:spark_load | job:etl:audit,job:etl:report',
    'dataset:s3://raw:orders.csv:  | job:etl:spark_load',
    'dataset:s3://reports:daily: job:etl:report | ',
    'job:etl:audit: dataset:lakeline:sales.orders | ',
    'job:etl:report: dataset:lakeline:sales.orders | dataset:s3://reports:daily',
    'job:etl:spark_load: dataset:s3://raw:orders.csv | dataset:lakeline:sales.orders',
  ];

  it('Should merge a path and the table it backs into one node, whichever was learned first', async () => {
    for (const order of [events, [...events].reverse(), shuffled(events, seeded(8))]) {
      // Prepare
      const store = new MemoryLineageStore();

      // Act
      for (const e of order) await applyEventsToLineageModel(store, ORG, [e]);

      // Assess
      for (const start of [ds(table.namespace, table.name), ds(path.namespace, path.name), { type: 'JOB' as const, namespace: 'etl', name: 'audit' }]) {
        expect(shape(await lineageGraph(store, ORG, { nodeId: start, depth: 20, direction: 'both' }))).toEqual(EXPECTED);
      }
      const byPath = await getDataset(store, ORG, path);
      expect([byPath.id, byPath.physicalName, byPath.producedBy]).toEqual([table, path.name, { namespace: 'etl', name: 'spark_load' }]);
      expect((await listDatasets(store, ORG, 's3://lake', { limit: 10, offset: 0 })).datasets).toEqual([]);
      expect((await listDatasets(store, ORG, 'lakeline', { limit: 10, offset: 0 })).datasets.map((d) => d.name)).toEqual(['sales.orders']);
      const found = await searchLineage(store, ORG, { q: 'WAREHOUSE/SALES', sort: 'NAME', limit: 10, offset: 0 });
      expect(found.results.map((r) => r.nodeId)).toEqual(['dataset:lakeline:sales.orders']);
      expect(await answers(store, ORG)).toEqual(await answers(await built(events), ORG));
    }
  });
});

async function built(events: Parameters<typeof applyEventsToLineageModel>[2]): Promise<MemoryLineageStore> {
  const store = new MemoryLineageStore();
  await applyEventsToLineageModel(store, ORG, events);
  return store;
}
