/**
 * @module api/types
 * The API's request and response types, inferred from the zod schemas the handlers validate with
 * and the OpenAPI document is generated from (`functions/shared/schemas/`). Type-only imports: no
 * schema code reaches the bundle, and a change of a server schema fails the console's typecheck.
 */
import type { z } from 'zod';
import type { EventsQuery, StoredLineageEvent } from '../../../functions/shared/schemas/lineage.ts';
import type {
  EngineDecision as EngineDecisionSchema,
  RoutedEngine as RoutedEngineSchema,
  RoutedQueryRequest,
  Run as RunSchema,
  TableDescription as TableDescriptionSchema,
  TableSummary as TableSummarySchema,
  UnifiedQueryResponse,
} from '../../../functions/shared/schemas/query.ts';
import type { TabularResult as TabularResultSchema } from '../../../functions/shared/schemas/common.ts';
import type { Webhook as WebhookSchema, WebhookDelivery as WebhookDeliverySchema } from '../../../functions/shared/schemas/notifications.ts';
import type {
  ColumnLineage as ColumnLineageSchema,
  ColumnLineageQuery,
  Dataset as DatasetSchema,
  DatasetData as DatasetDataSchema,
  DatasetVersions as DatasetVersionsSchema,
  JobData as JobDataSchema,
  JobRun as JobRunSchema,
  JobRuns as JobRunsSchema,
  Lineage as LineageSchema,
  LineageJob as LineageJobSchema,
  LineageJobs as LineageJobsSchema,
  LineageQuery,
  LineageRun as LineageRunSchema,
  Namespaces as NamespacesSchema,
  SearchQuery,
  SearchResults as SearchResultsSchema,
} from '../../../functions/shared/schemas/lineage-graph.ts';

/** A stored lineage event (`GET /api/v1/events`). */
export type LineageEvent = z.infer<typeof StoredLineageEvent>;
/** The run states of lineage events. */
export type RunState = LineageEvent['run_state'];
/** Every run state, in lifecycle order. */
export const RUN_STATES: readonly RunState[] = ['START', 'RUNNING', 'COMPLETE', 'ABORT', 'FAIL', 'OTHER'];
/** Query parameters of `GET /api/v1/events` (all strings on the wire). */
export type EventsParams = z.input<typeof EventsQuery>;

/** A lake table in a listing (`GET /api/v1/tables`). */
export type TableSummary = z.infer<typeof TableSummarySchema>;
/** A described lake table (`GET /api/v1/tables/{namespace}/{table}`). */
export type TableDescription = z.infer<typeof TableDescriptionSchema>;

/** Engines the routed endpoint can be pinned to. */
export type RoutedEngine = z.infer<typeof RoutedEngineSchema>;
/** `POST /api/v1/query` body as a caller writes it (defaults may be left out). */
export type QueryRequest = z.input<typeof RoutedQueryRequest>;
/** `POST /api/v1/query` answer. */
export type QueryResponse = z.infer<typeof UnifiedQueryResponse>;
/** The routing decision. */
export type EngineDecision = z.infer<typeof EngineDecisionSchema>;
/** Rows with column names and engine type names. */
export type TabularResult = z.infer<typeof TabularResultSchema>;
/** A run (`GET /api/v1/runs/{run_id}`). */
export type Run = z.infer<typeof RunSchema>;

/** `GET /api/v1/lineage`: the graph around a node. */
export type Lineage = z.infer<typeof LineageSchema>;
/** One node of the lineage graph. */
export type LineageGraphNode = Lineage['graph'][number];
/** A job node's data. */
export type JobData = z.infer<typeof JobDataSchema>;
/** A dataset node's data. */
export type DatasetData = z.infer<typeof DatasetDataSchema>;
/** `GET /api/v1/column-lineage`. */
export type ColumnLineage = z.infer<typeof ColumnLineageSchema>;
/** One column node. */
export type ColumnLineageNode = ColumnLineage['graph'][number];
/** Query parameters of `GET /api/v1/lineage`. */
export type LineageParams = z.input<typeof LineageQuery>;
/** Query parameters of `GET /api/v1/column-lineage`. */
export type ColumnLineageParams = z.input<typeof ColumnLineageQuery>;
/** Query parameters of `GET /api/v1/search`. */
export type SearchParams = z.input<typeof SearchQuery>;
/** `GET /api/v1/search`. */
export type SearchResults = z.infer<typeof SearchResultsSchema>;
/** `GET /api/v1/namespaces`. */
export type Namespaces = z.infer<typeof NamespacesSchema>;
/** `GET /api/v1/namespaces/{namespace}/jobs`. */
export type LineageJobs = z.infer<typeof LineageJobsSchema>;
/** `GET /api/v1/namespaces/{namespace}/jobs/{job}`. */
export type LineageJob = z.infer<typeof LineageJobSchema>;
/** `GET /api/v1/namespaces/{namespace}/jobs/{job}/runs` (newest first). */
export type JobRuns = z.infer<typeof JobRunsSchema>;
/** One run of a job (Marquez's `Run`). */
export type JobRun = z.infer<typeof JobRunSchema>;
/** `GET /api/v1/namespaces/{namespace}/datasets/{dataset}`. */
export type Dataset = z.infer<typeof DatasetSchema>;
/** `GET /api/v1/namespaces/{namespace}/datasets/{dataset}/versions` (newest first). */
export type DatasetVersions = z.infer<typeof DatasetVersionsSchema>;
/** `GET /api/v1/lineage-runs/{runId}`. */
export type LineageRun = z.infer<typeof LineageRunSchema>;
/** A lineage run's state (`NEW`, `RUNNING`, `COMPLETED`, `ABORTED`, `FAILED`). */
export type LineageRunState = JobRun['state'];

/** An alert destination (`/api/v1/webhooks`). */
export type Webhook = z.infer<typeof WebhookSchema>;
/** One entry of a webhook's delivery log. */
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;
