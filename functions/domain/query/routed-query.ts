/**
 * @module query/routed-query
 * The use case of `POST /api/v1/query`: parse (SQL firewall), estimate (Iceberg snapshot sizes),
 * decide (`routing/decide.ts`), check the plan, run. Interactive reads run in the request on DuckDB
 * (or polars, behind the {@link PolarsEngine} port) and answer `COMPLETE` with rows; writes, own-
 * target statements and reads too large for the request become Spark runs (`SUBMITTED`) through
 * the {@link SparkSubmitter} port, a large read landing its rows in a per-run results table that
 * `GET /api/v1/runs/{run_id}` pages through. Reads of the routing table's bloom row (or pinned to
 * `bloom`) become bloom runs the same way, through the {@link BloomSubmitter} port. Every run records
 * START and COMPLETE/FAIL lineage for the query's job: here for interactive runs, in the runs use
 * cases for Spark and bloom runs.
 */
import { CapabilityError, DomainError, ExecutionError, UnauthorizedError, ValidationError } from '../errors.ts';
import type { Catalog, CatalogTable, LakeStorage } from '../lake/catalog.ts';
import { DEFAULT_CATALOG, qualifiedName, type TableName } from '../lake/names.ts';
import type { CatalogKind } from '../lineage-capture/datasets.ts';
import { completeEvent, failEvent, startEvent, type QueryRun } from '../lineage-capture/run-events.ts';
import type { LineageSink } from '../lineage-capture/sink.ts';
import type { Org, OrgStore } from '../orgs/org.ts';
import { isMetered, planOf, requireComputeAccess, VCPU_SECOND_PRICE_USD, type Engine } from '../orgs/plans.ts';
import { decideRoute, type EngineDecision, type InputEstimate, type Route, type RoutedWrite } from '../routing/decide.ts';
import { ownTargetQuery } from '../routing/own-target.ts';
import { partitionLayout, partitionPredicates, planFiles, type ManifestReader } from '../routing/partition-pruning.ts';
import { refuseReserved, RESULTS_NAMESPACE, type CheckedRoutedRequest } from '../routing/request.ts';
import { aliasTables, polarsAlias } from '../routing/table-aliases.ts';
import type { BandRow, BatchSizing } from '../routing/table.ts';
import { machineType } from '../runs/machine-types.ts';
import { computeView, type Run } from '../runs/run.ts';
import type { CheckedSparkRequest } from '../runs/spark-request.ts';
import { analyzeSql } from '../sql/index.ts';
import type { QualifiedName, SqlAnalysis, SqlDialect, StatementType, TableRef } from '../sql/types.ts';
import type { QueryEngine, TabularResult } from './engine.ts';
import { queryJob, type JobIdentity } from './job.ts';
import { catalogResolver, findTable, loadInputTables, type LoadedTable } from './lake-tables.ts';
import { DEFAULT_LIMITS, formatMs, type LegacyQueryLimits } from './legacy-query.ts';
import { literalScans } from '../polars/script-tables.ts';
import { sandboxOf } from './sandbox.ts';

/**
 * A table a polars run reads: under its alias when the SQL or script registers one, and always
 * under its own `namespace.table` name (a script may scan it by that literal name).
 */
export interface PolarsTable {
  readonly alias?: string;
  readonly table: LoadedTable;
}

/** What a polars run is given. */
export interface PolarsRunRequest {
  readonly orgId: string;
  readonly source: { readonly kind: 'sql'; readonly sql: string } | { readonly kind: 'script'; readonly script: string };
  readonly tables: readonly PolarsTable[];
  readonly vcpus: number;
  readonly timeoutMs: number;
}

/** What a polars run produced. */
export interface PolarsRunResult {
  readonly results: TabularResult;
  /** The sandbox that served it (a warm larger one may serve a smaller request; that one is billed). */
  readonly compute: Readonly<Record<string, unknown>> & { readonly vcpus: number };
  readonly executionMs: number;
}

