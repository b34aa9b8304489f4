/**
 * @module lineage-capture/facets
 * The OpenLineage facets lakeline's queries carry, each stamped with the producer and the schema
 * URL of the facet version it follows (the files in `shared/openlineage/spec/facets/`).
 */
import pkg from '../../../package.json' with { type: 'json' };

/** lakeline's version, as released. */
export const LAKELINE_VERSION: string = pkg.version;

/**
 * The `producer` of every event lakeline emits. The events endpoint derives `integration` and
 * `integration_version` from it (`lakeline`, the version).
 */
export const PRODUCER = `https://github.com/lakeline/lakeline/tree/${LAKELINE_VERSION}`;

/** Schema URL of a RunEvent of the OpenLineage version the service validates against. */
export const RUN_EVENT_SCHEMA_URL = 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent';

const FACET_SCHEMAS = {
  sql: 'https://openlineage.io/spec/facets/1-1-0/SQLJobFacet.json#/$defs/SQLJobFacet',
  jobType: 'https://openlineage.io/spec/facets/2-0-4/JobTypeJobFacet.json#/$defs/JobTypeJobFacet',
  processing_engine: 'https://openlineage.io/spec/facets/1-1-1/ProcessingEngineRunFacet.json#/$defs/ProcessingEngineRunFacet',
  errorMessage: 'https://openlineage.io/spec/facets/1-0-1/ErrorMessageRunFacet.json#/$defs/ErrorMessageRunFacet',
  schema: 'https://openlineage.io/spec/facets/1-2-0/SchemaDatasetFacet.json#/$defs/SchemaDatasetFacet',
  symlinks: 'https://openlineage.io/spec/facets/1-0-1/SymlinksDatasetFacet.json#/$defs/SymlinksDatasetFacet',
  catalog: 'https://openlineage.io/spec/facets/1-1-0/CatalogDatasetFacet.json#/$defs/CatalogDatasetFacet',
  outputStatistics: 'https://openlineage.io/spec/facets/1-0-2/OutputStatisticsOutputDatasetFacet.json#/$defs/OutputStatisticsOutputDatasetFacet',
  columnLineage: 'https://openlineage.io/spec/facets/1-2-0/ColumnLineageDatasetFacet.json#/$defs/ColumnLineageDatasetFacet',
} as const;

/** A facet name this module builds. */
export type FacetName = keyof typeof FACET_SCHEMAS;

/** A facet: its fields plus `_producer` and `_schemaURL`. */
export const facet = <T extends object>(name: FacetName, fields: T): T & { _producer: string; _schemaURL: string } => ({
  _producer: PRODUCER,
  _schemaURL: FACET_SCHEMAS[name],
  ...fields,
});
