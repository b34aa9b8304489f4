/**
 * @module routing/table
 * The routing table of `POST /api/v1/query`: every threshold the router decides with, in one
 * place, each with the measurement that set it (figures in docs/benchmarks.md#routing-regret-benchrouting-regretts; why: docs/adr/0020-routed-query-and-routing-table.md, produced by
 * `bench/routing-regret.ts` and `bench/tpch-duckdb.ts` on the 2-core development machine). Code
 * elsewhere reads these numbers; nothing re-states them.
 */

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/** Size classes of a query's estimated input, smallest first. */
export const SIZE_BANDS = ['xs', 's', 'm', 'l', 'xl'] as const;
export type SizeBand = (typeof SIZE_BANDS)[number];

/** Spark sizing of a batch band: machine types from the Spark machine table and executor count. */
export interface BatchSizing {
  readonly driverMachineType: string;
  readonly executorMachineType: string;
  readonly executors: number;
}

/** One row of the routing table. */
export interface BandRow {
  readonly band: SizeBand;
  /** Largest estimated input (bytes, inclusive) of the band; the last band has no bound. */
  readonly maxBytes: number;
  /** `interactive`: answered in the router (DuckDB) within the request; `batch`: a Spark run. */
  readonly mode: 'interactive' | 'batch';
  /** The sandbox of an interactive band (vCPUs; memory is 2 GB per vCPU, `lake/sandbox.ts`). */
  readonly sandboxVcpus: number;
  /** Spark sizing of a batch band (also used for writes whose input falls in the band). */
  readonly batch: BatchSizing;
  /**
   * The engine of a batch band's reads when it is configured and can run the statement: `bloom`
   * (distributed SQL, no job start-up) or, when absent, Spark.
   */
  readonly batchReads?: 'bloom';
  /** Why the band has these numbers (the measurement), for reviewers; not sent to callers. */
  readonly why: string;
}

/**
 * The largest estimated input answered interactively. API Gateway gives a request 29 s; the
 * router keeps 25 s for the engine (`DEFAULT_LIMITS`, `query/limits.ts`).
 *
 * Measured (`bench/routing-regret.ts --scale 1`, 2 threads, two runs at machine loads of 5–9 on
 * 2 cores): DuckDB reads the estimated input of the slowest TPC-H query per byte (Q13) at 73–98
 * MiB/s, the median query at 390–450 MiB/s. An 8-vCPU sandbox at 4 × 73 MiB/s reads ~7 GiB in
 * 25 s on local disk; the limit keeps a factor of ~3.5 below that for what this machine cannot
 * measure — S3 instead of a local disk (a Lambda function reads S3 at a few hundred MiB/s), skewed
 * joins and memory spills beyond SF 1 — so 2 GiB. Above it a read goes to Spark and its rows land
 * in a results table.
 */
export const INTERACTIVE_LIMIT_BYTES = 2 * GiB;

/**
 * The routing table. Rows are ordered by `maxBytes`; a query falls in the first row whose
 * `maxBytes` is at least its estimated input.
 */
export const ROUTING_TABLE: readonly BandRow[] = [
  {
    band: 'xs',
    maxBytes: 256 * MiB,
    mode: 'interactive',
    sandboxVcpus: 2,
    batch: { driverMachineType: 'spark.1.b', executorMachineType: 'spark.1.b', executors: 1 },
    why: 'TPC-H SF 1 (every query reads at most 227 MiB): the slowest query answers in under 2 s on 2 threads, and at the slowest rate per byte (73 MiB/s) 256 MiB take 3.5 s, so the plans\' default 2-vCPU sandbox is enough',
  },
  {
    band: 's',
    maxBytes: 1 * GiB,
    mode: 'interactive',
    sandboxVcpus: 4,
    batch: { driverMachineType: 'spark.2.b', executorMachineType: 'spark.2.b', executors: 2 },
    why: '4 vCPUs at twice the 2-thread rate (146 MiB/s for the slowest query per byte) read 1 GiB in ~7 s, under a third of the 25 s budget',
  },
  {
    band: 'm',
    maxBytes: INTERACTIVE_LIMIT_BYTES,
    mode: 'interactive',
    sandboxVcpus: 8,
    batch: { driverMachineType: 'spark.2.b', executorMachineType: 'spark.4.b', executors: 2 },
    why: 'up to the interactive limit: 8 vCPUs (292 MiB/s at the slowest rate per byte) read 2 GiB in ~7 s locally, leaving the factor of INTERACTIVE_LIMIT_BYTES for S3 and skew',
  },
  {
    band: 'l',
    maxBytes: 64 * GiB,
    mode: 'batch',
    sandboxVcpus: 4,
    // bench/bloom.ts (docs/adr/0023-bloom.md, figures in docs/benchmarks.md#bloom-benchbloomts): bloom starts a statement in well under a second on a
    // running engine where a Spark run spends 10-20 s starting; beyond 64 GiB, Spark's executors scale.
    batchReads: 'bloom',
    batch: { driverMachineType: 'spark.2.b', executorMachineType: 'spark.4.b', executors: 4 },
    why: 'beyond the interactive limit: a Spark run. A local run costs ~10–15 s before the first row (bench/routing-regret.ts --spark, bench/spark.ts), which only pays off for inputs no sandbox can answer in 25 s',
  },
  {
    band: 'xl',
    maxBytes: Number.POSITIVE_INFINITY,
    mode: 'batch',
    sandboxVcpus: 8,
    batch: { driverMachineType: 'spark.4.b', executorMachineType: 'spark.8.b', executors: 10 },
    why: 'above 64 GiB: more, larger executors (EMR Serverless scales them; the plan caps the count)',
  },
];

