/**
 * @module query/legacy-query
 * The use case of `POST /api/v1/warehouse/query` (legacy, DuckDB only): plan check, SQL firewall,
 * the org's tables, one DuckDB run sized by the plan's default sandbox, and lineage around it.
 * With `autoSaveByHash` the result is saved as an Iceberg table keyed by the query's hash, and a
 * query whose table exists is answered from it without running again.
 */
import { CapabilityError, ForbiddenError, UnauthorizedError } from '../errors.ts';
import { autosaveTable, readSavedSql } from '../lake/autosave.ts';
import type { EngineResult, SandboxSize, TabularResult } from '../lake/engine.ts';
import { DEFAULT_CATALOG } from '../core/names.ts';
import type { Catalog, LakeStorage, LakeWriter, QueryEngine, ScratchSpace } from '../lake/ports.ts';
import { catalogResolver, findTable, loadInputTables, loadTable, type LoadedTable } from '../lake/query-tables.ts';
import { sandboxOf } from '../lake/sandbox.ts';
import type { CatalogKind } from '../lineage-capture/datasets.ts';
import type { LineageSink } from '../lineage-capture/ports.ts';
import { queryJob, type JobIdentity } from '../core/query-job.ts';
import type { QueryOutput, QueryRun } from '../lineage-capture/run-events.ts';
import type { OrgStore } from '../orgs/ports.ts';
import { planOf, requireLegacyQueryAccess } from '../core/plans.ts';
import { analyzeSql } from '../sql/analyze.ts';
import { DEFAULT_LIMITS, formatMs, type QueryLimits } from './limits.ts';
import { withRunLineage } from './run-lineage.ts';

/** What the use case needs. */
export interface LegacyQueryDeps {
  readonly orgs: Pick<OrgStore, 'get'>;
  readonly catalog: Catalog;
  readonly storage: LakeStorage;
  readonly writer: Pick<LakeWriter, 'write'>;
  readonly engine: QueryEngine;
  readonly lineage: LineageSink;
  readonly catalogKind: CatalogKind;
  /** Where autosave stages its Parquet file; absent where the lake writer cannot read local files. */
  readonly scratch?: ScratchSpace;
  /** Lineage that could not be recorded is logged here; it never fails the query. */
  readonly warn: (message: string, fields: Record<string, unknown>) => void;
  readonly limits?: QueryLimits;
  readonly now?: () => Date;
  readonly newRunId: () => string;
}

/** A request, as the handler parsed it. */
export interface LegacyQueryInput {
  readonly orgId: string;
  readonly query: string;
  readonly autoSaveByHash: boolean;
  /** Also return DuckDB's plan of the statement as `explainResult`. */
  readonly explain: boolean;
  /** False for a read-only key (ADR 0049): `autoSaveByHash`, which saves a table, is refused. */
  readonly mayWrite?: boolean;
}

/** The contract's execution summary (the response and its `explainResult`). */
export interface ExecutionSummary {
  readonly success: true;
  readonly results: TabularResult;
  readonly row_count: number;
  readonly execution_time: string;
}

/** The contract's `QueryResponse`. */
export interface LegacyQueryResponse extends ExecutionSummary {
  readonly query: string;
  readonly job: JobIdentity;
  readonly explainResult?: ExecutionSummary;
}

/**
 * Whether the answer came from an autosaved table (`hit`), was run and saved (`miss`), or was run
 * without autosave (`off`).
 */
export type CacheOutcome = 'hit' | 'miss' | 'off';

/** The response and how it was produced. */
export interface LegacyQueryOutcome {
  readonly response: LegacyQueryResponse;
  readonly cache: CacheOutcome;
  readonly runId: string;
  /** Milliseconds spent in each phase: lookup, firewall, metadata, sandbox, run, lineage. */
  readonly timings: Readonly<Record<string, number>>;
}

const summary = (results: TabularResult, ms: number): ExecutionSummary => ({ success: true, results, row_count: results.rows.length, execution_time: formatMs(ms) });

interface Produced {
  readonly results: TabularResult;
  /** Engine set-up time of every engine run, summed. */
  readonly setupMs: number;
  readonly explain?: EngineResult['explain'];
  readonly output?: QueryOutput;
}

/**
 * Runs a legacy warehouse query.
 *
 * A request refused before it runs (plan, firewall) is not a run and records no lineage; from the
 * moment the statement is accepted, START and then COMPLETE or FAIL are recorded.
 *
 * @throws {ForbiddenError} (403) below the Pro plan
 * @throws {ValidationError} (400) for a refused statement or an SQL error, with the engine's message
 */
