// Every answer the read use cases give for an organization, gathered through the use cases
// themselves, so two models (events applied in different orders, rebuilt, replayed) can be
// compared the way a user would see them.
import { columnLineageGraph } from '#domain/lineage-graph/column-lineage';
import { lineageGraph } from '#domain/lineage-graph/graph';
import { getDataset, getJob, getLineageRun, listDatasets, listDatasetVersions, listJobRuns, listJobs, listNamespaces } from '#domain/lineage-graph/objects';
import type { LineageModelStore } from '#domain/lineage-graph/ports';
import { searchLineage } from '#domain/lineage-graph/search';
import { listTags } from '#domain/lineage-graph/tags';

const ALL = { limit: 1000, offset: 0 };

/** Every answer of the org's model: objects, graphs from every job and dataset, column lineage, searches. */
export async function answers(store: LineageModelStore, orgId: string, options: { asOf?: string[] } = {}): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const namespaces = await listNamespaces(store, orgId, ALL);
  out.namespaces = namespaces;
  out.tags = await listTags(store, orgId, ALL);
  for (const { name: namespace } of namespaces.namespaces) {
    const jobs = await listJobs(store, orgId, namespace, ALL);
    out[`jobs ${namespace}`] = jobs;
    for (const job of jobs.jobs) {
      const name = { namespace, name: job.name };
      out[`job ${namespace}:${job.name}`] = await getJob(store, orgId, name);
      const runs = await listJobRuns(store, orgId, name, ALL);
      out[`runs ${namespace}:${job.name}`] = runs;
      for (const run of runs.runs) {
        out[`lineage-run ${run.id}`] = await getLineageRun(store, orgId, run.id);
        out[`run graph ${run.id}`] = await lineageGraph(store, orgId, { runId: run.id, depth: 20, direction: 'both' });
      }
      for (const direction of ['both', 'upstream', 'downstream'] as const) {
        out[`graph ${direction} job:${namespace}:${job.name}`] = await lineageGraph(store, orgId, { nodeId: { type: 'JOB', ...name }, depth: 20, direction });
      }
      for (const asOf of options.asOf ?? []) {
        out[`graph asOf ${asOf} job:${namespace}:${job.name}`] = await lineageGraph(store, orgId, { nodeId: { type: 'JOB', ...name }, depth: 20, direction: 'both', asOf }).catch((e: Error) => e.message);
      }
    }
    const datasets = await listDatasets(store, orgId, namespace, ALL);
    out[`datasets ${namespace}`] = datasets;
    for (const dataset of datasets.datasets) {
      const name = { namespace, name: dataset.name };
      out[`dataset ${namespace}:${dataset.name}`] = await getDataset(store, orgId, name);
      out[`versions ${namespace}:${dataset.name}`] = await listDatasetVersions(store, orgId, name, ALL);
      out[`graph dataset:${namespace}:${dataset.name}`] = await lineageGraph(store, orgId, { nodeId: { type: 'DATASET', ...name }, depth: 20, direction: 'both' });
      out[`columns dataset:${namespace}:${dataset.name}`] = await columnLineageGraph(store, orgId, { nodeId: { type: 'DATASET', ...name }, depth: 20, withDownstream: true });
    }
  }
  for (const q of ['a', 'e', 'o']) out[`search ${q}`] = await searchLineage(store, orgId, { q, sort: 'NAME', limit: 1000, offset: 0 });
  out['search by time'] = await searchLineage(store, orgId, { q: 'a', sort: 'UPDATED_AT', limit: 1000, offset: 0 });
  return out;
}