/** Port: the polars engine (issue 6), as the router uses it. */
export interface PolarsEngine {
  version(): Promise<string>;
  /** @throws {ValidationError} (400) for a script or SQL polars refuses */
  run(request: PolarsRunRequest): Promise<PolarsRunResult>;
}

/** Port: submitting a bloom run (`bloom/runs.ts` `submitBloomRun`), with the run id chosen here. */
export interface BloomSubmitter {
  submit(orgId: string, request: { readonly job: JobIdentity; readonly sql: string; readonly vcpus: number }, runId: string): Promise<Run>;
}

/** Port: submitting a Spark run (the runs use case `submitSparkRun`), with the run id chosen here. */
export interface SparkSubmitter {
  submit(orgId: string, request: CheckedSparkRequest, runId: string): Promise<Run>;
}

/** What the use case needs. */
export interface RoutedQueryDeps {
  readonly orgs: Pick<OrgStore, 'get' | 'addUsage'>;
  readonly catalog: Catalog;
  readonly storage: LakeStorage;
  readonly duckdb: QueryEngine;
  /** Absent when polars is not configured in this deployment. */
  readonly polars?: PolarsEngine;
  /** Absent when Spark is not configured in this deployment. */
  readonly spark?: SparkSubmitter;
  /** Absent when bloom is not configured in this deployment. */
  readonly bloom?: BloomSubmitter;
  /** Reads manifests for the planned-files estimate; without it every estimate is the snapshot's size. */
  readonly manifests?: ManifestReader;
  readonly lineage: LineageSink;
  readonly catalogKind: CatalogKind;
  readonly routingTable: readonly BandRow[];
  readonly limits?: LegacyQueryLimits;
  readonly warn: (message: string, fields: Record<string, unknown>) => void;
  readonly now?: () => Date;
  readonly newRunId: () => string;
}

/** The contract's `UnifiedQueryResponse`. */
export interface UnifiedQueryResponse {
  readonly success: true;
  readonly explain?: true;
  readonly engine_decision: EngineDecision;
  readonly results?: TabularResult;
  readonly row_count?: number;
  readonly execution_time?: string;
  readonly state?: 'COMPLETE' | 'SUBMITTED';
  readonly run_id?: string;
  readonly output_table?: string;
  readonly compute?: Readonly<Record<string, unknown>>;
  readonly job?: JobIdentity;
}

/** A write, with its table name and whether the statement said IF NOT EXISTS. */
type PlannedWrite = RoutedWrite & { readonly name: TableName; readonly ifNotExists: boolean };

/** Everything known about the request once it is parsed and its inputs are loaded. */
interface Planned {
  readonly org: Org;
  readonly known: readonly CatalogTable[];
  readonly route: Route;
  readonly job: JobIdentity;
  readonly inputs: readonly LoadedTable[];
  /** The SQL an engine runs (the statement's query for own-target statements). */
  readonly sql?: string;
  readonly dialect: SqlDialect;
  readonly write?: PlannedWrite;
  readonly polarsTables: readonly PolarsTable[];
  /** The SQL as polars runs it: table references replaced by the aliases of `polarsTables`. */
  readonly polarsSql?: string;
}

/**
 * Runs a routed query.
 *
 * Refusals (400 request, firewall or capability; 402; 403) happen before any run; from the run's
 * start, lineage records START and COMPLETE or FAIL.
 *
 * @throws {ValidationError} (400) bad request, refused SQL, the engine's rejection of the SQL
 * @throws {CapabilityError} (400) the pinned engine cannot run the request
 * @throws {PaymentRequiredError} (402) a metered engine and no payment method
 * @throws {ForbiddenError} (403) the plan does not allow the query
 * @throws {ExecutionError} (500) the engine failed, with its message
 */
