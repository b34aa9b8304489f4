// Column lineage from the `columnLineage` facet: the spec's food_delivery example in both layouts
// (per-column with dataset-wide entries, and the legacy layout that repeats them per column) gives
// the same graph; transformations are kept; depth, downstream, the old transformationType form,
// and names resolved through symlinks.
import { describe, expect, it } from 'vitest';
import { applyEventsToLineageModel } from '#domain/lineage-graph/apply';
import { columnLineageGraph, inputsOfColumn, parseColumnLineage } from '#domain/lineage-graph/column-lineage';
import { getDataset } from '#domain/lineage-graph/objects';
import { MemoryLineageStore } from '../../../helpers/memory-lineage-store.ts';
import { newRunId, runEvent } from './events.ts';
import { COLUMN_LINEAGE_FACET, FOOD_DELIVERY, FOOD_DELIVERY_LEGACY, FOOD_DELIVERY_SOURCE, FOOD_DELIVERY_TARGET, transformation } from './fixtures.ts';

const ORG = 'org-c';
const F = COLUMN_LINEAGE_FACET;
const SOURCE = FOOD_DELIVERY_SOURCE;
const TARGET = FOOD_DELIVERY_TARGET;
const t = transformation;
const LEGACY = FOOD_DELIVERY_LEGACY;

const schema = (fields: string[]) => ({ _producer: F._producer, _schemaURL: 'https://openlineage.io/spec/facets/1-2-0/SchemaDatasetFacet.json', fields: fields.map((name) => ({ name, type: 'TIMESTAMP' })) });

const storeWith = async (facet: unknown): Promise<MemoryLineageStore> => {
  const store = new MemoryLineageStore();
  await applyEventsToLineageModel(store, ORG, [
    runEvent({
      eventType: 'COMPLETE',
      time: '2020-02-22T22:42:42Z',
      runId: newRunId(),
      job: { namespace: 'food_delivery', name: 'top_delivery_times' },
      inputs: [{ ...SOURCE, facets: { schema: schema(['order_id', 'order_placed_on', 'order_delivered_on', 'customer_email']) } }],
      outputs: [{ ...TARGET, facets: { columnLineage: facet, schema: schema(['order_id', 'order_placed_on', 'order_delivered_on', 'order_delivery_time']) } }],
    }),
  ]);
  return store;
};

const field = (namespace: string, dataset: string, name: string) => ({ type: 'DATASET_FIELD' as const, namespace, name: dataset, field: name });
const edgesOf = (graph: Awaited<ReturnType<typeof columnLineageGraph>>) =>
  graph.graph.flatMap((n) => n.data.inputFields.map((i) => `${n.data.field} <- ${i.dataset}.${i.field} [${i.transformations.map((x) => `${x.type}/${x.subtype}`).join(' ')}]`));

