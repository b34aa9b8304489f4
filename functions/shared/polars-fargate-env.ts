/**
 * @module polars-fargate-env
 * Environment variable names of the polars sandbox's ECS Fargate tiers (8 and 16 vCPUs), shared by
 * the composition root that builds their transports and the CDK construct that sets them
 * (`lib/polars-fargate.ts`). The task-side names are read by `lakeline_polars.task_runner`; they
 * are listed here so the construct and the runner cannot drift apart unnoticed
 * (test/cdk/polars-fargate.test.ts asserts the task definition sets them).
 */

/** The polars tiers that run on ECS Fargate when provisioned (Fargate's largest task has 16 vCPUs). */
export const POLARS_FARGATE_TIERS = [8, 16] as const;

/** Caller: URL of the queue of a Fargate tier: `LAKELINE_POLARS_QUEUE_8`, `_16`. Unset: tier not offered. */
export const polarsQueueEnv = (vcpus: number): string => `LAKELINE_POLARS_QUEUE_${vcpus}`;
/** Caller and task: the bucket holding requests too large for a message and every answer. */
export const POLARS_RESULTS_BUCKET_ENV = 'LAKELINE_POLARS_RESULTS_BUCKET';
/** Caller and task: the key prefix (no trailing slash) of those objects: `<prefix>/<request id>/…`. */
export const POLARS_RESULTS_PREFIX_ENV = 'LAKELINE_POLARS_RESULTS_PREFIX';

/** Task: the URL of the one queue the task serves. */
export const POLARS_TASK_QUEUE_URL_ENV = 'LAKELINE_POLARS_QUEUE_URL';
/** Task: longest run it accepts, in seconds (the queue's visibility timeout covers it). */
export const POLARS_TASK_MAX_RUN_ENV = 'LAKELINE_POLARS_MAX_RUN_S';
/** Task: memory of the task in MB; the runner hands it to the Lambda handler's memory limit. */
export const POLARS_TASK_MEMORY_ENV = 'LAKELINE_POLARS_MEMORY_MB';
/** Task: the unprivileged uid the sandbox worker runs as (the runner keeps the task role to itself). */
export const POLARS_TASK_SANDBOX_UID_ENV = 'LAKELINE_SANDBOX_UID';
