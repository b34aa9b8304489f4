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
