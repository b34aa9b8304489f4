/**
 * @module lineage-graph
 * Public surface of the lineage read model: the consumer that maintains it from stored events
 * (`applyEventsToLineageModel`), the rebuild (`rebuildLineageModel`), the read use cases behind
 * Marquez's endpoints (graph, column lineage, objects, search), the parsing of their parameters,
 * and the ports the adapters implement. Pure: no AWS, no HTTP.
 */
export { applyEventsToLineageModel, applyEventsToModel } from './apply.ts';
export type { ApplySummary } from './apply.ts';
export { rebuildLineageModel } from './rebuild.ts';
export type { RebuildSummary } from './rebuild.ts';
export { lineageGraph } from './graph.ts';
export type { Direction, EdgeView, GraphNodeView, LineageGraphQuery, LineageGraphView } from './graph.ts';
export { columnLineageGraph, parseColumnLineage } from './column-lineage.ts';
export type { ColumnLineageGraphView, ColumnLineageNodeView, ColumnLineageQuery, InputFieldView, TransformationView } from './column-lineage.ts';
export { getDataset, getJob, getLineageRun, listDatasets, listDatasetVersions, listJobRuns, listJobs, listNamespaces } from './objects.ts';
export type { DatasetsView, DatasetVersionsView, JobsView, LineageRunView, NamespacesView, RunsView } from './objects.ts';
export { searchLineage } from './search.ts';
export type { SearchQuery, SearchResultsView, SearchResultView } from './search.ts';
export {
  parseAsOf,
  parseColumnLineageQuery,
  parseLineageQuery,
  parsePage,
  parsePathName,
  parsePathQualifiedName,
  parseRunId,
  parseSearchQuery,
  DEFAULT_DEPTH,
  MAX_DEPTH,
} from './params.ts';
export { datasetIdOf, datasetNodeId, datasetFieldNodeId, jobIdOf, jobNodeId, parseNodeId } from './ids.ts';
export type { NodeId, QualifiedName } from './ids.ts';
export type { ModelEvent } from './merge.ts';
export type { LineageModel, LineageModelStore, StoredEventSource, Page } from './ports.ts';
export type * from './views.ts';
