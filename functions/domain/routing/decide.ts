/**
 * @module routing/decide
 * The routing decision of `POST /api/v1/query`, as a pure function: from what the firewall found
 * (statement kind, own target), the estimated input of each table, and the request's engine,
 * destination and mode, to the contract's `engine_decision` plus what the use case must run.
 * A pinned engine that cannot run the request is a {@link CapabilityError} (400), never rerouted.
 */
import { CapabilityError } from '../errors.ts';
import type { Engine } from '../core/plans.ts';
import { MEMORY_GB_PER_VCPU } from '../lake/sandbox.ts';
import { machineType, type MachineType } from '../core/machine-types.ts';
import { bandOf, formatBytes, interactiveLimitOf, type BandRow, type BatchSizing } from './table.ts';

/** The `engine` field of a request. */
export type RequestedEngine = 'auto' | Engine;

/** How the request writes, when it writes. */
export interface RoutedWrite {
  /** `destination`: the request's field; `statement`: CTAS / INSERT naming its own target. */
  readonly via: 'destination' | 'statement';
  /** `lakeline.<namespace>.<table>`. */
  readonly table: string;
  /** `overwrite`, `append`, or `create` (CREATE TABLE AS: the table must not exist yet). */
  readonly mode: 'overwrite' | 'append' | 'create';
  /** The statement's own kind (`INSERT`, `CREATE_OR_REPLACE_TABLE_AS`, …), for reasons. */
  readonly statementType?: string;
}

/** The estimated input of one table. */
export interface InputEstimate {
  /** `lakeline.<namespace>.<table>`. */
  readonly table: string;
  /** Bytes of data files the query would read. */
  readonly bytes: number;
  /**
   * Where the figure comes from: the current snapshot's `total-files-size`, or the files the
   * query's filter on partition columns can match (`routing/partition-pruning.ts`).
   */
  readonly source: 'snapshot' | 'planned';
  /** For `planned`: how many of the snapshot's files were kept, and by which partition columns. */
  readonly planned?: { readonly kept: number; readonly total: number; readonly columns: readonly string[]; readonly snapshotBytes: number };
}

/** Everything the decision looks at. */
export interface RoutingInput {
  readonly engine: RequestedEngine;
  /** `query` (SQL) or `script` (a polars dataframe script). */
  readonly kind: 'query' | 'script';
  readonly write?: RoutedWrite;
  readonly inputs: readonly InputEstimate[];
  /** For a pinned polars SQL query: why polars SQL cannot parse the statement, if it cannot. */
  readonly polarsRefusal?: string;
  /** For a read bloom could run: why the firewall in Trino mode refuses the statement, if it does. */
  readonly trinoRefusal?: string;
}

/** What this deployment offers and the org's plan allows, as the decision needs it. */
export interface RoutingContext {
  readonly table: readonly BandRow[];
  /** Engines configured in this deployment (DuckDB always is: it runs in the router). */
  readonly configured: Readonly<Record<Exclude<Engine, 'duckdb'>, boolean>>;
  /** The org's plan: its name and Spark executor cap (batch sizing is clamped to it). */
  readonly plan: { readonly name: string; readonly maxSparkExecutors: number };
}

/** The contract's `engine_decision`. */
export interface EngineDecision {
  readonly engine: Engine;
  readonly execution_mode: 'interactive' | 'batch';
  readonly reasons: string[];
  readonly size_band: string;
  readonly estimated_input_bytes: string;
  readonly vcpus: number;
  readonly sandbox: { readonly vcpus: number; readonly memory_gb: number };
  readonly input_tables: string[];
}

/** What to run. */
export type RoutedAction =
  /** DuckDB (SQL) or polars (SQL or script) in the request; rows inline. */
  | { readonly kind: 'interactive'; readonly engine: 'duckdb' | 'polars' }
  /** A Spark run that writes the request's or the statement's target. */
  | { readonly kind: 'batch-write'; readonly sizing: BatchSizing }
  /** A Spark run whose rows land in a per-run results table. */
  | { readonly kind: 'batch-read'; readonly sizing: BatchSizing }
  /** A bloom run (Athena / Trino) whose rows land in a per-run results table. */
  | { readonly kind: 'bloom-read'; readonly vcpus: number };

