/**
 * @module query/submit
 * A planned request that becomes a run (`SUBMITTED`, poll `GET /api/v1/runs/{run_id}`): a write
 * (destination or own target) or a read too large for the request as a Spark run through the
 * {@link SparkSubmitter} port, a read on the routing table's bloom row (or pinned to bloom) as a
 * bloom run through the {@link BloomSubmitter} port. A batch read lands its rows in the run's
 * results table. The runs use cases take the plan's org, job, SQL and loaded tables as they are;
 * the one thing added here is Spark's own reading of the SQL (see {@link sparkReading}).
 */
import { CapabilityError, ValidationError } from '../errors.ts';
import type { TableName } from '../core/names.ts';
import { findTable, loadedTables } from '../lake/query-tables.ts';
import type { BatchSizing } from '../routing/table.ts';
import { machineType } from '../core/machine-types.ts';
import { resultsTableOf } from '../runs/results.ts';
import { computeView, type Run, type WriteMode } from '../runs/run.ts';
import { sparkQuery, type PlannedSparkRun } from '../runs/submit.ts';
import type { BatchReadPlan, BatchWritePlan, BloomReadPlan, RoutedPlan } from './plan.ts';
import type { QueryEngines, SparkSubmitter } from './ports.ts';
import { answerOf, type UnifiedQueryResponse } from './response.ts';

/** What submitting needs. */
export interface SubmitDeps {
  /** The engines this deployment configures (a run goes to Spark or bloom). */
  readonly engines: Pick<QueryEngines, 'spark' | 'bloom'>;
  readonly newRunId: () => string;
}

/** The plans that become runs. */
export type SubmittedPlan = Exclude<RoutedPlan, { kind: 'interactive' }>;

/**
 * Submits a planned write or batch read as a run.
 *
 * @throws {ValidationError} (400) CREATE TABLE … AS over an existing table; SQL Spark's firewall refuses
 * @throws {CapabilityError} (400) the engine is not configured in this deployment
 * @throws {PaymentRequiredError} (402) and {@link ForbiddenError} (403) from the runs use cases' plan checks
 * @throws {ExecutionError} (500) the engine could not start the run (the run ends FAIL)
 */
export async function submitPlan(deps: SubmitDeps, plan: SubmittedPlan): Promise<UnifiedQueryResponse> {
  switch (plan.kind) {
    case 'batch-write':
      return submitWrite(deps, plan);
    case 'batch-read':
      return submitRead(deps, plan);
    case 'bloom-read':
      return submitBloomRead(deps, plan);
  }
}

const submitted = (plan: RoutedPlan, run: Run, outputTable?: string): UnifiedQueryResponse =>
  answerOf(plan, { state: 'SUBMITTED', run_id: run.runId, ...(outputTable ? { output_table: outputTable } : {}), compute: computeView(run.compute) });

const spark = (deps: SubmitDeps): SparkSubmitter => {
  if (!deps.engines.spark) throw new CapabilityError('Spark is not configured in this deployment.');
  return deps.engines.spark;
};

/** A write (destination or own target): a Spark run into the table. */
const submitWrite = async (deps: SubmitDeps, plan: BatchWritePlan): Promise<UnifiedQueryResponse> => {
  const { write, sizing } = plan;
  if (write.mode === 'create' && findTable(plan.known, write.name)) {
    if (write.ifNotExists) {
      // CREATE TABLE IF NOT EXISTS over an existing table does nothing, by its own semantics.
      const reasons = [...plan.route.decision.reasons, `${write.table} exists and the statement says IF NOT EXISTS, so nothing runs.`];
      return answerOf(plan, { state: 'COMPLETE', row_count: 0, execution_time: '0ms', output_table: write.table }, { ...plan.route.decision, reasons });
    }
    throw new ValidationError(`query: ${write.table} already exists, and CREATE TABLE … AS creates a new table; use CREATE OR REPLACE TABLE … AS, INSERT INTO, or another name`);
  }
  const run = await spark(deps).submit(sparkRun(plan, sizing, write.name, write.mode === 'append' ? 'append' : 'overwrite'), deps.newRunId());
  return submitted(plan, run, write.table);
};

/** A read too large for the request: a Spark run whose rows land in the run's results table. */
const submitRead = async (deps: SubmitDeps, plan: BatchReadPlan): Promise<UnifiedQueryResponse> => {
  const runId = deps.newRunId();
  const run = await spark(deps).submit(sparkRun(plan, plan.sizing, resultsTableOf(runId), 'overwrite', true), runId);
  return submitted(plan, run);
};

/** A read on bloom: a bloom run whose rows land in the run's results table. */
const submitBloomRead = async (deps: SubmitDeps, plan: BloomReadPlan): Promise<UnifiedQueryResponse> => {
  const { bloom } = deps.engines;
  if (!bloom) throw new CapabilityError('bloom is not configured in this deployment.');
  // The plan's firewall read the statement as Trino SQL (pinned bloom, or `auto` before choosing bloom).
  const run = await bloom.submit({ org: plan.org, job: plan.job, sql: plan.statement.runSql, vcpus: plan.vcpus, inputs: plan.inputs }, deps.newRunId());
  return submitted(plan, run);
};

const machine = (name: string) => {
  const found = machineType(name);
  if (!found) throw new Error(`routing table names an unknown machine type ${name}`);
  return found;
};

/** The Spark run of a plan, sized by its band, into `output`. */
const sparkRun = (plan: BatchWritePlan | BatchReadPlan, sizing: BatchSizing, output: TableName, writeMode: WriteMode, results?: true): PlannedSparkRun => {
  const sql = plan.statement.runSql;
  return {
    org: plan.org,
    request: {
      job: plan.job,
      sql,
      output,
      writeMode,
      resources: { driver: machine(sizing.driverMachineType), executor: machine(sizing.executorMachineType), executors: sizing.executors },
      ...(results ? { results } : {}),
    },
    inputs: loadedTables(plan.inputs, sparkReading(plan, output).inputTables),
  };
};

/**
 * Spark's reading of the SQL it runs. When the plan read exactly that text as Spark SQL (Spark
 * pinned, no own target) its reading stands; otherwise — DuckDB's dialect under `auto`, or the query
 * split out of an own-target statement — the firewall reads it once more, as Spark SQL against the
 * plan's catalog snapshot (no I/O), so Spark never runs SQL its own dialect's firewall refuses.
 */
const sparkReading = (plan: BatchWritePlan | BatchReadPlan, output: TableName) => {
  const { statement } = plan;
  const asPlanned = statement.dialect === 'spark' && plan.request.source.kind === 'query' && statement.runSql === plan.request.source.sql;
  return asPlanned ? statement.analysis : sparkQuery(statement.runSql, plan.known, output);
};
