/**
 * @module schemas/lineage-graph
 * The lineage read model's endpoints (Marquez 0.51's paths and shapes): the query parameters, and
 * the responses of `GET /api/v1/lineage`, `/api/v1/column-lineage`, the namespace, job, run,
 * dataset and version objects, `/api/v1/lineage-runs/{runId}` and `/api/v1/search`. Component
 * names follow Marquez's model names; where the document already uses one (`Job`, `Run`) the
 * Marquez object is `LineageJob` / `JobRun`. Parameters are validated in depth by
 * `domain/lineage-graph/params.ts` (messages naming the parameter); these schemas describe them.
 * Response objects are strict, so a field added to a view without its schema fails the tests.
 */
import { z } from './zod.ts';

const Facets = z.record(z.string(), z.unknown()).openapi({ description: 'OpenLineage facets by name' });
const Time = z.string().openapi({ description: 'UTC, YYYY-MM-DDTHH:MM:SS.ffffff+00:00', example: '2024-01-31T12:00:00.000000+00:00' });
const NullableTime = Time.nullable();

/** `{namespace, name}` of a dataset. */
export const DatasetId = z.strictObject({ namespace: z.string(), name: z.string() }).openapi('DatasetId');
/** `{namespace, name}` of a job. */
export const JobId = z.strictObject({ namespace: z.string(), name: z.string() }).openapi('JobId');
/** A dataset version. */
export const DatasetVersionId = z.strictObject({ namespace: z.string(), name: z.string(), version: z.string() }).openapi('DatasetVersionId');
/** A job version. */
export const JobVersionId = z.strictObject({ namespace: z.string(), name: z.string(), version: z.string() }).openapi('JobVersionId');

const RunState = z.enum(['NEW', 'RUNNING', 'COMPLETED', 'ABORTED', 'FAILED']).openapi('RunState');
const RunDatasetVersion = z.strictObject({ datasetVersionId: DatasetVersionId, facets: Facets });

const runShape = {
  id: z.string().openapi({ description: 'the OpenLineage run id' }),
  createdAt: Time.openapi({ description: 'earliest event time of the run' }),
  updatedAt: Time.openapi({ description: 'latest event time of the run' }),
  nominalStartTime: NullableTime,
  nominalEndTime: NullableTime,
  state: RunState,
  jobVersion: JobVersionId,
  startedAt: NullableTime.openapi({ description: 'earliest START or RUNNING event' }),
  endedAt: NullableTime.openapi({ description: 'time of the terminal event' }),
  durationMs: z.number().int().nullable(),
  args: z.record(z.string(), z.string()),
  facets: Facets,
  inputDatasetVersions: z.array(RunDatasetVersion).optional().openapi({ description: 'left out of graph nodes' }),
  outputDatasetVersions: z.array(RunDatasetVersion).optional().openapi({ description: 'left out of graph nodes' }),
};

/** Marquez's `Run`: a run of a job, its events merged. */
export const JobRun = z.strictObject(runShape).openapi('JobRun');

/** A column. */
export const Field = z.strictObject({ name: z.string(), type: z.string().nullable(), tags: z.array(z.string()), description: z.string().nullable() }).openapi('Field');

const jobDataShape = {
  id: JobId,
  type: z.enum(['BATCH', 'STREAM']),
  name: z.string(),
  simpleName: z.string(),
  parentJobName: z.string().nullable(),
  parentJobUuid: z.string().nullable(),
  createdAt: Time,
  updatedAt: Time,
  namespace: z.string(),
  inputs: z.array(DatasetId),
  outputs: z.array(DatasetId),
  location: z.string().nullable(),
  description: z.string().nullable(),
  latestRun: JobRun.nullable(),
};

/** Marquez's `JobData`: a job node of the graph. */
export const JobData = z.strictObject(jobDataShape).openapi('JobData');

const datasetDataShape = {
  id: DatasetId,
  type: z.enum(['DB_TABLE', 'STREAM']),
  name: z.string(),
  physicalName: z.string(),
  createdAt: Time,
  updatedAt: Time,
  namespace: z.string(),
  sourceName: z.string(),
  fields: z.array(Field),
  tags: z.array(z.string()),
  lastModifiedAt: NullableTime,
  description: z.string().nullable(),
  lastLifecycleState: z.string().nullable(),
  facets: Facets,
  version: z.string().nullable().optional().openapi({ description: 'runId graphs only: the version the run read or wrote' }),
};

