/**
 * @module duckdb/instance-pool
 * Fresh DuckDB instances, one per query, without paying for them on the request path.
 *
 * Two costs were measured (docs/adr/0013-duckdb-engine.md): loading the iceberg and avro extensions
 * takes ~150 ms per instance, almost all of it DuckDB checking the files' signatures (a SHA-256
 * over 60 MB); creating the instance takes ~12 ms. So the signatures are checked once per process
 * (the first instance loads with verification on, which proves the files are DuckDB-signed), later
 * instances load the same files without re-hashing them, and one prepared instance is kept spare,
 * built in the background after the previous query finished. An instance serves exactly one
 * query and is then closed: nothing a query does (views, settings, the lock) outlives it.
 */
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { openDuckDB } from './instance.ts';

/** An instance with the extensions loaded and nothing else done to it. */
export interface PreparedInstance {
  readonly instance: DuckDBInstance;
  readonly connection: DuckDBConnection;
}

/** Keeps one prepared instance ahead of demand. */
export class InstancePool {
  private spare: Promise<PreparedInstance> | undefined;
  private verified = false;

  /**
   * @param extensionDir - directory of the `*.duckdb_extension` files
   * @param extensions - extensions every instance loads, in order (`avro`, `iceberg`, ...)
   */
  constructor(
    private readonly extensionDir: string,
    private readonly extensions: readonly string[],
  ) {}

  /** Starts preparing a spare instance if none is on its way (call at cold start). */
  warm(): void {
    if (this.spare) return;
    const spare = this.prepare();
    // A failed spare is dropped and reported by the `take` that meets it; until then, no noise.
    spare.catch(() => undefined);
    this.spare = spare;
  }

  /**
   * Hands out a prepared instance: the spare (waiting for it if it is still being built) or a new
   * one. The next spare is not started here but by {@link warm} once the query is done, so building
   * it never competes for the CPU with the query it is meant to follow.
   */
  async take(): Promise<PreparedInstance> {
    const spare = this.spare;
    this.spare = undefined;
    if (!spare) return this.prepare();
    try {
      return await spare;
    } catch {
      // The spare failed (its error is not this request's); one fresh attempt decides.
      return this.prepare();
    }
  }

  /** Closes the spare (tests and benchmarks, so the process can exit promptly). */
  async close(): Promise<void> {
    const spare = this.spare;
    this.spare = undefined;
    if (!spare) return;
    try {
      const { connection, instance } = await spare;
      connection.closeSync();
      instance.closeSync();
    } catch {
      // nothing to close
    }
  }

  private async prepare(): Promise<PreparedInstance> {
    // Until one instance has loaded the files with signature checks on, every instance checks.
    const verify = !this.verified;
    const opened = await openDuckDB(this.extensionDir, this.extensions, verify ? {} : { allow_unsigned_extensions: 'true' });
    this.verified = true;
    return opened;
  }
}