describe("the spec's food_delivery example", () => {
  it('Should give each column its inputs, the dataset-wide ones included, with every transformation kept', async () => {
    // Prepare
    const store = await storeWith(FOOD_DELIVERY);

    // Act
    const graph = await columnLineageGraph(store, ORG, { nodeId: field(TARGET.namespace, TARGET.name, 'order_delivery_time'), depth: 20, withDownstream: false });

    // Assess
    expect(graph.graph.map((n) => n.id)).toEqual([
      'datasetField:food_delivery:public.delivery_7_days:order_delivered_on',
      'datasetField:food_delivery:public.delivery_7_days:order_placed_on',
      'datasetField:food_delivery:public.top_delivery_times:order_delivery_time',
    ]);
    const node = graph.graph[2];
    expect(node?.data).toMatchObject({ namespace: 'food_delivery', dataset: 'public.top_delivery_times', field: 'order_delivery_time', fieldType: 'TIMESTAMP' });
    expect(node?.data.inputFields).toEqual([
      { namespace: 'food_delivery', dataset: 'public.delivery_7_days', datasetVersion: null, field: 'order_delivered_on', transformationDescription: '', transformationType: 'TRANSFORMATION', transformations: [t('DIRECT', 'TRANSFORMATION'), t('INDIRECT', 'SORT')] },
      { namespace: 'food_delivery', dataset: 'public.delivery_7_days', datasetVersion: null, field: 'order_placed_on', transformationDescription: '', transformationType: 'TRANSFORMATION', transformations: [t('DIRECT', 'TRANSFORMATION'), t('INDIRECT', 'SORT')] },
    ]);
    // Marquez's edge directions: a node's inEdges point from it to its inputs.
    expect(node?.inEdges).toEqual([
      { origin: 'datasetField:food_delivery:public.top_delivery_times:order_delivery_time', destination: 'datasetField:food_delivery:public.delivery_7_days:order_delivered_on' },
      { origin: 'datasetField:food_delivery:public.top_delivery_times:order_delivery_time', destination: 'datasetField:food_delivery:public.delivery_7_days:order_placed_on' },
    ]);
    expect(graph.graph[0]?.outEdges).toEqual([{ origin: 'datasetField:food_delivery:public.delivery_7_days:order_delivered_on', destination: 'datasetField:food_delivery:public.top_delivery_times:order_delivery_time' }]);
  });

  it('Should give the same graph for the legacy layout as for the dataset-wide one', async () => {
    // Act
    const [compact, legacy] = await Promise.all(
      [FOOD_DELIVERY, LEGACY].map(async (facet) => columnLineageGraph(await storeWith(facet), ORG, { nodeId: { type: 'DATASET', ...TARGET }, depth: 20, withDownstream: false })),
    );

    // Assess
    expect(legacy).toEqual(compact);
    expect(edgesOf(compact as Awaited<ReturnType<typeof columnLineageGraph>>)).toEqual([
      'order_delivered_on <- public.delivery_7_days.order_delivered_on [DIRECT/IDENTITY INDIRECT/SORT]',
      'order_delivered_on <- public.delivery_7_days.order_placed_on [INDIRECT/SORT]',
      'order_delivery_time <- public.delivery_7_days.order_delivered_on [DIRECT/TRANSFORMATION INDIRECT/SORT]',
      'order_delivery_time <- public.delivery_7_days.order_placed_on [DIRECT/TRANSFORMATION INDIRECT/SORT]',
      'order_id <- public.delivery_7_days.order_delivered_on [INDIRECT/SORT]',
      'order_id <- public.delivery_7_days.order_id [DIRECT/IDENTITY]',
      'order_id <- public.delivery_7_days.order_placed_on [INDIRECT/SORT]',
      'order_placed_on <- public.delivery_7_days.order_delivered_on [INDIRECT/SORT]',
      'order_placed_on <- public.delivery_7_days.order_placed_on [DIRECT/IDENTITY INDIRECT/SORT]',
    ]);
  });

  it('Should find the columns a source column feeds, downstream', async () => {
    // Prepare
    const store = await storeWith(FOOD_DELIVERY);

    // Act
    const down = await columnLineageGraph(store, ORG, { nodeId: field(SOURCE.namespace, SOURCE.name, 'order_id'), depth: 5, withDownstream: true });
    const upOnly = await columnLineageGraph(store, ORG, { nodeId: field(SOURCE.namespace, SOURCE.name, 'order_id'), depth: 5, withDownstream: false });

    // Assess
    expect(edgesOf(down)).toEqual(['order_id <- public.delivery_7_days.order_id [DIRECT/IDENTITY]']);
    expect(upOnly.graph.map((n) => [n.id, n.data.inputFields.length])).toEqual([['datasetField:food_delivery:public.delivery_7_days:order_id', 0]]);
    await expect(columnLineageGraph(store, ORG, { nodeId: field(SOURCE.namespace, SOURCE.name, 'no_such_column'), depth: 5, withDownstream: true })).rejects.toMatchObject({ name: 'NotFoundError' });
    await expect(columnLineageGraph(store, ORG, { nodeId: field('food_delivery', 'public.nothing', 'x'), depth: 5, withDownstream: true })).rejects.toMatchObject({ name: 'NotFoundError' });
  });

  it("Should list the dataset's column lineage on the dataset, as Marquez's Dataset.columnLineage", async () => {
    // Act
    const dataset = await getDataset(await storeWith(FOOD_DELIVERY), ORG, TARGET);

    // Assess
    expect(dataset.columnLineage?.map((c) => [c.name, c.inputFields.map((i) => i.field)])).toEqual([
      ['order_delivered_on', ['order_delivered_on', 'order_placed_on']],
      ['order_delivery_time', ['order_placed_on', 'order_delivered_on']],
      ['order_id', ['order_id', 'order_placed_on', 'order_delivered_on']],
      ['order_placed_on', ['order_placed_on', 'order_delivered_on']],
    ]);
  });
});

