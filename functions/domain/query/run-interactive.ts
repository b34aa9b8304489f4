/**
 * @module query/run-interactive
 * A planned read answered within its request (`COMPLETE` with rows): DuckDB in the router's own
 * function, or polars behind the {@link PolarsEngine} port, in the sandbox the plan's band sized,
 * after the plan check (402, 403), with lineage around the run ({@link withRunLineage}). polars is
 * metered for the sandbox that served it; DuckDB runs in the router and bills nothing.
 */
import { CapabilityError, DomainError, ExecutionError } from '../errors.ts';
import type { TabularResult } from '../lake/engine.ts';
import type { QueryEngine } from '../lake/ports.ts';
import { sandboxOf } from '../lake/sandbox.ts';
import type { CatalogKind } from '../lineage-capture/datasets.ts';
import type { LineageSink } from '../lineage-capture/ports.ts';
import type { QueryRun } from '../lineage-capture/run-events.ts';
import { isMetered, requireComputeAccess, VCPU_SECOND_PRICE_USD, type Engine } from '../core/plans.ts';
import type { OrgStore } from '../orgs/ports.ts';
import { DEFAULT_LIMITS, formatMs, type QueryLimits } from './limits.ts';
import type { InteractivePlan } from './plan.ts';
import type { PolarsEngine, QueryEngines } from './ports.ts';
import { answerOf, type UnifiedQueryResponse } from './response.ts';
import { withRunLineage } from './run-lineage.ts';

/** What an interactive run needs. */
export interface InteractiveDeps {
  readonly orgs: Pick<OrgStore, 'addUsage'>;
  readonly duckdb: QueryEngine;
  /** The engines this deployment configures (an interactive run may use polars). */
  readonly engines: Pick<QueryEngines, 'polars'>;
  readonly lineage: LineageSink;
  readonly catalogKind: CatalogKind;
  readonly limits?: QueryLimits;
  readonly warn: (message: string, fields: Record<string, unknown>) => void;
  readonly now?: () => Date;
  readonly newRunId: () => string;
}

/** What the engine produced, and the compute the answer reports. */
interface Ran {
  readonly results: TabularResult;
  readonly compute: Readonly<Record<string, unknown>> & { readonly billed_vcpu_seconds: number };
}

const firstLine = (err: unknown): string => (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? 'unknown error';

/**
 * Runs a planned interactive read on `engine`.
 *
 * @throws {PaymentRequiredError} (402) a metered engine and no payment method
 * @throws {ForbiddenError} (403) the plan does not allow the sandbox
 * @throws {ValidationError} (400) the engine's rejection of the SQL
 * @throws {ExecutionError} (500) the engine failed, with its message
 */
export async function runInteractive(deps: InteractiveDeps, plan: InteractivePlan): Promise<UnifiedQueryResponse> {
  const { engine } = plan;
  const vcpus = plan.route.decision.sandbox.vcpus;
  requireComputeAccess(plan.org, engine, vcpus);
  const limits = deps.limits ?? DEFAULT_LIMITS;
  const started = performance.now();
  const polars = engine === 'polars' ? deps.engines.polars : undefined;
  if (engine === 'polars' && !polars) throw new CapabilityError('polars is not configured in this deployment.');
  const version = await (polars ? polars.version() : deps.duckdb.version());
  const { statement, script } = plan;
  const run: QueryRun = {
    runId: deps.newRunId(),
    job: plan.job,
    sql: statement ? statement.runSql : script,
    dialect: statement ? statement.dialect : 'polars-script',
    engine: { name: engine, version },
    inputs: plan.inputs.map((t) => t.dataset),
    catalogKind: deps.catalogKind,
  };
  const timeoutMs = (): number => Math.max(1, limits.timeoutMs - (performance.now() - started));
  const { ran, elapsedMs } = await withRunLineage(
    deps,
    plan.orgId,
    run,
    async () => {
      const answer: Ran = polars
        ? await runPolars(polars, plan, statement ? { kind: 'sql', sql: statement.polarsSql ?? statement.runSql } : { kind: 'script', script }, vcpus, timeoutMs())
        : await runDuckDB(deps, plan, duckdbSql(plan), vcpus, timeoutMs(), limits.maxResultBytes);
      return { ran: answer, elapsedMs: performance.now() - started };
    },
    { failure: (err) => (err instanceof DomainError ? err : new ExecutionError(`${engine} failed to run the query: ${firstLine(err)}`, { cause: err })) },
  );
  if (isMetered(engine)) await meter(deps, plan.orgId, engine, ran.compute.billed_vcpu_seconds, run.runId);
  return answerOf(plan, { state: 'COMPLETE', results: ran.results, row_count: ran.results.rows.length, execution_time: formatMs(elapsedMs), compute: ran.compute });
}

const runPolars = async (polars: PolarsEngine, plan: InteractivePlan, source: { kind: 'sql'; sql: string } | { kind: 'script'; script: string }, vcpus: number, timeoutMs: number): Promise<Ran> => {
  const ran = await polars.run({ orgId: plan.orgId, source, tables: plan.polarsTables, vcpus, timeoutMs });
  // The sandbox that served the run is the one billed, for the time the run took.
  const vcpuSeconds = Math.round(ran.compute.vcpus * ran.executionMs) / 1000;
  return { results: ran.results, compute: { engine: 'polars', mode: 'interactive', ...ran.compute, billed_vcpu_seconds: vcpuSeconds } };
};

/** DuckDB runs SQL only: a script is a polars script, which the decision never sends to DuckDB. */
const duckdbSql = (plan: InteractivePlan): string => {
  if (!plan.statement) throw new Error('routing chose DuckDB for a script');
  return plan.statement.runSql;
};

const runDuckDB = async (deps: InteractiveDeps, plan: InteractivePlan, sql: string, vcpus: number, timeoutMs: number, maxResultBytes: number): Promise<Ran> => {
  const sandbox = sandboxOf(vcpus);
  const ran = await deps.duckdb.run({ owner: plan.orgId, sql, tables: plan.inputs.map((t) => t.engine), sandbox, timeoutMs, maxResultBytes });
  // DuckDB runs inside the router's own function: nothing extra is provisioned or billed.
  return { results: ran.results, compute: { engine: 'duckdb', mode: 'interactive', platform: 'router', vcpus: sandbox.vcpus, memory_gb: sandbox.memoryGb, billed_vcpu_seconds: 0 } };
};

const meter = async (deps: InteractiveDeps, orgId: string, engine: Engine, vcpuSeconds: number, runId: string): Promise<void> => {
  try {
    await deps.orgs.addUsage(orgId, engine, vcpuSeconds, vcpuSeconds * VCPU_SECOND_PRICE_USD[engine]);
  } catch (err) {
    // Billing never fails an answered query; the log keeps what was not metered.
    deps.warn('interactive usage not metered', { runId, vcpuSeconds, error: err });
  }
};