/** The decision and the action. */
export interface Route {
  readonly decision: EngineDecision;
  readonly action: RoutedAction;
  readonly band: BandRow;
}

const capability = (engine: Engine, why: string, instead: string): CapabilityError =>
  new CapabilityError(`engine ${engine} cannot run this request: ${why}. ${instead}`);

/** Total estimated input bytes. */
export const totalBytes = (inputs: readonly InputEstimate[]): number => inputs.reduce((sum, i) => sum + i.bytes, 0);

const estimateReason = (inputs: readonly InputEstimate[], total: number): string => {
  if (inputs.length === 0) return 'The query reads no table, so its input is estimated at 0 bytes.';
  const part = (i: InputEstimate): string =>
    i.planned
      ? `${i.table} ${formatBytes(i.bytes)} (the ${i.planned.kept} of ${i.planned.total} files the filter on the partition column${i.planned.columns.length > 1 ? 's' : ''} ${i.planned.columns.join(', ')} can match, of ${formatBytes(i.planned.snapshotBytes)} in the snapshot)`
      : `${i.table} ${formatBytes(i.bytes)}`;
  const planned = inputs.some((i) => i.planned);
  return `The input is estimated at ${formatBytes(total)} (${total} bytes) from ${planned ? 'the planned files and ' : ''}the total-files-size of each table's current snapshot: ${inputs.map(part).join(', ')}.`;
};

const writeReason = (write: RoutedWrite): string =>
  write.via === 'destination'
    ? `The request names the destination ${write.table} (write_mode ${write.mode}), so it is a write: writes run as a Spark batch run and the call returns SUBMITTED with a run_id.`
    : `The statement writes its own target ${write.table} (${(write.statementType ?? '').replaceAll('_', ' ')}: ${write.mode}); writes run as a Spark batch run and the call returns SUBMITTED with a run_id.`;

/** Clamps a band's Spark sizing to the plan's executor cap, saying so when it does. */
const sizeBatch = (row: BandRow, context: RoutingContext, reasons: string[]): BatchSizing => {
  const cap = context.plan.maxSparkExecutors;
  if (row.batch.executors <= cap) return row.batch;
  reasons.push(`Band ${row.band} asks for ${row.batch.executors} executors; the ${context.plan.name} plan allows ${cap}, so the run uses ${cap} (slower, not refused: a batch run has no deadline).`);
  return { ...row.batch, executors: cap };
};

const machine = (name: string): MachineType => {
  const found = machineType(name);
  // The routing table names machine types of the table; anything else is a programming error.
  if (!found) throw new Error(`routing table names an unknown machine type ${name}`);
  return found;
};

/**
 * Decides engine, mode, band and size of a routed query.
 *
 * @throws {CapabilityError} (400) when the pinned engine cannot run the request, or a script names
 *   an engine other than polars, or the engine is not configured in this deployment
 */
