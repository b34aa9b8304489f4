/**
 * @module runs/submit
 * Starting a Spark run: plan and billing checks, the run record (QUEUED or RUNNING), lineage START,
 * and the hand-over to the engine. The spark endpoint ({@link submitSparkQuery}) derives the run
 * itself: the org, the catalog, the SQL firewall in Spark mode, the tables' metadata. The routed
 * endpoint (a write, or a read too large to answer inline) has planned all of that already and
 * hands over its {@link PlannedSparkRun} ({@link submitPlannedSparkRun}); both start it the same way.
 */
import { DomainError, ExecutionError, ForbiddenError, UnauthorizedError, ValidationError } from '../errors.ts';
import { DEFAULT_CATALOG, qualifiedName, type TableName } from '../core/names.ts';
import type { CatalogTable } from '../lake/ports.ts';
import { catalogResolver, loadInputTables, type LoadedTable } from '../lake/query-tables.ts';
import { columnLineageFacet } from '../lineage-capture/column-lineage.ts';
import type { CatalogKind } from '../lineage-capture/datasets.ts';
import type { Org } from '../orgs/org.ts';
import { planOf, requireComputeAccess } from '../core/plans.ts';
import { analyzeSql } from '../sql/analyze.ts';
import type { SqlAnalysis } from '../sql/types.ts';
import type { RunDeps } from './deps.ts';
import { recordEnd, recordStart } from './lineage.ts';
import { largestMachineVcpus } from '../core/machine-types.ts';
import type { SparkSubmission } from './ports.ts';
import type { Run } from './run.ts';
import { checkSparkRequest, type CheckedSparkRequest, type SparkRequest } from './spark-request.ts';

/** The catalog lineage names: the SQL (JDBC-layout) catalog locally, Glue on EMR Serverless. */
const catalogKindOf = (platform: string): CatalogKind => (platform === 'local' ? 'jdbc' : 'glue');

/**
 * A Spark run ready to start: the org it runs for, its checked request, and every table its SQL
 * reads (as the firewall in Spark mode resolved them against the org's catalog), loaded.
 */
export interface PlannedSparkRun {
  readonly org: Org;
  readonly request: CheckedSparkRequest;
  readonly inputs: readonly LoadedTable[];
}

/**
 * The SQL firewall in Spark mode for a run's SQL, against a snapshot of the org's catalog: the SQL
 * must be a query, whose result the run writes to `output`.
 * @throws {ValidationError} 400: a refused statement, one that is not a query, an unknown table
 */
export const sparkQuery = (sql: string, known: readonly CatalogTable[], output: TableName): SqlAnalysis => {
  const analysis = analyzeSql(sql, { dialect: 'spark', defaultCatalog: DEFAULT_CATALOG, resolveTable: catalogResolver(known) });
  if (analysis.kind !== 'read') {
    throw new ValidationError(`query: must be a query (SELECT …); its result is written to ${qualifiedName(output)}, so the statement must not write a table itself`);
  }
  return analysis;
};

/**
 * The plan checks of a Spark run: metered (402 without a payment method), machines and executors
 * within the plan, the credit limit not reached (403).
 */
const requireSparkAccess = (org: Org, request: CheckedSparkRequest): void => {
  requireComputeAccess(org, 'spark', largestMachineVcpus(request.resources));
  const plan = planOf(org);
  if (request.resources.executors > plan.maxSparkExecutors) {
    throw new ForbiddenError(
      `${request.resources.executors} executors exceed the ${plan.name} plan's limit of ${plan.maxSparkExecutors}. Ask for ${plan.maxSparkExecutors} or fewer, or upgrade the plan.`,
    );
  }
};

/**
 * Submits a Spark run for an org and returns it: `RUNNING` when its platform started it at once,
 * `QUEUED` while it waits for capacity (the local machine's Spark slots, EMR Serverless capacity).
 *
 * Refusals (400 firewall or request, 402 no payment method, 403 over the plan) happen before
 * anything is recorded; from the run record on, the run always ends in COMPLETE, FAIL or ABORT.
 *
 * @throws {ValidationError} 400: a refused statement, one that is not a query, an unknown table
 * @throws {PaymentRequiredError} 402: the org has no payment method (Spark is metered)
 * @throws {ForbiddenError} 403: executors or machine size above the plan, or the credit limit reached
 * @throws {ExecutionError} 500 when the engine could not start the run (the run is recorded as FAIL)
 */
export async function submitSparkRun(deps: RunDeps, orgId: string, request: CheckedSparkRequest): Promise<Run> {
  const org = await deps.orgs.get(orgId);
  if (!org) throw new UnauthorizedError(`organization ${orgId} does not exist`);
  requireSparkAccess(org, request);
  const known = await deps.catalog.listTables(orgId);
  const analysis = sparkQuery(request.sql, known, request.output);
  const inputs = await loadInputTables(deps.storage, known, analysis.inputTables);
  return startSparkRun(deps, { org, request, inputs }, deps.newRunId());
}

