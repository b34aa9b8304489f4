/**
 * @module bloom/ports
 * The port of the bloom engine: metered distributed SQL over the lake for reads too large for the
 * router's DuckDB that need no Spark job. Amazon Athena (engine version 3, i.e. Trino) serves it in
 * AWS, a local Trino server in the local profile (`functions/adapters/aws/athena-bloom.ts`,
 * `functions/adapters/trino/bloom-engine.ts`). The use cases see only this port: start a
 * statement, ask for its state, cancel it, or run one to its end and page its rows.
 */
import type { BloomAnswer, BloomHandle, BloomQuery, BloomQueryLimits, BloomStatus } from './engine.ts';

/** Port: the bloom engine. */
export interface BloomEngine {
  /** `trino-local` or `athena`: where statements go (recorded on each run). */
  readonly platform: string;
  /** The engine name and version for lineage (`processing_engine`). */
  version(): Promise<string>;
  /** Starts a statement (a run's `CREATE TABLE … AS`); resolves once the platform accepted it. */
  start(query: BloomQuery): Promise<BloomHandle>;
  /** The statement's state now. */
  status(handle: BloomHandle): Promise<BloomStatus>;
  /** Stops a statement (idempotent: one that already ended is fine). */
  cancel(handle: BloomHandle): Promise<void>;
  /**
   * Runs a read to its end and returns its rows (benchmarks, and the engine's own checks).
   * @throws {ValidationError} (400) when the engine rejects the SQL
   * @throws {ExecutionError} (500) when it fails running it, or exceeds the limits
   */
  query(query: BloomQuery, limits: BloomQueryLimits): Promise<BloomAnswer>;
}
