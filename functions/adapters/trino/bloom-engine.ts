/**
 * @module trino/bloom-engine
 * The local {@link BloomEngine}: statements run on the local Trino server (`trino/server.ts`,
 * started on first use) against the org's own dynamic catalog `org_<id>`, an Iceberg catalog of
 * type `jdbc` over the same SQLite catalog file and warehouse the lake writer, DuckDB and Spark use.
 * A run's statement is `CREATE TABLE org_<id>.lakeline_results.r_<run> AS <query>`, driven to its
 * end in this process, in the background (Trino abandons a statement whose client stops following
 * `nextUri`, and the server may still be starting); its state is kept here. The Trino user of a statement is the org's catalog name.
 */
import { randomUUID } from 'node:crypto';
import type { BloomAnswer, BloomHandle, BloomQuery, BloomQueryLimits, BloomStatus } from '#domain/bloom/engine';
import type { BloomEngine } from '#domain/bloom/ports';
import { qualifyTables, quoteTrino, resultsTableAs } from '#domain/bloom/qualify';
import { ExecutionError, ValidationError } from '#domain/errors';
import { catalogNameForOrg, type TableName } from '#domain/core/names';
import type { TrinoClient, TrinoOutcome, TrinoStatement } from './client.ts';
import { ADMIN_USER } from './server.ts';

/** Where the lake is, as the Iceberg connector needs it. */
export interface LocalLake {
  /** The SQLite catalog file (`<home>/catalog.db`). */
  readonly catalogFile: string;
  /** The warehouse directory (`<home>/warehouse`). */
  readonly warehouse: string;
}

/** Starts the server on first use and answers it. */
export type TrinoProvider = () => Promise<{ readonly client: TrinoClient; readonly version: string; allowOrgCatalog(catalog: string): Promise<void> }>;

const PLATFORM = 'trino-local';

/** A run's statement, from its acceptance to its outcome. */
interface Statement {
  cancelled: boolean;
  statement?: TrinoStatement;
  outcome?: TrinoOutcome;
}

/** The `CREATE CATALOG` statement of an org's catalog (pure: unit-tested). */
export const createCatalogSql = (orgId: string, lake: LocalLake): string => {
  const catalog = catalogNameForOrg(orgId);
  const literal = (v: string): string => `'${v.replaceAll("'", "''")}'`;
  const properties: Record<string, string> = {
    'iceberg.catalog.type': 'jdbc',
    'iceberg.jdbc-catalog.driver-class': 'org.sqlite.JDBC',
    'iceberg.jdbc-catalog.connection-url': `jdbc:sqlite:${lake.catalogFile}`,
    // The JDBC catalog's name is the org's: its rows in the shared catalog file are the org's only.
    'iceberg.jdbc-catalog.catalog-name': catalog,
    'iceberg.jdbc-catalog.default-warehouse-dir': `file://${lake.warehouse}/${catalog}`,
    'fs.native-local.enabled': 'true',
    'local.location': '/',
  };
  const withClause = Object.entries(properties).map(([k, v]) => `${quoteTrino(k)} = ${literal(v)}`).join(', ');
  return `CREATE CATALOG ${quoteTrino(catalog)} USING iceberg WITH (${withClause})`;
};

/** Trino's name of one of the org's tables. */
const trinoName = (orgId: string) => (t: TableName) => `${quoteTrino(catalogNameForOrg(orgId))}.${quoteTrino(t.namespace)}.${quoteTrino(t.table)}`;

/** A Trino error is the caller's (400) when Trino says the statement is wrong, else the engine's (500). */
const failure = (outcome: Extract<TrinoOutcome, { state: 'FAILED' }>): Error =>
  outcome.errorType === 'USER_ERROR' ? new ValidationError(`query: bloom (Trino) refused the statement: ${outcome.error}`) : new ExecutionError(`bloom (Trino) failed: ${outcome.error}`);

/** The local bloom engine. */
export class TrinoBloomEngine implements BloomEngine {
  readonly platform = PLATFORM;
  private readonly catalogs = new Map<string, Promise<void>>();
  private catalogServer: unknown;
  private readonly statements = new Map<string, Statement>();

  /** @param trinoVersion the installed release, for lineage (asking the server would start it) */
  constructor(
    private readonly server: TrinoProvider,
    private readonly lake: LocalLake,
    private readonly trinoVersion: string,
  ) {}

  async version(): Promise<string> {
    return `trino ${this.trinoVersion}`;
  }

  /** Creates the org's catalog (and its access rule) once per server; one that exists already is fine. */
  private async catalogOf(orgId: string, server: Awaited<ReturnType<TrinoProvider>>): Promise<void> {
    // A server started again (the previous one died) has no catalogs yet.
    if (this.catalogServer !== server) {
      this.catalogs.clear();
      this.catalogServer = server;
    }
    let ready = this.catalogs.get(orgId);
    if (!ready) {
      ready = (async () => {
        await server.allowOrgCatalog(catalogNameForOrg(orgId));
        const outcome = await server.client.execute(createCatalogSql(orgId, this.lake), { user: ADMIN_USER });
        if (outcome.state === 'FAILED' && !/already exists/i.test(outcome.error)) throw new ExecutionError(`bloom could not open the lake of the organization: ${outcome.error}`);
      })();
      this.catalogs.set(orgId, ready);
      ready.catch(() => this.catalogs.delete(orgId));
    }
    await ready;
  }

