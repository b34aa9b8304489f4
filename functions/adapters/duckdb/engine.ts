/**
 * @module duckdb/engine
 * The DuckDB {@link QueryEngine}: per query a fresh in-memory instance (from the pool) with the
 * iceberg and avro extensions loaded from files, the query's tables as views over `iceberg_scan`,
 * sized to the sandbox and locked down before the caller's statement runs. The result streams out
 * chunk by chunk, converted to JSON-safe values, and stops at the size limit rather than
 * materializing a result it could not return.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { DuckDBConnection, DuckDBDataChunk, DuckDBInstance, DuckDBResult, StatementType } from '@duckdb/node-api';
import { loadDuckDB } from './driver.ts';
import type { EngineRequest, EngineResult, TabularResult } from '#domain/lake/engine';
import type { QueryEngine } from '#domain/lake/ports';
import { QueryLimitError, QuerySqlError } from '#domain/lake/engine-errors';
import { engineSizing, type HostCapacity } from '#domain/lake/sandbox';
import { InstancePool } from './instance-pool.ts';
import { jsonConverter, type Json } from './json-values.ts';
import { ResultExport } from './result-export.ts';
import { SandboxCache } from './sandbox-cache.ts';
import { lockdownStatements, viewStatements } from './setup-sql.ts';

/** Options of {@link DuckDBQueryEngine}. */
export interface DuckDBEngineOptions {
  /** Directory of the `*.duckdb_extension` files. */
  readonly extensionDir: string;
  /** Extensions beyond iceberg and avro (AWS: `httpfs` for S3). @default [] */
  readonly extraExtensions?: readonly string[];
  /**
   * Statements run after the extensions load and before the lock, e.g. the S3 secret in AWS. They
   * are built per query, so credentials that rotate are read fresh.
   */
  readonly setupStatements?: () => readonly string[];
  /** What the host offers; defaults to this process's cores and memory budget. */
  readonly host?: HostCapacity;
  /**
   * Reuse of locked sandboxes by the same owner over the same tables (see sandbox-cache.ts).
   * @default 32 idle sandboxes (an idle one holds a few MB), each kept 60 s; capacity 0 turns reuse off
   */
  readonly reuse?: { readonly capacity: number; readonly idleMs: number };
}

/** A locked DuckDB connection over a query's tables. */
export interface LockedSandbox {
  readonly connection: DuckDBConnection;
  /** The instance's private spill directory. */
  readonly tempDirectory: string;
  /** Closes the instance (after the current tick) and removes its spill directory. */
  dispose(): void;
}

/** DuckDB error classes that are the engine's own failure, not the statement's. */
const INTERNAL_FAILURE = /^(INTERNAL|FATAL) Error|^IO Error/;

/** The caller-facing text of a DuckDB error: its message without the native stack trace. */
export const duckdbMessage = (err: unknown): string => String((err as Error)?.message ?? err).split(/\n\s*Stack Trace:/)[0]?.trim() ?? '';

/**
 * What the engine may use: the machine's cores, and the given memory (a Lambda function's size,
 * from configuration) or else the machine's.
 */
export const hostCapacity = (memoryMb?: number): HostCapacity => ({
  cpus: os.availableParallelism(),
  memoryBytes: memoryMb === undefined ? os.totalmem() : memoryMb * 1024 * 1024,
});

/** DuckDB behind the {@link QueryEngine} port. */
export class DuckDBQueryEngine implements QueryEngine {
  readonly name = 'duckdb';
  private readonly pool: InstancePool;
  private readonly host: HostCapacity;
  private readonly retiring = new Set<Promise<void>>();
  private readonly reusable: SandboxCache<LockedSandbox>;

  constructor(private readonly options: DuckDBEngineOptions) {
    this.pool = new InstancePool(options.extensionDir, ['avro', 'iceberg', ...(options.extraExtensions ?? [])]);
    this.host = options.host ?? hostCapacity();
    this.reusable = new SandboxCache(options.reuse?.capacity ?? 32, options.reuse?.idleMs ?? 60_000);
  }