/** Marquez's `DatasetData`: a dataset node of the graph. */
export const DatasetData = z.strictObject(datasetDataShape).openapi('DatasetData');

/** An edge between two node ids. */
export const LineageEdge = z.strictObject({ origin: z.string(), destination: z.string() }).openapi('LineageEdge');

/** A node of the lineage graph. */
export const LineageNode = z
  .strictObject({
    id: z.string().openapi({ example: 'dataset:food_delivery:public.orders' }),
    type: z.enum(['JOB', 'DATASET']),
    data: z.union([JobData, DatasetData]),
    inEdges: z.array(LineageEdge),
    outEdges: z.array(LineageEdge),
  })
  .openapi('LineageNode');

/** `GET /api/v1/lineage`: Marquez's `Lineage`. */
export const Lineage = z.strictObject({ graph: z.array(LineageNode) }).openapi('Lineage');

/** One transformation of an input column (ColumnLineageDatasetFacet 1-2-0). */
export const Transformation = z
  .strictObject({ type: z.string(), subtype: z.string().nullable(), description: z.string().nullable(), masking: z.boolean().nullable() })
  .openapi('Transformation');

/** An input column (Marquez's `InputFieldNodeData`, plus `transformations`). */
export const InputFieldNodeData = z
  .strictObject({
    namespace: z.string(),
    dataset: z.string(),
    datasetVersion: z.string().nullable(),
    field: z.string(),
    transformationDescription: z.string().nullable(),
    transformationType: z.string().nullable(),
    transformations: z.array(Transformation),
  })
  .openapi('InputFieldNodeData');

/** A column node's data (Marquez's `ColumnLineageNodeData`). */
export const ColumnLineageNodeData = z
  .strictObject({
    namespace: z.string(),
    dataset: z.string(),
    datasetVersion: z.string().nullable(),
    field: z.string(),
    fieldType: z.string().nullable(),
    transformationDescription: z.string().nullable(),
    transformationType: z.string().nullable(),
    inputFields: z.array(InputFieldNodeData),
  })
  .openapi('ColumnLineageNodeData');

/** A node of the column-lineage graph (`inEdges` point from the node to its inputs, as in Marquez). */
export const ColumnLineageNode = z
  .strictObject({ id: z.string(), type: z.literal('DATASET_FIELD'), data: ColumnLineageNodeData, inEdges: z.array(LineageEdge), outEdges: z.array(LineageEdge) })
  .openapi('ColumnLineageNode');

/** `GET /api/v1/column-lineage`. */
export const ColumnLineage = z.strictObject({ graph: z.array(ColumnLineageNode) }).openapi('ColumnLineage');

/** Marquez's `Namespace`. */
export const Namespace = z
  .strictObject({ name: z.string(), createdAt: Time, updatedAt: Time, ownerName: z.string(), description: z.string().nullable(), isHidden: z.boolean() })
  .openapi('Namespace');
/** `GET /api/v1/namespaces`. */
export const Namespaces = z.strictObject({ namespaces: z.array(Namespace), totalCount: z.number().int() }).openapi('Namespaces');

/** Marquez's `Job` (`GET /api/v1/namespaces/{namespace}/jobs/{job}`). */
export const LineageJob = z
  .strictObject({ ...jobDataShape, facets: Facets, currentVersion: z.string().nullable(), labels: z.array(z.string()), tags: z.array(z.string()) })
  .openapi('LineageJob');
/** `GET /api/v1/namespaces/{namespace}/jobs`. */
export const LineageJobs = z.strictObject({ jobs: z.array(LineageJob), totalCount: z.number().int() }).openapi('LineageJobs');
/** `GET /api/v1/namespaces/{namespace}/jobs/{job}/runs` (newest first). */
export const JobRuns = z.strictObject({ runs: z.array(JobRun), totalCount: z.number().int() }).openapi('JobRuns');

const ColumnLineageEntry = z.strictObject({
  name: z.string(),
  inputFields: z.array(z.strictObject({ namespace: z.string(), dataset: z.string(), field: z.string(), transformationDescription: z.string().nullable(), transformationType: z.string().nullable() })),
});

/** Marquez's `Dataset` (`GET /api/v1/namespaces/{namespace}/datasets/{dataset}`), plus `producedBy`. */
export const Dataset = z
  .strictObject({
    ...datasetDataShape,
    currentVersion: z.string().nullable(),
    columnLineage: z.array(ColumnLineageEntry).nullable(),
    deleted: z.boolean(),
    producedBy: JobId.nullable().openapi({ description: 'the job of the run that last wrote the dataset (lakeline)' }),
  })
  .openapi('Dataset');
