/**
 * The console's graph model: the API's lineage and column-lineage answers become nodes and
 * edges drawn once each, origin → destination (column `inEdges` point to inputs, so they turn
 * round), jobs carrying their latest run's state, and edges only between nodes of the answer.
 */
import { describe, expect, it } from 'vitest';
import type { ColumnLineage, Lineage } from '../../../web/src/api/types.ts';
import { columnModel, lineageModel } from '../../../web/src/pages/lineage/graph-model.ts';

const T = '2020-01-01T00:00:00.000000+00:00';
const job = (name: string, state: 'COMPLETED' | 'FAILED' | null, inputs: string[], outputs: string[]): Lineage['graph'][number] => ({
  id: `job:k:${name}`,
  type: 'JOB',
  data: {
    id: { namespace: 'k', name },
    type: 'BATCH',
    name,
    simpleName: name,
    parentJobName: null,
    parentJobUuid: null,
    createdAt: T,
    updatedAt: T,
    namespace: 'k',
    inputs: inputs.map((n) => ({ namespace: 'k', name: n })),
    outputs: outputs.map((n) => ({ namespace: 'k', name: n })),
    location: null,
    description: null,
    latestRun: state
      ? { id: 'r', createdAt: T, updatedAt: T, nominalStartTime: null, nominalEndTime: null, state, jobVersion: { namespace: 'k', name, version: 'v' }, startedAt: T, endedAt: T, durationMs: 1, args: {}, facets: {} }
      : null,
  },
  inEdges: inputs.map((n) => ({ origin: `dataset:k:${n}`, destination: `job:k:${name}` })),
  outEdges: outputs.map((n) => ({ origin: `job:k:${name}`, destination: `dataset:k:${n}` })),
});
const dataset = (name: string, inEdges: [string, string][], outEdges: [string, string][]): Lineage['graph'][number] => ({
  id: `dataset:k:${name}`,
  type: 'DATASET',
  data: {
    id: { namespace: 'k', name },
    type: 'DB_TABLE',
    name,
    physicalName: name,
    createdAt: T,
    updatedAt: T,
    namespace: 'k',
    sourceName: 'k',
    fields: [],
    tags: [],
    lastModifiedAt: null,
    description: null,
    lastLifecycleState: null,
    facets: {},
  },
  inEdges: inEdges.map(([origin, destination]) => ({ origin, destination })),
  outEdges: outEdges.map(([origin, destination]) => ({ origin, destination })),
});

describe('lineage graph model', () => {
  it('Should draw each edge once, jobs with their latest state, and no edge to a node outside the answer', () => {
    const model = lineageModel({
      graph: [
        job('cook', 'FAILED', ['apples'], ['pie']),
        job('idle', null, [], []),
        dataset('apples', [['job:k:gather', 'dataset:k:apples']], [['dataset:k:apples', 'job:k:cook']]),
        dataset('pie', [['job:k:cook', 'dataset:k:pie']], []),
      ],
    });
    expect(model.nodes.map((n) => [n.id, n.kind, n.label, n.badge])).toEqual([
      ['job:k:cook', 'job', 'cook', 'FAILED'],
      ['job:k:idle', 'job', 'idle', undefined],
      ['dataset:k:apples', 'dataset', 'apples', undefined],
      ['dataset:k:pie', 'dataset', 'pie', undefined],
    ]);
    expect(model.edges.map((e) => e.id)).toEqual(['dataset:k:apples->job:k:cook', 'job:k:cook->dataset:k:pie']);
  });
});

describe('column lineage model', () => {
  const field = (dataset: string, name: string, inputs: string[], outputs: string[]): ColumnLineage['graph'][number] => ({
    id: `datasetField:k:${dataset}:${name}`,
    type: 'DATASET_FIELD',
    data: { namespace: 'k', dataset, datasetVersion: null, field: name, fieldType: 'INTEGER', transformationDescription: null, transformationType: null, inputFields: [] },
    inEdges: inputs.map((i) => ({ origin: `datasetField:k:${dataset}:${name}`, destination: i })),
    outEdges: outputs.map((o) => ({ origin: `datasetField:k:${dataset}:${name}`, destination: o })),
  });

  it('Should draw column edges from the input column to the column it feeds', () => {
    const model = columnModel({ graph: [field('in', 'a', [], ['datasetField:k:out:b']), field('out', 'b', ['datasetField:k:in:a'], [])] });
    expect(model.nodes.map((n) => [n.label, n.detail, n.badge])).toEqual([
      ['a', 'k / in', 'INTEGER'],
      ['b', 'k / out', 'INTEGER'],
    ]);
    expect(model.edges.map((e) => [e.source, e.target])).toEqual([['datasetField:k:in:a', 'datasetField:k:out:b']]);
  });
});