  private async prepared(query: BloomQuery): Promise<{ client: TrinoClient; sql: string }> {
    const server = await this.server();
    const { client } = server;
    await this.catalogOf(query.orgId, server);
    const select = qualifyTables(query.sql, query.tables, trinoName(query.orgId));
    if (!query.resultsTable) return { client, sql: select };
    const schema = `${quoteTrino(catalogNameForOrg(query.orgId))}.${quoteTrino(query.resultsTable.namespace)}`;
    const user = catalogNameForOrg(query.orgId);
    const created = await client.execute(`CREATE SCHEMA IF NOT EXISTS ${schema}`, { user });
    if (created.state === 'FAILED') throw new ExecutionError(`bloom could not create the results namespace: ${created.error}`);
    // The query's column names, from Trino's own analysis of it (no rows are read).
    const probe = await client.execute(`SELECT * FROM (\n${select}\n) LIMIT 0`, { user });
    if (probe.state === 'FAILED') throw failure(probe);
    if (probe.state === 'CANCELED') throw new ExecutionError('bloom (Trino) statement was cancelled');
    return { client, sql: resultsTableAs(trinoName(query.orgId)(query.resultsTable), select, probe.results.columns) };
  }

  /**
   * Accepts a run's statement and returns at once: the server may still be starting (~30 s), longer
   * than a request may wait (API Gateway's 29 s), so the statement is prepared and driven in the
   * background and its state is this adapter's (`status`). The handle's id is the adapter's own.
   * The qualifier runs now, so a statement it refuses is the caller's 400.
   */
  async start(query: BloomQuery): Promise<BloomHandle> {
    qualifyTables(query.sql, query.tables, trinoName(query.orgId));
    const queryId = `lakeline_${randomUUID().replaceAll('-', '')}`;
    const entry: Statement = { cancelled: false };
    this.statements.set(queryId, entry);
    void this.drive(query, entry);
    return { platform: PLATFORM, queryId };
  }

  private async drive(query: BloomQuery, entry: Statement): Promise<void> {
    try {
      const { client, sql } = await this.prepared(query);
      if (entry.cancelled) {
        entry.outcome = { state: 'CANCELED' };
        return;
      }
      entry.statement = await client.start(sql, { user: catalogNameForOrg(query.orgId), source: `lakeline-bloom${query.label ? `:${query.label}` : ''}` });
      // A cancel that came while the statement was being submitted stops it now.
      if (entry.cancelled) await entry.statement.cancel();
      entry.outcome = await entry.statement.done;
    } catch (err) {
      entry.outcome = { state: 'FAILED', error: err instanceof Error ? err.message : String(err) };
    }
  }

  async status(handle: BloomHandle): Promise<BloomStatus> {
    const entry = this.statements.get(handle.queryId);
    // Statements live in this process and its server: after a restart, both are gone.
    if (!entry) return { state: 'FAIL', error: 'the local Trino server that ran the statement has stopped (the local stack restarted)' };
    const outcome = entry.outcome;
    if (!outcome) return { state: 'RUNNING' };
    if (outcome.state === 'CANCELED') return { state: 'ABORT' };
    if (outcome.state === 'FAILED') return { state: 'FAIL', error: outcome.error };
    const rows = outcome.updateCount ?? Number(outcome.results.rows[0]?.[0] ?? 0);
    return {
      state: 'COMPLETE',
      rows,
      ...(outcome.processedBytes !== undefined ? { scannedBytes: outcome.processedBytes } : {}),
      ...(outcome.elapsedMs !== undefined ? { engineMs: outcome.elapsedMs } : {}),
    };
  }

  async cancel(handle: BloomHandle): Promise<void> {
    const entry = this.statements.get(handle.queryId);
    if (!entry) return;
    entry.cancelled = true;
    await entry.statement?.cancel();
  }

  async query(query: BloomQuery, limits: BloomQueryLimits): Promise<BloomAnswer> {
    if (query.resultsTable) throw new Error('query() answers rows; a results table is for start()');
    const started = performance.now();
    const { client, sql } = await this.prepared(query);
    const statement = await client.start(sql, { user: catalogNameForOrg(query.orgId), maxRows: limits.maxRows, session: { query_max_run_time: `${Math.max(1, Math.ceil(limits.timeoutMs / 1000))}s` } });
    const outcome = await statement.done;
    if (outcome.state === 'CANCELED') throw new ExecutionError('bloom (Trino) statement was cancelled');
    if (outcome.state === 'FAILED') throw failure(outcome);
    return {
      results: outcome.results,
      executionMs: performance.now() - started,
      ...(outcome.processedBytes !== undefined ? { scannedBytes: outcome.processedBytes } : {}),
    };
  }
}