/** The row of an estimated input size. */
export const bandOf = (bytes: number, table: readonly BandRow[] = ROUTING_TABLE): BandRow => {
  const row = table.find((r) => bytes <= r.maxBytes);
  // The last row is unbounded; a table without one is a programming error.
  if (!row) throw new Error(`routing table has no row for ${bytes} bytes`);
  return row;
};

/**
 * A routing table whose interactive limit is moved (a deployment on faster or slower machines
 * sets `LAKELINE_ROUTING_INTERACTIVE_LIMIT_BYTES` from its own benchmark). Interactive rows above
 * the new limit become batch rows; the `m` row ends at the limit.
 */
export const withInteractiveLimit = (limitBytes: number): readonly BandRow[] => {
  if (!Number.isSafeInteger(limitBytes) || limitBytes < 1) throw new RangeError(`interactive limit must be a positive whole number of bytes, got ${limitBytes}`);
  const kept: BandRow[] = [];
  let lower = 0;
  for (const row of ROUTING_TABLE.filter((r) => r.mode === 'interactive')) {
    if (lower >= limitBytes) break;
    kept.push({ ...row, maxBytes: Math.min(row.maxBytes, limitBytes) });
    lower = row.maxBytes;
  }
  const last = kept[kept.length - 1] as BandRow;
  if (last.maxBytes < limitBytes) kept[kept.length - 1] = { ...last, maxBytes: limitBytes };
  return [...kept, ...ROUTING_TABLE.filter((r) => r.mode === 'batch' && r.maxBytes > limitBytes)];
};

/**
 * A routing table whose bloom band ends elsewhere (`LAKELINE_ROUTING_BLOOM_LIMIT_BYTES`): batch
 * reads up to `limitBytes` go to bloom where it is configured, larger ones to Spark. A limit at or
 * below the table's interactive limit leaves no bloom band (every batch read is a Spark run). Used
 * by a deployment whose engines measure otherwise, and by `bench/routing-regret.ts --boundaries`,
 * which lowers both limits so that TPC-H's queries fall on every side of them.
 */
export const withBloomLimit = (table: readonly BandRow[], limitBytes: number): readonly BandRow[] => {
  if (!Number.isSafeInteger(limitBytes) || limitBytes < 1) throw new RangeError(`bloom limit must be a positive whole number of bytes, got ${limitBytes}`);
  const interactiveLimit = interactiveLimitOf(table);
  const bloomRow = table.find((r) => r.batchReads === 'bloom');
  const rows: BandRow[] = table.filter((r) => r.mode === 'interactive');
  if (bloomRow && limitBytes > interactiveLimit) rows.push({ ...bloomRow, maxBytes: limitBytes });
  const floor = Math.max(interactiveLimit, limitBytes);
  rows.push(...table.filter((r) => r.mode === 'batch' && r !== bloomRow && r.maxBytes > floor));
  return rows;
};

/** The interactive limit of a table: the largest `maxBytes` of its interactive rows. */
export const interactiveLimitOf = (table: readonly BandRow[]): number =>
  Math.max(0, ...table.filter((r) => r.mode === 'interactive').map((r) => r.maxBytes));

/** Human-readable byte count for reasons ("1.5 GiB", "312 KiB", "87 bytes"). */
export const formatBytes = (bytes: number): string => {
  if (!Number.isFinite(bytes)) return 'unbounded';
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} bytes` : `${value >= 10 ? Math.round(value) : Math.round(value * 10) / 10} ${units[unit]}`;
};
