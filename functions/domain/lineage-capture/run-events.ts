/**
 * @module lineage-capture/run-events
 * The OpenLineage RunEvents of one query run: START when it begins, then COMPLETE (with its output
 * and output statistics) or FAIL (with the error). Every event of a run repeats the job's facets,
 * so each one stands alone in the events listing.
 */
import type { ColumnLineageFacet } from './column-lineage-facet.ts';
import type { LakeDataset } from '../core/lake-dataset.ts';
import { datasetOf, type CatalogKind } from './datasets.ts';
import { facet, LAKELINE_VERSION, PRODUCER, RUN_EVENT_SCHEMA_URL } from './facets.ts';

/** What lineage knows about a query run from its start. */
export interface QueryRun {
  readonly runId: string;
  readonly job: { readonly namespace: string; readonly name: string };
  /** The SQL as the caller sent it (the `sql` facet's `query`). */
  readonly sql: string;
  /** The SQL dialect (`duckdb`). */
  readonly dialect: string;
  readonly engine: { readonly name: string; readonly version: string };
  readonly inputs: readonly LakeDataset[];
  readonly catalogKind: CatalogKind;
}

/** A table the run wrote, with what it wrote. */
export interface QueryOutput {
  readonly dataset: LakeDataset;
  readonly rowCount: number;
  /** Bytes of data files written. */
  readonly bytes: number;
  readonly fileCount: number;
  /** How each written column came from the inputs (`column-lineage.ts`), when the SQL could be read for it. */
  readonly columnLineage?: ColumnLineageFacet;
}

/** The output dataset entry: its facets, plus the column lineage when known. */
const outputDataset = (output: QueryOutput, catalogKind: CatalogKind) => {
  const dataset = datasetOf(output.dataset, catalogKind);
  return output.columnLineage ? { ...dataset, facets: { ...dataset.facets, columnLineage: output.columnLineage } } : dataset;
};

const base = (run: QueryRun, eventType: 'START' | 'COMPLETE' | 'FAIL', at: Date, runFacets: Record<string, unknown> = {}) => ({
  eventType,
  eventTime: at.toISOString(),
  producer: PRODUCER,
  schemaURL: RUN_EVENT_SCHEMA_URL,
  run: {
    runId: run.runId,
    facets: {
      processing_engine: facet('processing_engine', { name: run.engine.name, version: run.engine.version, openlineageAdapterVersion: LAKELINE_VERSION }),
      ...runFacets,
    },
  },
  job: {
    namespace: run.job.namespace,
    name: run.job.name,
    facets: {
      sql: facet('sql', { query: run.sql, dialect: run.dialect }),
      jobType: facet('jobType', { processingType: 'BATCH', integration: 'LAKELINE', jobType: 'QUERY' }),
    },
  },
  inputs: run.inputs.map((d) => datasetOf(d, run.catalogKind)),
});

/** The START event. */
export const startEvent = (run: QueryRun, at: Date) => ({ ...base(run, 'START', at), outputs: [] });

/** The COMPLETE event, with the output table when the run wrote one. */
export const completeEvent = (run: QueryRun, at: Date, output?: QueryOutput) => ({
  ...base(run, 'COMPLETE', at),
  outputs: output
    ? [
        {
          ...outputDataset(output, run.catalogKind),
          outputFacets: { outputStatistics: facet('outputStatistics', { rowCount: output.rowCount, size: output.bytes, fileCount: output.fileCount }) },
        },
      ]
    : [],
});

/** The FAIL event, carrying the error message the caller saw. */
export const failEvent = (run: QueryRun, at: Date, message: string) => ({
  ...base(run, 'FAIL', at, { errorMessage: facet('errorMessage', { message, programmingLanguage: 'SQL' }) }),
  outputs: [],
});