export function decideRoute(input: RoutingInput, context: RoutingContext): Route {
  const total = totalBytes(input.inputs);
  const band = bandOf(total, context.table);
  const limit = interactiveLimitOf(context.table);
  const limitText = `${formatBytes(limit)} (${limit} bytes)`;
  const reasons: string[] = [estimateReason(input.inputs, total)];
  const pinned = input.engine === 'auto' ? undefined : input.engine;
  if (pinned) reasons.push(`The engine was pinned to ${pinned}; a pinned engine is used as asked or the request is refused, never rerouted.`);
  if (pinned && pinned !== 'duckdb' && !context.configured[pinned]) {
    throw new CapabilityError(`engine ${pinned} is not configured in this deployment. Use engine auto${(['duckdb', 'polars', 'spark'] as const).filter((e) => e === 'duckdb' || context.configured[e]).map((e) => `, ${e}`).join('')}.`);
  }

  const interactive = (engine: 'duckdb' | 'polars'): Route => {
    const vcpus = band.mode === 'interactive' ? band.sandboxVcpus : 0;
    return {
      band,
      action: { kind: 'interactive', engine },
      decision: decision(engine, 'interactive', reasons, band, total, vcpus, input),
    };
  };

  if (input.kind === 'script') {
    if (pinned && pinned !== 'polars') throw capability(pinned, 'a script is a polars dataframe script and runs only on polars', 'Use engine auto or polars, or send SQL as query.');
    if (!context.configured.polars) throw new CapabilityError('scripts run on the polars engine, which is not configured in this deployment. Send SQL as query instead.');
    if (input.write) throw new CapabilityError('a script with a destination is not supported on the routed endpoint. Use POST /api/v1/warehouse/polars with destination, or write with SQL.');
    if (band.mode !== 'interactive') {
      throw capability('polars', `the script's tables are estimated at ${formatBytes(total)}, above the interactive limit of ${limitText}`, 'Reduce the tables the script reads, or express it as SQL for Spark.');
    }
    reasons.push(`A script forces the polars engine; ${formatBytes(total)} is within the interactive limit of ${limitText}, so it runs in a ${band.sandboxVcpus}-vCPU polars sandbox and answers inline.`);
    reasons.push(bandReason(band));
    return interactive('polars');
  }

  if (input.write) {
    if (pinned === 'duckdb') throw capability('duckdb', 'DuckDB answers reads inside the router and does not write tables', 'Use engine auto or spark for a write.');
    if (pinned === 'polars') throw capability('polars', 'on this endpoint polars answers reads only', 'Use engine auto or spark, or POST /api/v1/warehouse/polars with destination.');
    if (pinned === 'bloom') throw capability('bloom', 'bloom does not write tables here', 'Use engine auto or spark.');
    if (!context.configured.spark) throw new CapabilityError('writes run on Spark, which is not configured in this deployment.');
    reasons.push(writeReason(input.write));
    const sizing = sizeBatch(band, context, reasons);
    reasons.push(`Band ${band.band} (${bandRange(band, context.table)}) sizes the run at ${sizing.executors} × ${sizing.executorMachineType} executors and a ${sizing.driverMachineType} driver.`);
    return { band, action: { kind: 'batch-write', sizing }, decision: batchDecision(reasons, band, total, sizing, input) };
  }

  // A read.
  const fits = band.mode === 'interactive';
  if (pinned === 'duckdb') {
    if (!fits) throw capability('duckdb', `its estimated input of ${formatBytes(total)} is above the interactive limit of ${limitText}, and DuckDB answers only interactive reads within the request`, 'Use engine auto or spark.');
    reasons.push(`${formatBytes(total)} is within the interactive limit of ${limitText}: DuckDB answers in the router within the request.`);
    reasons.push(bandReason(band));
    return interactive('duckdb');
  }
  if (pinned === 'polars') {
    if (input.polarsRefusal) throw capability('polars', `polars SQL cannot parse this statement (${input.polarsRefusal})`, 'Use engine auto or duckdb, or rewrite it in polars SQL.');
    if (!fits) throw capability('polars', `its estimated input of ${formatBytes(total)} is above the interactive limit of ${limitText}`, 'Use engine auto or spark.');
    reasons.push(`${formatBytes(total)} is within the interactive limit of ${limitText}: polars answers in a sandbox within the request.`);
    reasons.push(bandReason(band));
    return interactive('polars');
  }
  if (pinned === 'spark' && fits) {
    throw capability(
      'spark',
      `Spark runs batch jobs and cannot return rows inline, and this read (${formatBytes(total)}) is within the interactive limit of ${limitText}, so it must be answered with rows`,
      'Use engine auto or duckdb, or give a destination to write the result with Spark.',
    );
  }
  const bloomRead = (why: string): Route => {
    reasons.push(why);
    reasons.push(`bloom runs it as a batch run: the call returns SUBMITTED with a run_id, and GET /api/v1/runs/{run_id} returns the rows once the run is COMPLETE.`);
    const vcpus = band.sandboxVcpus;
    return { band, action: { kind: 'bloom-read', vcpus }, decision: decision('bloom', 'batch', reasons, band, total, vcpus, input) };
  };
  if (pinned === 'bloom') {
    if (input.trinoRefusal) throw capability('bloom', `bloom runs Trino SQL, and the SQL firewall in Trino mode refuses this statement (${input.trinoRefusal})`, 'Use engine auto or duckdb, or write it in Trino SQL.');
    return bloomRead(`bloom (distributed SQL: Athena in AWS, Trino locally) reads ${formatBytes(total)} at size band ${band.band}.`);
  }
  if (fits) {
    reasons.push(`${formatBytes(total)} is within the interactive limit of ${limitText}, so DuckDB answers it in the router within the request (API Gateway allows 29 s).`);
    reasons.push(bandReason(band));
    return interactive('duckdb');
  }
  // Only an unpinned read may take the bloom row: a read pinned to spark stays on Spark.
  const bloomRow = pinned === undefined && band.batchReads === 'bloom' && context.configured.bloom;
  if (bloomRow && !input.trinoRefusal) {
    return bloomRead(
      `${formatBytes(total)} is above the interactive limit of ${limitText} and within band ${band.band} (${bandRange(band, context.table)}), whose reads run on bloom: distributed SQL with no job start-up, for reads too large for DuckDB that need no Spark job.`,
    );
  }
  if (bloomRow && input.trinoRefusal) {
    reasons.push(`Band ${band.band}'s reads run on bloom, but the SQL firewall in Trino mode refuses this statement (${input.trinoRefusal}), so Spark runs it.`);
  }
  if (!context.configured.spark) {
    throw new CapabilityError(`the estimated input of ${formatBytes(total)} is above the interactive limit of ${limitText}, and Spark, which runs larger reads, is not configured in this deployment.`);
  }
  reasons.push(
    `${formatBytes(total)} is above the interactive limit of ${limitText}, so the read runs as a Spark batch run: the call returns SUBMITTED with a run_id, and GET /api/v1/runs/{run_id} returns the rows once the run is COMPLETE.`,
  );
  const sizing = sizeBatch(band, context, reasons);
  reasons.push(`Band ${band.band} (${bandRange(band, context.table)}) sizes the run at ${sizing.executors} × ${sizing.executorMachineType} executors and a ${sizing.driverMachineType} driver.`);
  return { band, action: { kind: 'batch-read', sizing }, decision: batchDecision(reasons, band, total, sizing, input) };
}