  /** Prepares the first instance now, off the request path (call at cold start). */
  warm(): void {
    this.pool.warm();
  }

  /** DuckDB's library version (`1.5.5`). */
  async version(): Promise<string> {
    return (await loadDuckDB()).version().replace(/^v/, '');
  }

  /** Closes idle sandboxes and the spare instance, and waits for used ones to finish closing. */
  async close(): Promise<void> {
    this.reusable.clear();
    await Promise.allSettled([...this.retiring]);
    await this.pool.close();
  }

  /**
   * Opens the locked sandbox of a query: a fresh instance with the tables as views, sized and
   * locked. The caller's SQL runs in nothing else. Exposed so the lock itself can be tested (the
   * second line behind the SQL firewall); `dispose` must be called once.
   */
  async openSandbox(tables: EngineRequest['tables'], sandbox: EngineRequest['sandbox']): Promise<LockedSandbox> {
    const { instance, connection } = await this.pool.take();
    let tempDirectory: string | undefined;
    const dispose = () => this.retire(instance, connection, tempDirectory);
    try {
      tempDirectory = await mkdtemp(path.join(os.tmpdir(), 'lakeline-duckdb-'));
      const setup = [
        ...(this.options.setupStatements?.() ?? []),
        ...viewStatements(tables),
        ...lockdownStatements(tables, engineSizing(sandbox, this.host), tempDirectory),
      ];
      // One round trip: the statements are ours; caller text appears only as quoted literals.
      await connection.run(setup.join(';\n'));
      return { connection, tempDirectory, dispose };
    } catch (err) {
      dispose();
      throw err;
    }
  }

  async run(request: EngineRequest): Promise<EngineResult> {
    const opening = performance.now();
    const sizing = engineSizing(request.sandbox, this.host);
    const key = SandboxCache.keyOf(request.owner, `${sizing.threads}t/${sizing.memoryLimitMb}MiB`, request.tables);
    const reused = this.reusable.take(key);
    const sandbox = reused ?? (await this.openSandbox(request.tables, request.sandbox));
    const setupMs = performance.now() - opening;
    const { connection } = sandbox;
    let succeeded = false;
    let interrupted = false;
    const timer = setTimeout(() => {
      interrupted = true;
      connection.interrupt();
    }, request.timeoutMs);
    try {
      const explain = request.explain ? await this.explain(connection, request.sql) : undefined;
      const started = performance.now();
      const { results, exported } = await this.execute(connection, request, sandbox.tempDirectory);
      succeeded = !interrupted;
      return { results, executionMs: performance.now() - started, setupMs, ...(explain ? { explain } : {}), ...(exported ? { exported } : {}) };
    } catch (err) {
      if (interrupted) throw new QueryLimitError(`The query ran longer than ${Math.round(request.timeoutMs / 1000)} s, this endpoint's limit; narrow it (filters, LIMIT) or use POST /api/v1/query, which runs large queries as batch jobs.`);
      throw err;
    } finally {
      clearTimeout(timer);
      // Only a sandbox whose query succeeded is kept; after any error it is closed.
      if (succeeded) this.reusable.give(key, sandbox);
      else sandbox.dispose();
      // A fresh sandbox used up the spare instance: build the next one once this answer is out.
      if (!reused) setImmediate(() => this.pool.warm());
    }
  }