/** `GET /api/v1/namespaces/{namespace}/datasets`. */
export const Datasets = z.strictObject({ datasets: z.array(Dataset), totalCount: z.number().int() }).openapi('Datasets');

/** Marquez's `DatasetVersion`: one run's write of a dataset. */
export const DatasetVersion = z
  .strictObject({
    id: DatasetId,
    type: z.enum(['DB_TABLE', 'STREAM']),
    name: z.string(),
    physicalName: z.string(),
    createdAt: Time,
    version: z.string(),
    namespace: z.string(),
    sourceName: z.string(),
    fields: z.array(Field),
    tags: z.array(z.string()),
    lifecycleState: z.string().nullable(),
    description: z.string().nullable(),
    currentSchemaVersion: z.null(),
    createdByRun: JobRun,
    facets: Facets,
  })
  .openapi('DatasetVersion');
/** `GET /api/v1/namespaces/{namespace}/datasets/{dataset}/versions` (newest first). */
export const DatasetVersions = z.strictObject({ versions: z.array(DatasetVersion), totalCount: z.number().int() }).openapi('DatasetVersions');

/** `GET /api/v1/lineage-runs/{runId}`: a run with its job, parent and children. */
export const LineageRun = z
  .strictObject({
    ...runShape,
    job: JobId,
    jobFacets: Facets,
    parent: z.strictObject({ runId: z.string().nullable(), job: JobId }).nullable(),
    children: z.array(z.strictObject({ runId: z.string(), job: JobId, state: RunState })),
  })
  .openapi('LineageRun');

/** One search hit. */
export const SearchResult = z
  .strictObject({ type: z.enum(['DATASET', 'JOB']), name: z.string(), updatedAt: Time, namespace: z.string(), nodeId: z.string() })
  .openapi('SearchResult');
/** `GET /api/v1/search`. */
export const SearchResults = z.strictObject({ totalCount: z.number().int(), results: z.array(SearchResult) }).openapi('SearchResults');

/** Query parameters of `GET /api/v1/lineage`. */
export const LineageQuery = z
  .object({
    nodeId: z.string().optional().openapi({ description: 'job:<namespace>:<name> or dataset:<namespace>:<name>; required unless runId is given', example: 'dataset:food_delivery:public.orders' }),
    depth: z.string().optional().openapi({ description: 'job hops, 0..100, default 20' }),
    direction: z.enum(['both', 'upstream', 'downstream']).optional().openapi({ description: 'default both (Marquez: every node connected within depth)' }),
    asOf: z.string().optional().openapi({ description: 'ISO-8601: each job as its latest run at or before then', example: '2024-01-31T12:00:00Z' }),
    runId: z.string().optional().openapi({ description: "one run's graph, with the versions it read and wrote" }),
  })
  .openapi('LineageQuery');

/** Query parameters of `GET /api/v1/column-lineage`. */
export const ColumnLineageQuery = z
  .object({
    nodeId: z.string().openapi({ description: 'datasetField:<namespace>:<dataset>:<field>, dataset:<namespace>:<name> or job:<namespace>:<name> (its current outputs)' }),
    depth: z.string().optional().openapi({ description: 'edges to follow, 0..100, default 20' }),
    withDownstream: z.enum(['true', 'false']).optional().openapi({ description: 'default false' }),
  })
  .openapi('ColumnLineageQuery');

/** Query parameters of every paged object list. */
export const PageQuery = z
  .object({ limit: z.string().optional().openapi({ description: '1..1000, default 100' }), offset: z.string().optional().openapi({ description: 'default 0' }) })
  .openapi('PageQuery');

/** Query parameters of `GET /api/v1/search`. */
export const SearchQuery = z
  .object({
    q: z.string().openapi({ description: 'case-insensitive substring of job and dataset names (and symlink aliases)' }),
    filter: z.enum(['DATASET', 'JOB']).optional(),
    sort: z.enum(['NAME', 'UPDATED_AT']).optional().openapi({ description: 'default NAME' }),
    namespace: z.string().optional(),
    limit: z.string().optional().openapi({ description: '1..1000, default 10' }),
    offset: z.string().optional().openapi({ description: 'default 0' }),
  })
  .openapi('SearchQuery');
