/**
 * @module runs
 * Public surface of runs: the run record, submitting a Spark run (the spark endpoint, and the
 * routed endpoint's writes and large reads), ending, aborting, reading and recovering runs, and
 * the ports their stores and engines implement.
 */
export { abortRun } from './abort.ts';
export type { RunDeps } from './deps.ts';
export { finishRun } from './finish.ts';
export { getRun } from './get.ts';
export { DEFAULT_MACHINE_TYPE, EXECUTORS, MACHINE_TYPE_NAMES, MACHINE_TYPES, machineType } from './machine-types.ts';
export type { MachineType, SparkResourceRequest } from './machine-types.ts';
export type { OutcomeListener, RunStore, SparkEngine, SparkJob } from './ports.ts';
export { recoverRuns } from './recover.ts';
export { computeView, runView, RUN_STATES } from './run.ts';
export type { ComputeUsed, EngineHandle, Run, RunOutcome, RunState, WriteMode } from './run.ts';
export { checkSparkRequest, parseOutputTable } from './spark-request.ts';
export type { CheckedSparkRequest, SparkRequest } from './spark-request.ts';
export { submitSparkQuery, submitSparkRun } from './submit.ts';
export type { SparkQueryAnswer } from './submit.ts';
