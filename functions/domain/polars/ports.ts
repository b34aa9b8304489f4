/**
 * @module polars/ports
 * The port of the polars sandbox: a pool of warm, bubblewrap-confined Python workers locally
 * (`adapters/local/polars-pool.ts`), a transport per tier in AWS (`adapters/aws/aws-polars-sandbox.ts`).
 */
import type { SandboxResult, SandboxRun } from './sandbox.ts';

/**
 * Port: runs polars in isolation.
 *
 * @throws {ValidationError} (400) for the caller's mistakes and the run's own failures: SQL or
 *   script errors, refused calls, time-out, out of memory, a crashed run
 * @throws {ServiceUnavailableError} (503) when this machine cannot isolate a run (never runs unconfined)
 */
export interface PolarsSandbox {
  /** The polars version the sandbox runs. */
  version(): Promise<string>;
  run(run: SandboxRun): Promise<SandboxResult>;
}