export async function runRoutedQuery(deps: RoutedQueryDeps, orgId: string, request: CheckedRoutedRequest): Promise<UnifiedQueryResponse> {
  const planned = await plan(deps, orgId, request);
  const { route } = planned;
  // Explain answers the decision only: no engine runs, nothing is checked against the bill.
  if (request.explain) return { success: true, explain: true, engine_decision: route.decision };
  switch (route.action.kind) {
    case 'interactive':
      return runInteractive(deps, orgId, request, planned, route.action.engine);
    case 'batch-write':
      return submitWrite(deps, orgId, planned, route.action.sizing);
    case 'batch-read':
      return submitRead(deps, orgId, planned, route.action.sizing);
    case 'bloom-read':
      return submitBloomRead(deps, orgId, planned, route.action.vcpus);
  }
}

/** Resolves a write target: the caller's own namespaces, never a reserved one. */
const targetResolver =
  (known: readonly CatalogTable[]) =>
  (ref: TableRef): QualifiedName | undefined => {
    if ((ref.catalog ?? DEFAULT_CATALOG).toLowerCase() !== DEFAULT_CATALOG || ref.namespace === undefined) return undefined;
    refuseReserved('query', { namespace: ref.namespace, table: ref.table });
    const found = findTable(known, { namespace: ref.namespace, table: ref.table });
    return { catalog: DEFAULT_CATALOG, namespace: found?.namespace ?? ref.namespace, table: found?.table ?? ref.table };
  };

const destinationWrite = (request: CheckedRoutedRequest): RoutedWrite => ({
  via: 'destination',
  table: qualifiedName(request.destination as TableName),
  mode: request.writeMode,
});

const estimates = (inputs: readonly LoadedTable[]): InputEstimate[] =>
  inputs.map((t) => ({ table: qualifiedName(t.engine.name), bytes: Number(t.description.size_bytes), source: 'snapshot' as const }));

/**
 * The estimate of a read of one partitioned table that filters on its partition columns: the size
 * of the files the filter can match. Anything else, or any failure reading the manifests (logged),
 * falls back to the snapshot's size: a larger estimate only picks a larger band.
 */
const plannedEstimates = async (deps: RoutedQueryDeps, inputs: readonly LoadedTable[], sql: string, dialect: SqlDialect): Promise<InputEstimate[]> => {
  const plain = estimates(inputs);
  const table = inputs[0];
  if (!deps.manifests || inputs.length !== 1 || !table || table.description.partition_spec.length === 0) return plain;
  const predicates = partitionPredicates(sql, dialect);
  if (predicates.length === 0) return plain;
  try {
    const layout = partitionLayout(await deps.storage.readText(table.engine.metadataLocation));
    if (!layout.manifestList || layout.fields.size === 0) return plain;
    const planned = planFiles(await deps.manifests.files(layout.manifestList), layout, predicates);
    if (!planned) return plain;
    const snapshotBytes = (plain[0] as InputEstimate).bytes;
    return [{ table: qualifiedName(table.engine.name), bytes: planned.bytes, source: 'planned', planned: { kept: planned.kept, total: planned.total, columns: planned.columns, snapshotBytes } }];
  } catch (err) {
    deps.warn('planned files not read; the snapshot size is the estimate', { table: qualifiedName(table.engine.name), error: err });
    return plain;
  }
};

/** A table of the org's catalog snapshot, or 400 naming the field that named it. */
const existing = (known: readonly CatalogTable[], name: TableName, field: string): CatalogTable => {
  const found = findTable(known, name);
  if (!found) throw new ValidationError(`${field}: table ${qualifiedName(name)} does not exist`);
  return found;
};