const bandRange = (band: BandRow, table: readonly BandRow[]): string => {
  const i = table.indexOf(band);
  const lower = i > 0 ? (table[i - 1] as BandRow).maxBytes : 0;
  return Number.isFinite(band.maxBytes) ? `${formatBytes(lower)} to ${formatBytes(band.maxBytes)}` : `above ${formatBytes(lower)}`;
};

const bandReason = (band: BandRow): string =>
  `Size band ${band.band} (up to ${formatBytes(band.maxBytes)}) runs in a ${band.sandboxVcpus}-vCPU sandbox with ${band.sandboxVcpus * MEMORY_GB_PER_VCPU} GB.`;

const decision = (engine: Engine, mode: 'interactive' | 'batch', reasons: string[], band: BandRow, total: number, vcpus: number, input: RoutingInput): EngineDecision => ({
  engine,
  execution_mode: mode,
  reasons,
  size_band: band.band,
  estimated_input_bytes: String(total),
  vcpus,
  sandbox: { vcpus, memory_gb: vcpus * MEMORY_GB_PER_VCPU },
  input_tables: input.inputs.map((i) => i.table),
});

/** A batch decision: `vcpus` counts the driver and every executor; `sandbox` is one executor. */
const batchDecision = (reasons: string[], band: BandRow, total: number, sizing: BatchSizing, input: RoutingInput): EngineDecision => {
  const executor = machine(sizing.executorMachineType);
  const vcpus = machine(sizing.driverMachineType).vcpus + executor.vcpus * sizing.executors;
  return { ...decision('spark', 'batch', reasons, band, total, vcpus, input), sandbox: { vcpus: executor.vcpus, memory_gb: executor.memoryGb } };
};
