/**
 * @module runs/ports
 * The ports of the run service: the run store (DynamoDB in both profiles) and the Spark engine
 * (a supervised `spark-submit` locally, EMR Serverless in AWS).
 */
import type { TableName } from '../lake/names.ts';
import type { SparkResourceRequest } from './machine-types.ts';
import type { ComputeUsed, EngineHandle, Run, RunEnd, RunOutcome, RunState, WriteMode } from './run.ts';

/** Port: where runs live. Every transition is conditional, so concurrent enders cannot both win. */
export interface RunStore {
  /** Stores a new run; rejects when the id exists. */
  create(run: Run): Promise<void>;
  get(runId: string): Promise<Run | undefined>;
  /** Records where the run lives on its platform, while it is RUNNING. Returns false once it ended. */
  attach(runId: string, handle: EngineHandle, at: string): Promise<boolean>;
  /** Ends a RUNNING run. Returns the ended run, or undefined when it had already ended. */
  end(runId: string, end: RunEnd): Promise<Run | undefined>;
  /** Records the metered vCPU-seconds once. Returns false when they were already recorded. */
  recordUsage(runId: string, vcpuSeconds: number, at: string): Promise<boolean>;
  /** Runs in a state, across orgs (restart recovery). */
  listByState(state: RunState): Promise<Run[]>;
}

/** Everything an engine needs to start one Spark run. */
export interface SparkJob {
  readonly runId: string;
  readonly orgId: string;
  readonly sql: string;
  readonly output: TableName;
  readonly mode: WriteMode;
  readonly compute: ComputeUsed;
}

/** Port: runs the Spark job script somewhere. */
export interface SparkEngine {
  /** `local` or `emr-serverless`: where runs go (recorded on each run). */
  readonly platform: string;
  /** The Spark version runs get (the processing_engine facet). */
  readonly version: string;
  /** Maps a request through the machine-type table to what this platform will actually run. */
  size(request: SparkResourceRequest): ComputeUsed;
  /** Starts the job; resolves once the platform accepted it. */
  submit(job: SparkJob): Promise<EngineHandle>;
  /** Stops a running job (idempotent; a job that already ended is fine). */
  cancel(handle: EngineHandle): Promise<void>;
  /**
   * After a restart: watches a run again (`attached`; its outcome arrives later, as for any run),
   * or says how it ended while nobody was watching. Platforms that report outcomes on their own
   * (EMR through EventBridge) answer `attached`.
   */
  reattach(run: Run): Promise<'attached' | RunOutcome>;
}

/** Receives run outcomes from engines that supervise runs themselves (the local one). */
export type OutcomeListener = (runId: string, outcome: RunOutcome) => Promise<void>;