  /**
   * Closes a used instance and removes its spill directory after the answer has gone out: the
   * result is already JS values, and closing (joining DuckDB's threads) costs a few ms.
   */
  private retire(instance: DuckDBInstance, connection: DuckDBConnection, tempDirectory: string | undefined): void {
    const retiring = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      connection.closeSync();
      instance.closeSync();
      if (tempDirectory) await rm(tempDirectory, { recursive: true, force: true });
    });
    this.retiring.add(retiring);
    void retiring.catch(() => undefined).finally(() => this.retiring.delete(retiring));
  }

  /** Runs the statement, streaming its result into JSON rows (and into the export, if asked). */
  private async execute(connection: DuckDBConnection, request: EngineRequest, tempDirectory: string): Promise<{ results: TabularResult; exported?: EngineResult['exported'] }> {
    const result = await streamStatement(connection, request.sql);
    const exporter = request.exportDirectory ? await ResultExport.open(result.deduplicatedColumnNames(), result.columnTypes()) : undefined;
    try {
      const results = await readRows(result, request.maxResultBytes, (chunk) => exporter?.append(chunk));
      if (!exporter || !request.exportDirectory) return { results };
      const file = path.join(request.exportDirectory, `result-${path.basename(tempDirectory)}.parquet`);
      const written = await exporter.finish(file);
      return { results, exported: { file, bytes: written.bytes, rows: written.rows } };
    } finally {
      exporter?.close();
    }
  }

  /** EXPLAIN of the statement: DuckDB answers `explain_key`/`explain_value` rows. */
  private async explain(connection: DuckDBConnection, sql: string): Promise<NonNullable<EngineResult['explain']>> {
    const started = performance.now();
    const { StatementType } = await loadDuckDB();
    const result = await streamStatement(connection, `EXPLAIN ${sql.trim().replace(/;\s*$/, '')}`, StatementType.EXPLAIN);
    return { results: await readRows(result, Number.MAX_SAFE_INTEGER), executionMs: performance.now() - started };
  }
}

/**
 * Prepares exactly one statement of the expected type and starts streaming it. The firewall has
 * already allowed the text; this is the engine's own check that what runs is a single query.
 */
const streamStatement = async (connection: DuckDBConnection, sql: string, expected?: StatementType): Promise<DuckDBResult> => {
  const { StatementType } = await loadDuckDB();
  try {
    // DuckDB refuses to prepare more than one statement, which is the check wanted here.
    const prepared = await connection.prepare(sql);
    if (prepared.statementType !== (expected ?? StatementType.SELECT)) throw new QuerySqlError('Only queries (SELECT) run on this endpoint.');
    return await prepared.stream();
  } catch (err) {
    if (/Cannot prepare multiple statements/.test(duckdbMessage(err))) throw new QuerySqlError('Exactly one SQL statement is expected.');
    throw asQueryError(err);
  }
};

/** Reads a streaming result into JSON rows, refusing it once it passes `maxBytes` of JSON. */
const readRows = async (result: DuckDBResult, maxBytes: number, onChunk?: (chunk: DuckDBDataChunk) => void): Promise<TabularResult> => {
  const columns = result.columnNames();
  const types = result.columnTypes();
  const rows: Json[][] = [];
  const toJson = await jsonConverter();
  let bytes = 0;
  try {
    for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) break;
      onChunk?.(chunk);
      const converted = chunk.convertRows(toJson) as Json[][];
      bytes += JSON.stringify(converted).length;
      if (bytes > maxBytes) {
        throw new QueryLimitError(
          `The result is larger than ${Math.floor(maxBytes / (1024 * 1024))} MB, the most this endpoint returns inline; add a LIMIT or aggregate, or write it to a table with POST /api/v1/query and a destination.`,
        );
      }
      for (const row of converted) rows.push(row);
    }
  } catch (err) {
    throw asQueryError(err);
  }
  return { columns, column_types: types.map(String), rows };
};

/** DuckDB's error as the caller's 400, unless it is DuckDB's own failure (left as a 500). */
const asQueryError = (err: unknown): unknown => {
  if (err instanceof QuerySqlError || err instanceof QueryLimitError) return err;
  const message = duckdbMessage(err);
  if (INTERNAL_FAILURE.test(message)) return err;
  return new QuerySqlError(message);
};