const plan = async (deps: RoutedQueryDeps, orgId: string, request: CheckedRoutedRequest): Promise<Planned> => {
  const [org, known] = await Promise.all([deps.orgs.get(orgId), deps.catalog.listTables(orgId)]);
  if (!org) throw new UnauthorizedError(`organization ${orgId} does not exist`);
  const context = {
    table: deps.routingTable,
    configured: { polars: deps.polars !== undefined, spark: deps.spark !== undefined, bloom: deps.bloom !== undefined },
    plan: planOf(org),
  };

  if (request.source.kind === 'script') {
    // The polars endpoint's rule: the registered tables, plus the tables scanned by a literal name.
    const registered = request.source.tables.map((t, i) => ({ alias: t.alias as string | undefined, found: existing(known, t.table, `tables.${i}`) }));
    const scanned = literalScans(request.source.script)
      .map(({ text, table }) => ({ alias: undefined, found: existing(known, table, `scan("${text}")`) }))
      .filter(({ found }) => !registered.some((r) => r.found === found));
    const reads = [...registered, ...scanned];
    const inputs = await loadInputTables(deps.storage, known, reads.map(({ found }) => ({ namespace: found.namespace, table: found.table })));
    const write = request.destination ? destinationWrite(request) : undefined;
    const route = decideRoute({ engine: request.engine, kind: 'script', ...(write ? { write } : {}), inputs: estimates(inputs) }, context);
    return {
      org,
      known,
      route,
      job: queryJob(`script:${request.source.script}`),
      inputs,
      dialect: 'polars',
      polarsTables: reads.map(({ alias }, i) => ({ ...(alias === undefined ? {} : { alias }), table: inputs[i] as LoadedTable })),
    };
  }

  const sql = request.source.sql;
  // The statement is read in the dialect of the engine that will run it: Spark SQL when Spark is
  // pinned, DuckDB's otherwise (the interactive engine of `auto`; a statement of a write is read
  // again as Spark SQL before its run).
  // Pinned bloom reads Trino SQL (Athena's dialect); `auto` checks it too before choosing bloom.
  const dialect: SqlDialect = request.engine === 'spark' ? 'spark' : request.engine === 'bloom' ? 'trino' : 'duckdb';
  const options = { defaultCatalog: DEFAULT_CATALOG, resolveTable: catalogResolver(known), resolveTarget: targetResolver(known) };
  const analysis: SqlAnalysis = analyzeSql(sql, { dialect, ...options });
  let polarsRefusal: string | undefined;
  if (request.engine === 'polars') {
    try {
      analyzeSql(sql, { dialect: 'polars', ...options });
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      // Passed the firewall as DuckDB SQL, but polars SQL cannot read it: a capability question.
      polarsRefusal = err.message;
    }
  }
  let trinoRefusal: string | undefined;
  if (deps.bloom && request.engine === 'auto' && analysis.kind === 'read' && !request.destination) {
    try {
      analyzeSql(sql, { dialect: 'trino', ...options });
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      // Passed the firewall as DuckDB SQL, but not as Trino SQL: bloom is not a choice for it.
      trinoRefusal = err.message;
    }
  }
  let write: PlannedWrite | undefined;
  let runSql = sql;
  if (analysis.kind === 'write-own-target' && analysis.target) {
    if (request.destination) throw new ValidationError('destination: the statement writes its own target table; send either such a statement or a destination, not both');
    const statementType = analysis.statementType as Exclude<StatementType, 'SELECT'>;
    const own = ownTargetQuery(sql, dialect, statementType);
    const name = { namespace: analysis.target.namespace, table: analysis.target.table };
    write = { via: 'statement', table: qualifiedName(name), mode: own.mode, statementType, name, ifNotExists: analysis.target.ifNotExists === true };
    runSql = own.sql;
  } else if (request.destination) {
    write = { ...destinationWrite(request), name: request.destination, ifNotExists: false };
  }
  const inputs = await loadInputTables(deps.storage, known, analysis.inputTables);
  const sized = write ? estimates(inputs) : await plannedEstimates(deps, inputs, sql, dialect);
  const route = decideRoute(
    { engine: request.engine, kind: 'query', ...(write ? { write } : {}), inputs: sized, ...(polarsRefusal ? { polarsRefusal } : {}), ...(trinoRefusal ? { trinoRefusal } : {}) },
    context,
  );
  return {
    org,
    known,
    route,
    job: queryJob(analysis.normalizedSql),
    inputs,
    sql: runSql,
    dialect,
    ...(write ? { write } : {}),
    // polars SQL resolves plain names only: each table under its alias, the SQL rewritten to match.
    polarsTables: inputs.map((t) => ({ alias: polarsAlias(t.engine.name), table: t })),
    ...(request.engine === 'polars' ? { polarsSql: aliasTables(runSql, 'polars', inputs.map((t) => t.engine.name)) } : {}),
  };
};

