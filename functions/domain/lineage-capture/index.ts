/**
 * @module lineage-capture
 * Public surface of lineage capture: the OpenLineage events lakeline records for the queries it
 * runs itself (routed, legacy), and the sink they are recorded in.
 */
export type { LineageSink } from './sink.ts';
export { EventStoreLineageSink } from './event-store-sink.ts';
export { datasetIdentity, datasetOf } from './datasets.ts';
export type { CatalogKind, DatasetField, LakeDataset } from './datasets.ts';
export { completeEvent, failEvent, startEvent } from './run-events.ts';
export type { QueryOutput, QueryRun } from './run-events.ts';
export { LAKELINE_VERSION, PRODUCER } from './facets.ts';
// `column-lineage.ts` (the columnLineage facet builder) is imported by path, not from here: it loads
// the SQL parser's WebAssembly, which bundles that only record events must not carry.
export type { ColumnLineageFacet, ColumnLineageRequest, InputField, Transformation } from './column-lineage.ts';
