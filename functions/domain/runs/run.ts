/**
 * @module runs/run
 * The run record: one execution of one job on one engine, from submission to its end. The run
 * store keeps every run of every engine; `GET /api/v1/runs/{run_id}` shows it through
 * {@link runView}. A run is `QUEUED` while it waits for its platform (the local machine's Spark
 * slots, EMR Serverless capacity), `RUNNING` once it started, until exactly one of COMPLETE, FAIL
 * or ABORT ends it. A run that writes a table is COMPLETE if and only if its commit is in the
 * catalog (`commit.ts`).
 */
import type { TableName } from '../core/names.ts';
import { qualifiedName } from '../core/names.ts';
import type { LakeDataset } from '../core/lake-dataset.ts';
import type { CatalogKind } from '../lineage-capture/datasets.ts';
import type { Engine } from '../core/plans.ts';

/** States of a run. */
export const RUN_STATES = ['QUEUED', 'RUNNING', 'COMPLETE', 'FAIL', 'ABORT'] as const;
export type RunState = (typeof RUN_STATES)[number];
/** The states of a run that has not ended. */
export const ACTIVE_STATES = ['QUEUED', 'RUNNING'] as const;
export type ActiveState = (typeof ACTIVE_STATES)[number];
/** The states that end a run. */
export type EndState = Exclude<RunState, ActiveState>;

/** Whether a run has not ended yet. */
export const isActive = (state: RunState): state is ActiveState => (ACTIVE_STATES as readonly RunState[]).includes(state);

/** How a run's result lands in its output table. */
export type WriteMode = 'overwrite' | 'append';

/** One machine as a platform sizes it. */
export interface MachineSize {
  readonly vcpus: number;
  readonly memoryGb: number;
}

/** The compute a run asked for and the compute that actually served it (and is billed). */
export interface ComputeUsed {
  readonly requested: {
    readonly driverMachineType: string;
    readonly executorMachineType: string;
    readonly executors: number;
  };
  /** `local` (spark-submit on this machine) or `emr-serverless`. */
  readonly platform: string;
  readonly driver: MachineSize;
  readonly executor: MachineSize;
  readonly executors: number;
  /** vCPUs metered per second of the run. */
  readonly billedVcpus: number;
  /** Whether the platform ran less than the request (the local machine, EMR's worker limits). */
  readonly scaledDown: boolean;
  /** The Spark settings the sizing became (`spark.master`, `spark.driver.memory`, …). */
  readonly sparkConf: Readonly<Record<string, string>>;
  /** Why the platform's sizing differs from the request, when it does. */
  readonly note?: string;
}

/** Where a running run lives on its platform: enough to re-attach to it or cancel it. */
export interface EngineHandle {
  readonly platform: string;
  readonly [key: string]: string | number;
}

/** What lineage needs to describe the run after its start (possibly in another process). */
export interface RunLineage {
  readonly dialect: string;
  readonly engineVersion: string;
  readonly inputs: readonly LakeDataset[];
  readonly catalogKind: CatalogKind;
  /**
   * The `columnLineage` facet of the table the run writes, as JSON: built at submission, where the
   * SQL parser already is, so the functions that end runs do not carry it (ADR 0002).
   */
  readonly columnLineageJson?: string;
}

/** Timings of a run, in epoch milliseconds, as far as they are known. */
export interface RunTimings {
  /** When the engine process (or EMR job run) started. */
  readonly startedAt?: number;
  /** When Spark was ready to run the query (session up). */
  readonly sessionReadyAt?: number;
  /** When the query and its write finished. */
  readonly finishedAt?: number;
}

