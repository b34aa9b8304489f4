/**
 * @module runs/ports
 * The ports of the run service: the run store (DynamoDB in both profiles) and the Spark engine
 * (a supervised `spark-submit` locally, EMR Serverless in AWS).
 */
import type { TableName } from '../core/names.ts';
import type { SparkResourceRequest } from '../core/machine-types.ts';
import type { ComputeUsed, EngineHandle, Run, RunEnd, RunOutcome, RunState, WriteMode } from './run.ts';

/** Port: where runs live. Every transition is conditional, so concurrent enders cannot both win. */
export interface RunStore {
  /** Stores a new run; rejects when the id exists. */
  create(run: Run): Promise<void>;
  get(runId: string): Promise<Run | undefined>;
  /** Records where the run lives on its platform, while it has not ended. Returns false once it ended. */
  attach(runId: string, handle: EngineHandle, at: string): Promise<boolean>;
  /** Moves a QUEUED run to RUNNING (its platform started it). Returns false when it was not QUEUED. */
  start(runId: string, at: string, startedAt?: number): Promise<boolean>;
  /**
   * Ends a run that is in one of `from` (by default: not ended). Returns the ended run, or
   * undefined when it was in another state. `from: ['ABORT']` corrects an aborted run whose write
   * committed anyway (a run is COMPLETE if and only if its commit is in the catalog).
   */
  end(runId: string, end: RunEnd, from?: readonly RunState[]): Promise<Run | undefined>;
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
  /** Bytes of the inputs' current snapshots: a platform may run small jobs on warm capacity (ADR 0059). */
  readonly inputBytes?: number;
}

/** What submitting a job did: where it lives, and whether its platform started it already. */
export interface SparkSubmission {
  readonly handle: EngineHandle;
  /** False while the job waits for capacity (the run is QUEUED until the platform starts it). */
  readonly started: boolean;
}

/** Port: runs the Spark job script somewhere. */
export interface SparkEngine {
  /** `local` or `emr-serverless`: where runs go (recorded on each run). */
  readonly platform: string;
  /** The Spark version runs get (the processing_engine facet). */
  readonly version: string;
  /** Maps a request through the machine-type table to what this platform will actually run. */
  size(request: SparkResourceRequest): ComputeUsed;
  /** Hands the job to the platform; resolves once the platform accepted (started or queued) it. */
  submit(job: SparkJob): Promise<SparkSubmission>;
  /** Stops a job, running or queued (idempotent; a job that already ended is fine). */
  cancel(handle: EngineHandle): Promise<void>;
  /**
   * After a restart: watches a run again (`attached`; its start and outcome arrive later, as for
   * any run; a QUEUED run is queued again), or says how it ended while nobody was watching.
   * Platforms that report on their own (EMR through EventBridge) answer `attached`.
   */
  reattach(run: Run): Promise<'attached' | RunOutcome>;
}

/** Receives run outcomes from engines that supervise runs themselves (the local one). */
export type OutcomeListener = (runId: string, outcome: RunOutcome) => Promise<void>;

/** Receives the start of a queued run from engines that queue runs themselves (the local one). */
export type StartListener = (runId: string, handle: EngineHandle) => Promise<void>;

/** What a platform reported about one of the deployment's runs: it is running, or it ended. */
export interface RunStateReport {
  readonly runId: string;
  /** The platform started it (a QUEUED run becomes RUNNING). */
  readonly running: boolean;
  /** Set once it ended. */
  readonly outcome?: RunOutcome;
}

/** Port: the state changes a platform reports on its own (EMR Serverless through EventBridge). */
export interface RunStateReports {
  /** The report an event carries; undefined for an event about anything but a run of this deployment. */
  read(event: unknown): Promise<RunStateReport | undefined>;
}

/**
 * Port: brings a RUNNING run of an engine that is polled rather than supervised (bloom: nothing
 * reports a statement's end, so each read of the run asks its platform) up to date.
 */
export interface RunPoller {
  refresh(run: Run): Promise<Run>;
}
