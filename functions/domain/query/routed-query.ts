/**
 * @module query/routed-query
 * The use case of `POST /api/v1/query`, in three steps: {@link planRoutedQuery} parses (SQL
 * firewall), estimates (Iceberg metadata) and decides (`routing/decide.ts`) into a `RoutedPlan`;
 * `explain` answers the plan's decision; otherwise the plan runs as it is — an interactive read
 * within the request on DuckDB or polars ({@link runInteractive}, `COMPLETE` with rows), or a write
 * or a read too large for the request as a Spark or bloom run ({@link submitPlan}, `SUBMITTED`),
 * whose rows `GET /api/v1/runs/{run_id}` pages. Every run records START and COMPLETE/FAIL lineage:
 * in the request for interactive runs (`run-lineage.ts`), in the runs use cases for Spark and bloom.
 */
import { ForbiddenError } from '../errors.ts';
import { qualifiedName } from '../core/names.ts';
import { planRoutedQuery, type PlanDeps } from './plan.ts';
import type { CheckedRoutedRequest } from '../routing/request.ts';
import { runInteractive, type InteractiveDeps } from './run-interactive.ts';
import type { UnifiedQueryResponse } from './response.ts';
import { submitPlan, type SubmitDeps } from './submit.ts';

/** What the use case needs: what each of its steps needs. */
export type RoutedQueryDeps = PlanDeps & InteractiveDeps & SubmitDeps;

/**
 * Runs a routed query.
 *
 * Refusals (400 request, firewall or capability; 402; 403) happen before any run; from the run's
 * start, lineage records START and COMPLETE or FAIL.
 *
 * @throws {ValidationError} (400) bad request, refused SQL, the engine's rejection of the SQL
 * @throws {CapabilityError} (400) the pinned engine cannot run the request
 * @throws {PaymentRequiredError} (402) a metered engine and no payment method
 * @throws {ForbiddenError} (403) the plan does not allow the query, or a read-only key asks for a write
 * @throws {ExecutionError} (500) the engine failed, with its message
 * @param access - `mayWrite` false for a read-only key (ADR 0049): a query that writes a table is refused
 */
export async function runRoutedQuery(deps: RoutedQueryDeps, orgId: string, request: CheckedRoutedRequest, access: { readonly mayWrite: boolean } = { mayWrite: true }): Promise<UnifiedQueryResponse> {
  const plan = await planRoutedQuery(deps, orgId, request);
  // Explain answers the decision only: no engine runs, nothing is checked against the bill.
  if (request.explain) return { success: true, explain: true, engine_decision: plan.route.decision };
  if (plan.kind === 'batch-write' && !access.mayWrite) {
    throw new ForbiddenError(`this API key is read-only: the query writes ${qualifiedName(plan.write.name)} (use a key created without --read-only)`);
  }
  return plan.kind === 'interactive' ? runInteractive(deps, plan) : submitPlan(deps, plan);
}
