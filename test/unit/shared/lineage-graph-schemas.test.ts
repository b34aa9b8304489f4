// The response schemas of the lineage read model describe exactly what the read use cases answer
// (the schemas are strict, so a field a view adds without its schema fails here), and the query
// schemas take the parameters the parsers take.
import { describe, expect, it } from 'vitest';
import { OpenApiGeneratorV31, OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import type { ZodType } from 'zod';
import openapi from '../../../docs/openapi.json' with { type: 'json' };
import { applyEventsToLineageModel } from '#domain/lineage-graph/apply';
import { columnLineageGraph } from '#domain/lineage-graph/column-lineage';
import { lineageGraph } from '#domain/lineage-graph/graph';
import { getDataset, getJob, getLineageRun, listDatasets, listDatasetVersions, listJobRuns, listJobs, listNamespaces } from '#domain/lineage-graph/objects';
import { searchLineage } from '#domain/lineage-graph/search';
import {
  ColumnLineage,
  ColumnLineageQuery,
  Datasets,
  Dataset,
  DatasetVersions,
  JobRuns,
  Lineage,
  LineageJob,
  LineageJobs,
  LineageQuery,
  LineageRun,
  Namespaces,
  PageQuery,
  SearchQuery,
  SearchResults,
} from '#shared/schemas/lineage-graph';
import { MemoryLineageStore } from '../../helpers/memory-lineage-store.ts';
import { APPLES, exampleEvents, runEvent } from '../domain/lineage-graph/events.ts';

const ORG = 'org-s';
const valid = (schema: ZodType, value: unknown) => {
  const parsed = schema.safeParse(value);
  expect(parsed.success, JSON.stringify(parsed.error?.issues.slice(0, 3))).toBe(true);
};

describe('lineage graph response schemas', async () => {
  const store = new MemoryLineageStore();
  const F = { _producer: 'https://p.example/x', _schemaURL: 'https://p.example/s.json' };
  const parent = '0176a8c2-fe01-7439-87e6-56a1a1b4029f';
  await applyEventsToLineageModel(store, ORG, [
    ...exampleEvents(...APPLES, 'marquez/event_full.json', 'marquez/event_job_event.json', 'marquez/event_dataset_event.json'),
    runEvent({ eventType: 'START', time: '2024-01-01T00:00:00Z', runId: parent, job: 'dag' }),
    runEvent({
      eventType: 'COMPLETE',
      time: '2024-01-01T01:00:00Z',
      runId: '0176a8c2-fe01-7439-87e6-56a1a1b40300',
      job: 'dag.task',
      inputs: ['pg:a'],
      outputs: [{ namespace: 'pg', name: 'b', facets: { columnLineage: { ...F, fields: { x: { inputFields: [{ namespace: 'pg', name: 'a', field: 'y', transformations: [{ type: 'DIRECT', subtype: 'IDENTITY' }] }] } } } } }],
      runFacets: { parent: { ...F, run: { runId: parent }, job: { namespace: 'etl', name: 'dag' } }, nominalTime: { ...F, nominalStartTime: '2024-01-01T00:00:00Z' } },
    }),
  ]);
  const page = { limit: 100, offset: 0 };

  it('Should describe the graph, a run graph and the column graph', async () => {
    valid(Lineage, await lineageGraph(store, ORG, { nodeId: { type: 'JOB', namespace: 'grandmas.kitchen', name: 'prepare_apple_pie' }, depth: 20, direction: 'both' }));
    valid(Lineage, await lineageGraph(store, ORG, { runId: 'e7d71919-25b3-49cc-a0f5-63ecbee72b0f', depth: 20, direction: 'both' }));
    valid(Lineage, await lineageGraph(store, ORG, { nodeId: { type: 'DATASET', namespace: 'laurents-orchard', name: 'red.delicious' }, depth: 20, direction: 'both' }));
    valid(ColumnLineage, await columnLineageGraph(store, ORG, { nodeId: { type: 'DATASET', namespace: 'pg', name: 'b' }, depth: 5, withDownstream: true }));
  });

  it('Should describe the objects, runs, versions, lineage runs and search', async () => {
    valid(Namespaces, await listNamespaces(store, ORG, page));
    for (const { name: namespace } of (await listNamespaces(store, ORG, page)).namespaces) {
      const jobs = await listJobs(store, ORG, namespace, page);
      valid(LineageJobs, jobs);
      for (const job of jobs.jobs) {
        valid(LineageJob, await getJob(store, ORG, { namespace, name: job.name }));
        valid(JobRuns, await listJobRuns(store, ORG, { namespace, name: job.name }, page));
      }
      const datasets = await listDatasets(store, ORG, namespace, page);
      valid(Datasets, datasets);
      for (const dataset of datasets.datasets) {
        valid(Dataset, await getDataset(store, ORG, { namespace, name: dataset.name }));
        valid(DatasetVersions, await listDatasetVersions(store, ORG, { namespace, name: dataset.name }, page));
      }
    }
    valid(LineageRun, await getLineageRun(store, ORG, parent));
    valid(LineageRun, await getLineageRun(store, ORG, '0176a8c2-fe01-7439-87e6-56a1a1b40300'));
    valid(SearchResults, await searchLineage(store, ORG, { q: 'a', sort: 'UPDATED_AT', limit: 100, offset: 0 }));
  });

  it("Should make OpenAPI components named after Marquez's models, the same as the served document's", () => {
    // Prepare
    const registry = new OpenAPIRegistry();
    const responses = { Lineage, ColumnLineage, Namespaces, LineageJobs, LineageJob, JobRuns, Datasets, Dataset, DatasetVersions, LineageRun, SearchResults };
    for (const [name, schema] of Object.entries(responses)) {
      registry.registerPath({ method: 'get', path: `/${name}`, responses: { 200: { description: name, content: { 'application/json': { schema } } } } });
    }

    // Act
    const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({ openapi: '3.1.0', info: { title: 't', version: '1' } });

    // Assess
    const names = Object.keys(document.components?.schemas ?? {});
    expect(names).toEqual(expect.arrayContaining([...Object.keys(responses), 'LineageNode', 'LineageEdge', 'JobData', 'DatasetData', 'JobRun', 'ColumnLineageNodeData', 'InputFieldNodeData', 'Namespace', 'DatasetVersion', 'SearchResult']));
    // The served document registers them through the routes' contracts: the same components, not clashing ones.
    const served = openapi.components.schemas as Record<string, unknown>;
    for (const name of names.filter((n) => n in served)) expect(served[name], name).toEqual(document.components?.schemas?.[name]);
  });

  it('Should describe the query parameters', () => {
    // The document's view: integers are integers (the parsers read them from the query string).
    valid(LineageQuery, { nodeId: 'job:a:b', depth: 3, direction: 'upstream', asOf: '2024-01-01T00:00:00Z' });
    valid(ColumnLineageQuery, { nodeId: 'datasetField:a:b:c', withDownstream: 'true' });
    valid(PageQuery, { limit: 10, offset: 0 });
    valid(SearchQuery, { q: 'x', filter: 'JOB', sort: 'NAME' });
  });
});