/** A run as stored. */
export interface Run {
  readonly runId: string;
  readonly orgId: string;
  readonly engine: Engine;
  readonly job: { readonly namespace: string; readonly name: string };
  readonly state: RunState;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly endedAt?: string;
  /** The SQL as the caller sent it. */
  readonly sql: string;
  /** Every table the SQL reads, `lakeline.<namespace>.<table>`. */
  readonly inputTables: readonly string[];
  readonly outputTable?: TableName;
  readonly writeMode?: WriteMode;
  /** A batch read of the routed endpoint: `outputTable` is the run's results table, paged by the runs API. */
  readonly results?: boolean;
  readonly compute: ComputeUsed;
  readonly handle?: EngineHandle;
  readonly lineage: RunLineage;
  readonly timings?: RunTimings;
  readonly error?: string;
  readonly rowsWritten?: number;
  readonly bytesWritten?: number;
  readonly filesWritten?: number;
  /** Metered vCPU-seconds, once recorded against the org's usage. */
  readonly vcpuSeconds?: number;
}

/** How a run ended, as its engine reports it. */
export interface RunOutcome {
  readonly state: EndState;
  readonly error?: string;
  readonly rowsWritten?: number;
  readonly bytesWritten?: number;
  readonly filesWritten?: number;
  readonly timings?: RunTimings;
  /** The engine's own bill for the run (EMR's billed utilization), when it reports one. */
  readonly vcpuSeconds?: number;
  /** The Spark version that ran it, when known. */
  readonly engineVersion?: string;
}

/** The changes that end a run. */
export interface RunEnd {
  readonly state: EndState;
  readonly endedAt: string;
  readonly error?: string;
  readonly rowsWritten?: number;
  readonly bytesWritten?: number;
  readonly filesWritten?: number;
  readonly timings?: RunTimings;
}

const durationMs = (from?: number, to?: number): number | undefined => (from !== undefined && to !== undefined && to >= from ? to - from : undefined);

/** `GET /api/v1/runs/{run_id}`: the run as callers see it (snake_case, names qualified). */
export const runView = (run: Run) => {
  const created = Date.parse(run.createdAt);
  const t = run.timings ?? {};
  const ended = run.endedAt ? Date.parse(run.endedAt) : undefined;
  const timings = {
    ...(durationMs(created, t.sessionReadyAt) !== undefined ? { startup_ms: durationMs(created, t.sessionReadyAt) } : {}),
    ...(durationMs(t.sessionReadyAt, t.finishedAt) !== undefined ? { query_ms: durationMs(t.sessionReadyAt, t.finishedAt) } : {}),
    ...(durationMs(created, ended) !== undefined ? { total_ms: durationMs(created, ended) } : {}),
  };
  return {
    run_id: run.runId,
    engine: run.engine,
    state: run.state,
    job: { namespace: run.job.namespace, name: run.job.name },
    created_at: run.createdAt,
    updated_at: run.updatedAt,
    ...(run.endedAt ? { ended_at: run.endedAt } : {}),
    ...(run.error !== undefined ? { error: run.error } : {}),
    // A batch read's results table is lakeline's, not an output the caller named: its rows are shown instead.
    ...(run.outputTable && !run.results ? { output_table: qualifiedName(run.outputTable) } : {}),
    ...(run.writeMode && !run.results ? { write_mode: run.writeMode } : {}),
    input_tables: [...run.inputTables],
    ...(run.rowsWritten !== undefined && !run.results ? { rows_written: run.rowsWritten } : {}),
    ...(run.rowsWritten !== undefined && run.results ? { row_count: run.rowsWritten } : {}),
    ...(run.bytesWritten !== undefined ? { bytes_written: run.bytesWritten } : {}),
    compute: computeView(run.compute),
    ...(run.vcpuSeconds !== undefined ? { vcpu_seconds: run.vcpuSeconds } : {}),
    timings,
  };
};

/** The compute object of the run view. */
export const computeView = (c: ComputeUsed) => ({
  platform: c.platform,
  requested: {
    driver_machine_type: c.requested.driverMachineType,
    executor_machine_type: c.requested.executorMachineType,
    executor_numbers: c.requested.executors,
  },
  driver: { vcpus: c.driver.vcpus, memory_gb: c.driver.memoryGb },
  executor: { vcpus: c.executor.vcpus, memory_gb: c.executor.memoryGb },
  executors: c.executors,
  billed_vcpus: c.billedVcpus,
  scaled_down: c.scaledDown,
  spark_conf: { ...c.sparkConf },
  ...(c.note ? { note: c.note } : {}),
});