describe('chains, depth and the old transformation form', () => {
  /** raw.a → stage.b → mart.c, each a copy; mart.c also keyed by raw.k (old form: type on the column). */
  const chain = async () => {
    const store = new MemoryLineageStore();
    const copy = (from: { namespace: string; name: string }, fromField: string) => ({ inputFields: [{ ...from, field: fromField, transformations: [t('DIRECT', 'IDENTITY')] }] });
    const raw = { namespace: 'pg', name: 'raw' };
    const stage = { namespace: 'pg', name: 'stage' };
    const mart = { namespace: 'pg', name: 'mart' };
    await applyEventsToLineageModel(store, ORG, [
      runEvent({ eventType: 'COMPLETE', time: '2024-01-01T00:00:00Z', runId: newRunId(), job: 'stage', inputs: ['pg:raw'], outputs: [{ ...stage, facets: { columnLineage: { ...F, fields: { b: copy(raw, 'a') } } } }] }),
      runEvent({
        eventType: 'COMPLETE',
        time: '2024-01-01T01:00:00Z',
        runId: newRunId(),
        job: 'mart',
        inputs: ['pg:stage', 'pg:raw'],
        outputs: [
          {
            ...mart,
            facets: {
              columnLineage: {
                ...F,
                fields: { c: { ...copy(stage, 'b'), inputFields: [...copy(stage, 'b').inputFields, { ...raw, field: 'k' }], transformationType: 'IDENTITY', transformationDescription: 'copied' } },
              },
            },
          },
        ],
      }),
    ]);
    return store;
  };

  it('Should stop after depth edges, and take the old form onto each input', async () => {
    // Prepare
    const store = await chain();
    const from = field('pg', 'mart', 'c');

    // Act
    const one = await columnLineageGraph(store, ORG, { nodeId: from, depth: 1, withDownstream: false });
    const two = await columnLineageGraph(store, ORG, { nodeId: from, depth: 2, withDownstream: false });
    const fromSource = await columnLineageGraph(store, ORG, { nodeId: field('pg', 'raw', 'a'), depth: 2, withDownstream: true });

    // Assess
    expect(edgesOf(one)).toEqual(['c <- raw.k []', 'c <- stage.b [DIRECT/IDENTITY]']);
    expect(edgesOf(two)).toEqual(['c <- raw.k []', 'c <- stage.b [DIRECT/IDENTITY]', 'b <- raw.a [DIRECT/IDENTITY]']);
    const c = one.graph.find((n) => n.data.field === 'c');
    expect(c?.data.inputFields.map((i) => [i.field, i.transformationType, i.transformationDescription])).toEqual([
      ['k', 'IDENTITY', 'copied'],
      ['b', 'IDENTITY', 'copied'],
    ]);
    expect(edgesOf(fromSource)).toEqual(['c <- stage.b [DIRECT/IDENTITY]', 'b <- raw.a [DIRECT/IDENTITY]']);
  });
});

describe('parseColumnLineage', () => {
  it('Should merge an input listed in a column and dataset-wide into one input with both transformations', () => {
    const parsed = parseColumnLineage(FOOD_DELIVERY);
    expect(inputsOfColumn(parsed, 'order_id').map((i) => [i.field, i.transformations.length])).toEqual([
      ['order_id', 1],
      ['order_placed_on', 1],
      ['order_delivered_on', 1],
    ]);
    expect(parseColumnLineage(null)).toEqual({ fields: new Map(), dataset: [] });
    expect(parseColumnLineage({ fields: { x: { inputFields: [{ namespace: 1 }, 'junk'] } } }).fields.get('x')).toEqual([]);
  });
});
