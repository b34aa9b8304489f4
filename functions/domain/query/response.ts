/**
 * @module query/response
 * The answer of `POST /api/v1/query`, the contract's `UnifiedQueryResponse`, as every step of the
 * routed query builds it from its plan: the decision, the job, and what the step adds.
 */
import type { TabularResult } from '../lake/engine.ts';
import type { JobIdentity } from '../core/query-job.ts';
import type { EngineDecision } from '../routing/decide.ts';
import type { RoutedPlan } from './plan.ts';

/** The contract's `UnifiedQueryResponse`. */
export interface UnifiedQueryResponse {
  readonly success: true;
  readonly explain?: true;
  readonly engine_decision: EngineDecision;
  readonly results?: TabularResult;
  readonly row_count?: number;
  readonly execution_time?: string;
  readonly state?: 'COMPLETE' | 'SUBMITTED';
  readonly run_id?: string;
  readonly output_table?: string;
  readonly compute?: Readonly<Record<string, unknown>>;
  readonly job?: JobIdentity;
}

/** The answer of a run of the plan: its decision (or the one given) and job, and what the run adds. */
export const answerOf = (plan: RoutedPlan, fields: Omit<UnifiedQueryResponse, 'success' | 'engine_decision' | 'job'>, decision = plan.route.decision): UnifiedQueryResponse => ({
  success: true,
  engine_decision: decision,
  ...fields,
  job: plan.job,
});
