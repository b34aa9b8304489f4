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
import { MAX_NAME_CHARS, MAX_NODE_ID_CHARS, MAX_SEARCH_CHARS, MAX_TIME_CHARS } from '#domain/input-limits';
import { DEFAULT_DEPTH, DEFAULT_LIMIT, DEFAULT_SEARCH_LIMIT, MAX_DEPTH, MAX_LIMIT, MAX_OFFSET, NODE_ID_PATTERNS } from '#domain/lineage-graph/params';
import { LINEAGE_UUID } from './lineage.ts';
import { EVENT_TIME_PATTERN } from './event-time-pattern.ts';
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

/** Marquez's `Tag`: a name an OpenLineage `tags` facet carried (no description: OpenLineage's tags have none). */
export const Tag = z.strictObject({ name: z.string(), description: z.string().nullable() }).openapi('Tag');
/** `GET /api/v1/tags`. */
export const Tags = z.strictObject({ tags: z.array(Tag), totalCount: z.number().int() }).openapi('Tags');

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

const depth = (what: string) => z.int().min(0).max(MAX_DEPTH).optional().openapi({ description: `${what}, default ${DEFAULT_DEPTH}` });
const limit = (fallback: number) => z.int().min(1).max(MAX_LIMIT).optional().openapi({ description: `default ${fallback}` });
const offset = z.int().min(0).max(MAX_OFFSET).optional().openapi({ description: 'default 0' });
const nodeId = (pattern: RegExp, description: string) => z.string().max(MAX_NODE_ID_CHARS).regex(pattern).openapi({ description });

/** Query parameters of `GET /api/v1/lineage` (one of nodeId and runId is required; asOf does not combine with runId). */
export const LineageQuery = z
  .object({
    nodeId: nodeId(NODE_ID_PATTERNS.lineage, 'job:<namespace>:<name> or dataset:<namespace>:<name>; required unless runId is given')
      .optional()
      .openapi({ example: 'dataset:food_delivery:public.orders' }),
    depth: depth('job hops'),
    direction: z.enum(['both', 'upstream', 'downstream']).optional().openapi({ description: 'default both (Marquez: every node connected within depth)' }),
    // The event time's pattern: a strict subset of what is read (as for `eventTime` on ingestion).
    asOf: z
      .string()
      .max(MAX_TIME_CHARS)
      .regex(new RegExp(EVENT_TIME_PATTERN))
      .optional()
      .openapi({ description: 'an RFC 3339 date-time (no zone: UTC), 1971 to 9998: each job as its latest run at or before then', example: '2024-01-31T12:00:00Z' }),
    runId: LINEAGE_UUID.optional().openapi({ description: "one run's graph, with the versions it read and wrote" }),
  })
  .openapi('LineageQuery');

/** Query parameters of `GET /api/v1/column-lineage`. */
export const ColumnLineageQuery = z
  .object({
    nodeId: nodeId(NODE_ID_PATTERNS.columnLineage, 'datasetField:<namespace>:<dataset>:<field>, dataset:<namespace>:<name> or job:<namespace>:<name> (its current outputs)'),
    depth: depth('edges to follow'),
    withDownstream: z.enum(['true', 'false']).optional().openapi({ description: 'default false' }),
  })
  .openapi('ColumnLineageQuery');

/** Query parameters of every paged object list. */
export const PageQuery = z.object({ limit: limit(DEFAULT_LIMIT), offset }).openapi('PageQuery');

/** Query parameters of `GET /api/v1/search`. */
export const SearchQuery = z
  .object({
    q: z
      .string()
      .max(MAX_SEARCH_CHARS)
      .regex(/\S/)
      .openapi({ description: 'case-insensitive substring of job and dataset names (and symlink aliases); not only spaces' }),
    filter: z.enum(['DATASET', 'JOB']).optional(),
    sort: z.enum(['NAME', 'UPDATED_AT']).optional().openapi({ description: 'default NAME' }),
    namespace: z.string().max(MAX_NAME_CHARS).optional(),
    limit: limit(DEFAULT_SEARCH_LIMIT),
    offset,
  })
  .openapi('SearchQuery');