const firstLine = (err: unknown): string => (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? 'unknown error';

/** Runs an interactive read in the request, with lineage around it. */
const runInteractive = async (
  deps: RoutedQueryDeps,
  orgId: string,
  request: CheckedRoutedRequest,
  planned: Planned,
  engine: 'duckdb' | 'polars',
): Promise<UnifiedQueryResponse> => {
  const { route, org } = planned;
  const vcpus = route.decision.sandbox.vcpus;
  requireComputeAccess(org, engine, vcpus);
  const limits = deps.limits ?? DEFAULT_LIMITS;
  const now = deps.now ?? (() => new Date());
  const started = performance.now();
  const polars = engine === 'polars' ? deps.polars : undefined;
  if (engine === 'polars' && !polars) throw new CapabilityError('polars is not configured in this deployment.');
  const version = await (polars ? polars.version() : deps.duckdb.version());
  const script = request.source.kind === 'script' ? request.source.script : undefined;
  const run: QueryRun = {
    runId: deps.newRunId(),
    job: planned.job,
    sql: script ?? (planned.sql as string),
    dialect: script === undefined ? planned.dialect : 'polars-script',
    engine: { name: engine, version },
    inputs: planned.inputs.map((t) => t.dataset),
    catalogKind: deps.catalogKind,
  };
  const record = (event: object): Promise<void> =>
    deps.lineage.emit(orgId, event).catch((err: unknown) => deps.warn('lineage event not recorded', { runId: run.runId, error: err }));
  // START is recorded alongside the run rather than before it: the run does not wait on the store.
  const startRecorded = record(startEvent(run, now()));
  let results: TabularResult;
  let compute: Record<string, unknown>;
  try {
    const timeoutMs = Math.max(1, limits.timeoutMs - (performance.now() - started));
    if (polars) {
      const source = script === undefined ? { kind: 'sql' as const, sql: planned.polarsSql ?? (planned.sql as string) } : { kind: 'script' as const, script };
      const ran = await polars.run({ orgId, source, tables: planned.polarsTables, vcpus, timeoutMs });
      results = ran.results;
      // The sandbox that served the run is the one billed, for the time the run took.
      const vcpuSeconds = Math.round(ran.compute.vcpus * ran.executionMs) / 1000;
      compute = { engine: 'polars', mode: 'interactive', ...ran.compute, billed_vcpu_seconds: vcpuSeconds };
    } else {
      const sandbox = sandboxOf(vcpus);
      const ran = await deps.duckdb.run({
        owner: orgId,
        sql: planned.sql as string,
        tables: planned.inputs.map((t) => t.engine),
        sandbox,
        timeoutMs,
        maxResultBytes: limits.maxResultBytes,
      });
      results = ran.results;
      // DuckDB runs inside the router's own function: nothing extra is provisioned or billed.
      compute = { engine: 'duckdb', mode: 'interactive', platform: 'router', vcpus: sandbox.vcpus, memory_gb: sandbox.memoryGb, billed_vcpu_seconds: 0 };
    }
  } catch (err) {
    const failure = err instanceof DomainError ? err : new ExecutionError(`${engine} failed to run the query: ${firstLine(err)}`, { cause: err });
    await startRecorded;
    await record(failEvent(run, now(), failure.message));
    throw failure;
  }
  const elapsedMs = performance.now() - started;
  await startRecorded;
  await record(completeEvent(run, now()));
  if (isMetered(engine)) await meterInteractive(deps, orgId, engine, Number(compute.billed_vcpu_seconds ?? 0), run.runId);
  return {
    success: true,
    engine_decision: route.decision,
    state: 'COMPLETE',
    results,
    row_count: results.rows.length,
    execution_time: formatMs(elapsedMs),
    compute,
    job: planned.job,
  };
};

const meterInteractive = async (deps: RoutedQueryDeps, orgId: string, engine: Engine, vcpuSeconds: number, runId: string): Promise<void> => {
  try {
    await deps.orgs.addUsage(orgId, engine, vcpuSeconds, vcpuSeconds * VCPU_SECOND_PRICE_USD[engine]);
  } catch (err) {
    // Billing never fails an answered query; the log keeps what was not metered.
    deps.warn('interactive usage not metered', { runId, vcpuSeconds, error: err });
  }
};

const machine = (name: string) => {
  const found = machineType(name);
  if (!found) throw new Error(`routing table names an unknown machine type ${name}`);
  return found;
};

const sparkRequest = (planned: Planned, sizing: BatchSizing, output: TableName, writeMode: 'overwrite' | 'append'): CheckedSparkRequest => ({
  job: planned.job,
  sql: planned.sql as string,
  output,
  writeMode,
  resources: { driver: machine(sizing.driverMachineType), executor: machine(sizing.executorMachineType), executors: sizing.executors },
});

const spark = (deps: RoutedQueryDeps): SparkSubmitter => {
  if (!deps.spark) throw new CapabilityError('Spark is not configured in this deployment.');
  return deps.spark;
};

/** A write (destination or own target): a Spark run into the table. */
const submitWrite = async (deps: RoutedQueryDeps, orgId: string, planned: Planned, sizing: BatchSizing): Promise<UnifiedQueryResponse> => {
  const write = planned.write as PlannedWrite;
  if (write.mode === 'create' && findTable(planned.known, write.name)) {
    if (write.ifNotExists) {
      // CREATE TABLE IF NOT EXISTS over an existing table does nothing, by its own semantics.
      const reasons = [...planned.route.decision.reasons, `${write.table} exists and the statement says IF NOT EXISTS, so nothing runs.`];
      return { success: true, engine_decision: { ...planned.route.decision, reasons }, state: 'COMPLETE', row_count: 0, execution_time: '0ms', output_table: write.table, job: planned.job };
    }
    throw new ValidationError(`query: ${write.table} already exists, and CREATE TABLE … AS creates a new table; use CREATE OR REPLACE TABLE … AS, INSERT INTO, or another name`);
  }
  const mode = write.mode === 'append' ? 'append' : 'overwrite';
  const run = await spark(deps).submit(orgId, sparkRequest(planned, sizing, write.name, mode), deps.newRunId());
  return {
    success: true,
    engine_decision: planned.route.decision,
    state: 'SUBMITTED',
    run_id: run.runId,
    output_table: write.table,
    compute: computeView(run.compute),
    job: planned.job,
  };
};

/** A read on bloom: a bloom run whose rows land in the run's results table. */
const submitBloomRead = async (deps: RoutedQueryDeps, orgId: string, planned: Planned, vcpus: number): Promise<UnifiedQueryResponse> => {
  if (!deps.bloom) throw new CapabilityError('bloom is not configured in this deployment.');
  const run = await deps.bloom.submit(orgId, { job: planned.job, sql: planned.sql as string, vcpus }, deps.newRunId());
  return { success: true, engine_decision: planned.route.decision, state: 'SUBMITTED', run_id: run.runId, compute: computeView(run.compute), job: planned.job };
};

/** The results table of a batch read's run (namespace reserved for lakeline). */
export const resultsTableOf = (runId: string): TableName => ({ namespace: RESULTS_NAMESPACE, table: `r_${runId.replaceAll('-', '').toLowerCase()}` });

/** A read too large for the request: a Spark run whose rows land in the run's results table. */
const submitRead = async (deps: RoutedQueryDeps, orgId: string, planned: Planned, sizing: BatchSizing): Promise<UnifiedQueryResponse> => {
  const runId = deps.newRunId();
  const run = await spark(deps).submit(orgId, { ...sparkRequest(planned, sizing, resultsTableOf(runId), 'overwrite'), results: true }, runId);
  return { success: true, engine_decision: planned.route.decision, state: 'SUBMITTED', run_id: run.runId, compute: computeView(run.compute), job: planned.job };
};