export async function runLegacyQuery(deps: LegacyQueryDeps, input: LegacyQueryInput): Promise<LegacyQueryOutcome> {
  const started = performance.now();
  const phases = phaseClock();
  const limits = deps.limits ?? DEFAULT_LIMITS;
  if (input.autoSaveByHash && input.mayWrite === false) {
    throw new ForbiddenError('this API key is read-only: autoSaveByHash saves the result as a table (send false, or use a key created without --read-only)');
  }
  const remainingMs = (): number => Math.max(1, limits.timeoutMs - (performance.now() - started));

  // The catalog listing is only wasted work for an org below Pro, so both lookups run at once.
  const [org, known, engineVersion] = await Promise.all([deps.orgs.get(input.orgId), deps.catalog.listTables(input.orgId), deps.engine.version()]);
  if (!org) throw new UnauthorizedError(`organization ${input.orgId} does not exist`);
  requireLegacyQueryAccess(org);
  phases.lap('lookup');

  // No `resolveTarget`: the firewall refuses every statement that writes.
  const analysis = analyzeSql(input.query, { dialect: 'duckdb', defaultCatalog: DEFAULT_CATALOG, resolveTable: catalogResolver(known) });
  if (analysis.kind !== 'read') throw new CapabilityError('The legacy warehouse endpoint runs queries only; write tables with POST /api/v1/query.');
  const job = queryJob(analysis.normalizedSql);
  const sandbox = sandboxOf(planOf(org).defaultSandboxVcpus);
  phases.lap('firewall');

  const savedTable = input.autoSaveByHash ? findTable(known, autosaveTable(job)) : undefined;
  if (input.autoSaveByHash && !savedTable && !deps.scratch) {
    throw new CapabilityError('autoSaveByHash is not available in this deployment yet: its lake writer cannot read staged results.');
  }
  const inputs = savedTable ? [await loadTable(deps.storage, savedTable)] : await loadInputTables(deps.storage, known, analysis.inputTables);
  phases.lap('metadata');

  const run: QueryRun = {
    runId: deps.newRunId(),
    job,
    sql: input.query,
    dialect: 'duckdb',
    engine: { name: deps.engine.name, version: engineVersion },
    inputs: inputs.map((t) => t.dataset),
    catalogKind: deps.catalogKind,
  };
  const context: RunContext = { deps, input, sandbox, limits, remainingMs };
  const { produced, elapsedMs } = await withRunLineage(
    deps,
    input.orgId,
    run,
    async () => {
      const answer = savedTable ? await readSaved(context, inputs[0] as LoadedTable) : input.autoSaveByHash ? await runAndSave(context, inputs, job) : await runOnce(context, inputs);
      const elapsed = performance.now() - started;
      phases.lap('run');
      return { produced: answer, elapsedMs: elapsed };
    },
    { output: (ran) => ran.produced.output },
  );
  phases.split('run', 'sandbox', produced.setupMs);
  phases.lap('lineage');

  const response: LegacyQueryResponse = {
    ...summary(produced.results, elapsedMs),
    query: input.query,
    job,
    ...(produced.explain ? { explainResult: summary(produced.explain.results, produced.explain.executionMs) } : {}),
  };
  return { response, cache: savedTable ? 'hit' : input.autoSaveByHash ? 'miss' : 'off', runId: run.runId, timings: phases.laps };
}

/** Durations of a request's phases, for the `Server-Timing` header. */
const phaseClock = () => {
  let last = performance.now();
  const laps: Record<string, number> = {};
  return {
    laps,
    lap: (name: string): void => {
      const t = performance.now();
      laps[name] = t - last;
      last = t;
    },
    /** Moves `ms` of a recorded phase into a phase of its own (the engine's set-up out of `run`). */
    split: (from: string, to: string, ms: number): void => {
      laps[to] = ms;
      laps[from] = (laps[from] ?? 0) - ms;
    },
  };
};

interface RunContext {
  readonly deps: LegacyQueryDeps;
  readonly input: LegacyQueryInput;
  readonly sandbox: SandboxSize;
  readonly limits: QueryLimits;
  readonly remainingMs: () => number;
}

const runOnce = async ({ deps, input, sandbox, limits, remainingMs }: RunContext, inputs: readonly LoadedTable[]): Promise<Produced> => {
  const ran = await deps.engine.run({
    owner: input.orgId,
    sql: input.query,
    tables: inputs.map((t) => t.engine),
    sandbox,
    explain: input.explain,
    timeoutMs: remainingMs(),
    maxResultBytes: limits.maxResultBytes,
  });
  return { results: ran.results, setupMs: ran.setupMs, ...(ran.explain ? { explain: ran.explain } : {}) };
};

/** Answers from the saved table, in the row order it was saved in; the query itself does not run. */
const readSaved = async ({ deps, input, sandbox, limits, remainingMs }: RunContext, saved: LoadedTable): Promise<Produced> => {
  const ran = await deps.engine.run({
    owner: input.orgId,
    sql: readSavedSql(saved.engine.name),
    tables: [saved.engine],
    sandbox,
    explain: input.explain,
    timeoutMs: remainingMs(),
    maxResultBytes: limits.maxResultBytes,
  });
  return { results: ran.results, setupMs: ran.setupMs, ...(ran.explain ? { explain: ran.explain } : {}) };
};

/**
 * Runs the query, lands its result as the job's autosave table through the lake writer, and
 * answers with the table's content, so the first answer and every cached one are the same rows
 * with the same types.
 */
const runAndSave = async (context: RunContext, inputs: readonly LoadedTable[], job: JobIdentity): Promise<Produced> => {
  const { deps, input, sandbox, limits, remainingMs } = context;
  const scratch = deps.scratch as ScratchSpace;
  const directory = await scratch.create();
  try {
    const ran = await deps.engine.run({
      owner: input.orgId,
      sql: input.query,
      tables: inputs.map((t) => t.engine),
      sandbox,
      explain: input.explain,
      exportDirectory: directory,
      timeoutMs: remainingMs(),
      maxResultBytes: limits.maxResultBytes,
    });
    if (!ran.exported) throw new Error('the engine did not export the result');
    const target = autosaveTable(job);
    const landed = await deps.writer.write({ orgId: input.orgId, ...target, parquet: [ran.exported.file], mode: 'overwrite' });
    const saved = await loadTable(deps.storage, { ...target, metadataLocation: landed.metadataLocation });
    const back = await readSaved({ ...context, input: { ...input, explain: false } }, saved);
    return {
      results: back.results,
      setupMs: ran.setupMs + back.setupMs,
      ...(ran.explain ? { explain: ran.explain } : {}),
      output: {
        dataset: saved.dataset,
        rowCount: landed.rowsWritten,
        bytes: Number(saved.description.size_bytes),
        fileCount: saved.description.data_file_count,
      },
    };
  } finally {
    await scratch.remove(directory);
  }
};