/**
 * Submits a Spark run the routed query planned, under the run id it chose (a batch read's results
 * table is named after it): its org, SQL and tables are taken as planned.
 * @throws as {@link submitSparkRun}, except the firewall's 400s (the planner's)
 */
export async function submitPlannedSparkRun(deps: RunDeps, planned: PlannedSparkRun, runId: string): Promise<Run> {
  requireSparkAccess(planned.org, planned.request);
  return startSparkRun(deps, planned, runId);
}

/**
 * The column lineage of the table a Spark run writes, from its SQL (the output's columns are the
 * query's, named as it names them). None when the SQL cannot be read for lineage.
 */
const columnLineageOf = (sql: string, inputs: readonly LoadedTable[], output: TableName): { columnLineageJson?: string } => {
  const facet = columnLineageFacet({ sql, dialect: 'spark', inputs: inputs.map((t) => t.dataset), output: { table: output, location: '', fields: [] } });
  return facet ? { columnLineageJson: JSON.stringify(facet) } : {};
};

/** Records the run (lineage START) and hands it to the engine. */
const startSparkRun = async (deps: RunDeps, { org, request, inputs }: PlannedSparkRun, runId: string): Promise<Run> => {
  const orgId = org.orgId;
  const now = deps.now().toISOString();
  const compute = deps.engine.size(request.resources);
  const run: Run = {
    runId,
    orgId,
    engine: 'spark',
    job: request.job,
    state: 'QUEUED',
    createdAt: now,
    updatedAt: now,
    sql: request.sql,
    inputTables: inputs.map((t) => qualifiedName(t.engine.name)),
    outputTable: request.output,
    writeMode: request.writeMode,
    ...(request.results ? { results: true } : {}),
    compute,
    lineage: {
      dialect: 'spark',
      engineVersion: deps.engine.version,
      inputs: inputs.map((t) => t.dataset),
      catalogKind: catalogKindOf(deps.engine.platform),
      ...columnLineageOf(request.sql, inputs, request.output),
    },
  };
  await deps.runs.create(run);
  await recordStart(deps, run, deps.now());

  let submission: SparkSubmission;
  try {
    const inputBytes = inputs.reduce((sum, t) => sum + Number(t.description.size_bytes), 0);
    submission = await deps.engine.submit({ runId: run.runId, orgId, sql: run.sql, output: request.output, mode: request.writeMode, compute, inputBytes });
  } catch (err) {
    throw await failToStart(deps, run, 'Spark', err);
  }
  const { handle } = submission;
  let started = false;
  try {
    // An abort that arrived while the engine was starting has ended the run: stop what just started.
    if (!(await deps.runs.attach(run.runId, handle, deps.now().toISOString()))) await deps.engine.cancel(handle);
    else if (submission.started) started = await deps.runs.start(run.runId, deps.now().toISOString());
  } catch (err) {
    // The job runs but the run cannot say where: stop it rather than leave it unsupervised.
    await deps.engine.cancel(handle).catch((cancelError: unknown) => deps.warn('unattached job could not be stopped', { runId: run.runId, error: cancelError }));
    await failToStart(deps, run, 'Spark', err);
    // The store's own error (an outage is a 503 the caller may retry), not an engine failure.
    throw err;
  }
  return { ...run, handle, state: started ? 'RUNNING' : 'QUEUED' };
};

/**
 * Ends a run its engine (`Spark`, `bloom`) never properly started as FAIL (with lineage) and
 * returns the error to throw: a domain error as it is, anything else as a 500 with its message.
 */
export const failToStart = async (deps: RunDeps, run: Run, engine: string, err: unknown): Promise<DomainError> => {
  const message = err instanceof Error ? err.message : String(err);
  const ended = await deps.runs.end(run.runId, { state: 'FAIL', endedAt: deps.now().toISOString(), error: `${engine} could not start the run: ${message}` });
  if (ended) await recordEnd(deps, ended, deps.now());
  return err instanceof DomainError ? err : new ExecutionError(`${engine} could not start the run: ${message}`, { cause: err });
};

/**
 * The spark endpoint's answer: the run to poll, the job and output table, and the run's initial
 * status: `RUNNING` when it started, `QUEUED` when it waits for capacity.
 */
export interface SparkQueryAnswer {
  readonly run_id: string;
  readonly job: { readonly namespace: string; readonly name: string };
  readonly output_table: string;
  readonly status: 'RUNNING' | 'QUEUED';
}

/**
 * `POST /api/v2/spark/query`: checks the request's values and submits the run.
 * @throws as {@link checkSparkRequest} (400) and {@link submitSparkRun}
 */
export async function submitSparkQuery(deps: RunDeps, orgId: string, request: SparkRequest): Promise<SparkQueryAnswer> {
  const checked = checkSparkRequest(request);
  const run = await submitSparkRun(deps, orgId, checked);
  return { run_id: run.runId, job: { namespace: run.job.namespace, name: run.job.name }, output_table: qualifiedName(checked.output), status: run.state === 'QUEUED' ? 'QUEUED' : 'RUNNING' };
}
