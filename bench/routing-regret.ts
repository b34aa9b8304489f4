/**
 * Routing regret of `POST /api/v1/query` on TPC-H: for each of the 22 queries, the time of
 * `engine: auto` against each engine pinned where it can run the query, and
 * regret = time(auto) / time(fastest engine).
 *
 *   npx tsx bench/routing-regret.ts --scale 0.1|1 [--reps N] [--home DIR] [--spark]
 *
 * Starts the local stack (`local/main.ts`) in its own home (default `.lakeline/bench/sf<scale>`,
 * shared with bench/tpch-duckdb.ts and kept between runs), loads TPC-H at the scale with the lake
 * writer's `demo_load` when the home does not have it yet, then times through HTTP, end to end
 * (request to rows in hand):
 * - `auto`, `duckdb` and `polars` pinned: the median of `reps` runs after one warm-up; an engine
 *   that cannot run a query answers a 400 capability error, shown as its reason;
 * - with `--spark`: Spark, which answers a read of this size only as a batch run (pinned `spark`
 *   on an interactive read is a capability error), timed as one `destination` write run from
 *   submission to COMPLETE — the time a caller waits for Spark to produce the rows. Those runs
 *   leave (and next time overwrite) the tables `bench_regret.q<n>` in the bench home's demo org.
 *
 * Also prints, per query, the estimated input (the router's figure) and DuckDB's scan rate over it
 * (estimated bytes / DuckDB time), whose minimum is what the interactive limit rests on. Targets:
 * geometric mean regret ≤ 1.15, no query above 2.0.
 *
 * At SF ≤ 1 every TPC-H query is within the 2 GiB interactive limit, so `auto` always picks DuckDB
 * and the run above only compares DuckDB with itself. `--boundaries` exercises the decisions near
 * the engines' boundaries instead:
 *
 *   npx tsx bench/routing-regret.ts --boundaries --scale 0.1|1 [--reps N] [--home DIR]
 *
 * 1. a stack with the product's table times DuckDB, polars and bloom pinned (and asks `explain` for
 *    each query's estimated input);
 * 2. a stack whose interactive and bloom limits are 1 byte times Spark pinned as a batch read (one
 *    run per query: each is a new JVM);
 * 3. a stack whose limits are lowered by configuration (`LAKELINE_ROUTING_INTERACTIVE_LIMIT_BYTES`,
 *    `LAKELINE_ROUTING_BLOOM_LIMIT_BYTES`) to the estimates' terciles, so a third of the queries
 *    route to DuckDB, a third to bloom and a third to Spark, times `auto`.
 * Every figure is request → rows in hand through the API (`bench/routed-client.ts`), on the TPC-H
 * text every engine reads (`portableTpchQueries`). Two regrets per query: over the fastest engine
 * of all, and over the fastest engine of auto's mode (interactive: DuckDB, polars; batch: bloom,
 * Spark) — the choice the router makes at the bloom/Spark boundary. The phases run one after the
 * other, so the machine's load is printed for each.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { formatBytes, INTERACTIVE_LIMIT_BYTES } from '#domain/routing/table';
import { REPO_ROOT, startStackProcess, type StackProcess } from '../test/helpers/local-stack-process.ts';
import { portableTpchQueries, tpchQueries } from './tpch-queries.ts';
import { machine, quantile } from './bench-util.ts';
import { ensureTpch, requireExtensions, routedRead } from './routed-client.ts';

const SPARK_TIMEOUT_MS = 600_000;

const { values } = parseArgs({
  options: { scale: { type: 'string', default: '0.1' }, reps: { type: 'string' }, home: { type: 'string' }, spark: { type: 'boolean', default: false }, boundaries: { type: 'boolean', default: false } },
});
const scale = Number(values.scale);
if (![0.01, 0.1, 1].includes(scale)) throw new Error('--scale must be 0.01, 0.1 or 1');
const reps = Number(values.reps ?? 3);
const home = path.resolve(values.home ?? path.join(REPO_ROOT, '.lakeline', 'bench', `sf${scale}`));

interface Timed {
  readonly ms?: number;
  /** Why the engine did not run the query (its capability error). */
  readonly refused?: string;
  readonly engine?: string;
  readonly estimatedBytes?: number;
}

const median = (xs: readonly number[]): number => quantile([...xs].sort((a, b) => a - b), 0.5);

const main = async (): Promise<void> => {
  mkdirSync(home, { recursive: true });
  const loadBefore = machine();
  console.log(`routing regret, TPC-H SF ${scale}, median of ${reps} runs after one warm-up; ${loadBefore}`);
  const stack = await startStackProcess(home, 0, { LAKELINE_DEMO_DATA: '0', LAKELINE_LOG_LEVEL: 'warn' });
  const headers = { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' };
  const post = async (body: object) => {
    const r = await fetch(`${stack.baseUrl}/api/v1/query`, { method: 'POST', headers, body: JSON.stringify(body) });
    return { status: r.status, body: (await r.json()) as Record<string, unknown> & { engine_decision?: { engine: string; estimated_input_bytes: string }; run_id?: string; state?: string; error?: string } };
  };
  const waitRun = async (runId: string): Promise<void> => {
    const deadline = Date.now() + SPARK_TIMEOUT_MS;
    for (;;) {
      const r = (await (await fetch(`${stack.baseUrl}/api/v1/runs/${runId}`, { headers })).json()) as { state: string; error?: string };
      if (r.state === 'COMPLETE') return;
      if (r.state !== 'RUNNING') throw new Error(`run ${runId} ended ${r.state}: ${r.error}`);
      if (Date.now() > deadline) throw new Error(`run ${runId} still RUNNING`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  /** One request to rows in hand (a SUBMITTED read is polled to COMPLETE and its rows fetched). */
  const once = async (sql: string, engine: string): Promise<Timed> => {
    const t0 = performance.now();
    const r = await post({ query: sql, engine });
    if (r.status === 400) return { refused: String(r.body.error) };
    if (r.status !== 200) throw new Error(`${engine}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
    if (r.body.state === 'SUBMITTED' && r.body.run_id) {
      await waitRun(r.body.run_id);
      await (await fetch(`${stack.baseUrl}/api/v1/runs/${r.body.run_id}`, { headers })).json();
    }
    return { ms: performance.now() - t0, engine: r.body.engine_decision?.engine, estimatedBytes: Number(r.body.engine_decision?.estimated_input_bytes) };
  };
  /**
   * The interactive engines on one query: one warm-up each, then `reps` rounds in which every
   * engine runs once, in an order rotated per round, so all of them see the same machine load
   * (other work on a shared 2-core machine moves single timings by tens of percent).
   */
  const timedTogether = async (sql: string, engines: readonly string[]): Promise<Timed[]> => {
    const first: Timed[] = [];
    for (const engine of engines) first.push(await once(sql, engine));
    const runs: number[][] = engines.map(() => []);
    for (let round = 0; round < reps; round++) {
      for (let k = 0; k < engines.length; k++) {
        const i = (round + k) % engines.length;
        if (first[i]?.refused) continue;
        runs[i]?.push((await once(sql, engines[i] as string)).ms as number);
      }
    }
    return first.map((t, i) => (t.refused ? t : { ...t, ms: median(runs[i] as number[]) }));
  };
  /** Spark's time for the query's rows: one write run, submission to COMPLETE. */
  const sparkTime = async (sql: string, nr: number): Promise<Timed> => {
    const t0 = performance.now();
    const r = await post({ query: sql, engine: 'spark', destination: `bench_regret.q${nr}` });
    if (r.status === 400) return { refused: String(r.body.error) };
    if (r.status !== 200 || !r.body.run_id) throw new Error(`spark: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
    try {
      await waitRun(r.body.run_id);
    } catch (err) {
      // DuckDB's TPC-H text is DuckDB SQL (`count_star()`, …); Spark refusing it is a figure too.
      return { refused: `Spark failed the query: ${(err as Error).message.split(': ').slice(1).join(': ').slice(0, 160)}` };
    }
    return { ms: performance.now() - t0, engine: 'spark' };
  };

  try {
    await ensureTpch(stack, home, scale);
    const queries = await tpchQueries();
    const cell = (t: Timed): string => (t.ms === undefined ? 'n/a'.padStart(9) : t.ms.toFixed(0).padStart(9));
    console.log(`interactive limit ${formatBytes(INTERACTIVE_LIMIT_BYTES)}\n`);
    console.log(` query   input      auto→     auto ms  duckdb ms  polars ms${values.spark ? '   spark ms' : ''}  regret  duckdb MiB/s`);
    const regrets: number[] = [];
    const refusals = new Map<string, string[]>();
    const rates: number[] = [];
    for (const q of queries) {
      const [auto, duck, polars] = (await timedTogether(q.sql, ['auto', 'duckdb', 'polars'])) as [Timed, Timed, Timed];
      const spark = values.spark ? await sparkTime(q.sql, q.nr) : { refused: 'not timed (run with --spark)' };
      for (const [name, t] of [['polars', polars], ['spark', spark]] as const) {
        if (t.refused) refusals.set(name, [...(refusals.get(name) ?? []), `Q${q.nr}: ${t.refused}`]);
      }
      const candidates = [duck, polars, spark].map((t) => t.ms).filter((ms): ms is number => ms !== undefined);
      const fastest = Math.min(...candidates);
      const regret = (auto.ms as number) / fastest;
      regrets.push(regret);
      const bytes = auto.estimatedBytes ?? 0;
      const rate = bytes / (1024 * 1024) / ((duck.ms as number) / 1000);
      rates.push(rate);
      console.log(
        ` Q${String(q.nr).padStart(2, '0')}  ${formatBytes(bytes).padStart(9)}  ${String(auto.engine).padEnd(7)} ${cell(auto)}  ${cell(duck)}  ${cell(polars)}${values.spark ? `  ${cell(spark)}` : ''}  ${regret.toFixed(2).padStart(6)}  ${rate.toFixed(0).padStart(12)}`,
      );
    }
    const geomean = Math.exp(regrets.reduce((s, r) => s + Math.log(r), 0) / regrets.length);
    console.log(`\nSF ${scale}: geometric mean regret ${geomean.toFixed(3)} (target ≤ 1.15), max ${Math.max(...regrets).toFixed(2)} (target ≤ 2.0)`);
    console.log(`SF ${scale}: DuckDB scan rate over the estimated input, slowest query: ${Math.min(...rates).toFixed(1)} MiB/s, median ${median(rates).toFixed(1)} MiB/s`);
    for (const [engine, why] of refusals) console.log(`${engine} not timed on ${why.length} queries, e.g. ${why[0]}`);
    console.log(`machine: before ${loadBefore}; after ${machine()}`);
  } finally {
    await stack.stop();
  }
};

/** Terciles of the estimated inputs: the limits that put a third of the queries on each engine. */
const terciles = (estimates: readonly number[]): [number, number] => {
  const sorted = [...estimates].sort((a, b) => a - b);
  return [sorted[Math.floor(sorted.length / 3) - 1] as number, sorted[Math.floor((2 * sorted.length) / 3) - 1] as number];
};

/** The engines pinned on one stack: a warm-up each, then `reps` rounds in a rotated order; medians. */
const pinnedTogether = async (stack: StackProcess, sql: string, engines: readonly string[]): Promise<Timed[]> => {
  const first: Timed[] = [];
  for (const engine of engines) first.push(await routedRead(stack, { query: sql, engine }));
  const runs: number[][] = engines.map(() => []);
  for (let round = 0; round < reps; round++) {
    for (let k = 0; k < engines.length; k++) {
      const i = (round + k) % engines.length;
      if (first[i]?.refused) continue;
      const t = await routedRead(stack, { query: sql, engine: engines[i] as string });
      if (t.ms !== undefined) runs[i]?.push(t.ms);
    }
  }
  return first.map((t, i) => (t.refused ? t : { ...t, ms: median(runs[i] as number[]) }));
};

/** `--boundaries`: auto with lowered limits against every engine pinned (see the header). */
const boundaries = async (): Promise<void> => {
  mkdirSync(home, { recursive: true });
  // The text every engine reads (DuckDB's own spellings put back), so a refusal is the engine's
  // capability, not the dialect of the text.
  const queries = await portableTpchQueries();
  const ms = (t: Timed | undefined): string => (t?.ms === undefined ? 'n/a'.padStart(8) : t.ms.toFixed(0).padStart(8));
  console.log(`routing regret near the boundaries, TPC-H SF ${scale}, median of ${reps} runs after a warm-up (Spark: one run); request → rows in hand`);
  const pinned = new Map<number, Timed[]>();
  const estimates = new Map<number, number>();
  const common = { LAKELINE_DEMO_DATA: '0', LAKELINE_LOG_LEVEL: 'warn' };

  console.log(`phase 1, the product's table (DuckDB, polars, bloom pinned); ${machine()}`);
  const product = await startStackProcess(home, 0, common);
  try {
    await ensureTpch(product, home, scale);
    for (const q of queries) {
      const explained = await fetch(`${product.baseUrl}/api/v1/query`, {
        method: 'POST',
        headers: { authorization: `Bearer ${product.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: q.sql, explain: true }),
      });
      estimates.set(q.nr, Number(((await explained.json()) as { engine_decision: { estimated_input_bytes: string } }).engine_decision.estimated_input_bytes));
      pinned.set(q.nr, await pinnedTogether(product, q.sql, ['duckdb', 'polars', 'bloom']));
    }
  } finally {
    await product.stop();
  }

  console.log(`phase 2, every read a batch read (Spark pinned, one run each); ${machine()}`);
  const batchOnly = await startStackProcess(home, 0, { ...common, LAKELINE_ROUTING_INTERACTIVE_LIMIT_BYTES: '1', LAKELINE_ROUTING_BLOOM_LIMIT_BYTES: '1' });
  try {
    for (const q of queries) pinned.set(q.nr, [...(pinned.get(q.nr) ?? []), await routedRead(batchOnly, { query: q.sql, engine: 'spark' })]);
  } finally {
    await batchOnly.stop();
  }

  const [interactiveLimit, bloomLimit] = terciles([...estimates.values()]);
  console.log(`phase 3, auto with the interactive limit at ${formatBytes(interactiveLimit)} (${interactiveLimit} bytes) and the bloom limit at ${formatBytes(bloomLimit)} (${bloomLimit} bytes); ${machine()}`);
  const lowered = await startStackProcess(home, 0, { ...common, LAKELINE_ROUTING_INTERACTIVE_LIMIT_BYTES: String(interactiveLimit), LAKELINE_ROUTING_BLOOM_LIMIT_BYTES: String(bloomLimit) });
  const regrets: number[] = [];
  const inModeRegrets: number[] = [];
  const picks = new Map<string, number>();
  try {
    console.log('\n query   input      auto→    auto ms  duckdb ms  polars ms  bloom ms  spark ms  best    regret  in mode');
    for (const q of queries) {
      const first = await routedRead(lowered, { query: q.sql, engine: 'auto' });
      let auto: Timed = first;
      // A Spark run is a new JVM each time: its one run is its figure, as in phase 2.
      if (first.ms !== undefined && first.engine !== 'spark') auto = (await pinnedTogether(lowered, q.sql, ['auto']))[0] as Timed;
      const [duck, polars, bloom, spark] = pinned.get(q.nr) as [Timed, Timed, Timed, Timed];
      const candidates = [['duckdb', duck], ['polars', polars], ['bloom', bloom], ['spark', spark]] as const;
      const fastest = (among: readonly (readonly [string, Timed])[]) => among.filter(([, t]) => t.ms !== undefined).sort((a, b) => (a[1].ms as number) - (b[1].ms as number))[0];
      const best = fastest(candidates);
      const regret = auto.ms !== undefined && best ? auto.ms / (best[1].ms as number) : Number.NaN;
      if (Number.isFinite(regret)) regrets.push(regret);
      const batch = first.engine === 'bloom' || first.engine === 'spark';
      const bestInMode = fastest(candidates.filter(([engine]) => (batch ? engine === 'bloom' || engine === 'spark' : engine === 'duckdb' || engine === 'polars')));
      const regretInMode = auto.ms !== undefined && bestInMode ? auto.ms / (bestInMode[1].ms as number) : Number.NaN;
      if (Number.isFinite(regretInMode)) inModeRegrets.push(regretInMode);
      picks.set(String(first.engine), (picks.get(String(first.engine)) ?? 0) + 1);
      console.log(
        ` Q${String(q.nr).padStart(2, '0')}  ${formatBytes(estimates.get(q.nr) ?? 0).padStart(9)}  ${String(first.engine ?? 'refused').padEnd(7)} ${ms(auto)}  ${ms(duck)}  ${ms(polars)}  ${ms(bloom)}  ${ms(spark)}  ${String(best?.[0] ?? '—').padEnd(6)}  ${Number.isFinite(regret) ? regret.toFixed(2).padStart(6) : 'n/a'.padStart(6)}  ${Number.isFinite(regretInMode) ? regretInMode.toFixed(2).padStart(7) : 'n/a'.padStart(7)}${auto.refused ? `  auto refused: ${auto.refused}` : ''}`,
      );
    }
  } finally {
    await lowered.stop();
  }
  const geomean = (xs: readonly number[]) => Math.exp(xs.reduce((sum, r) => sum + Math.log(r), 0) / xs.length);
  console.log(`\nSF ${scale}, boundaries: auto picked ${[...picks].map(([e, n]) => `${e} ${n}`).join(', ')}`);
  console.log(`  regret over the fastest engine: geometric mean ${geomean(regrets).toFixed(3)} (target ≤ 1.15), max ${Math.max(...regrets).toFixed(2)} (target ≤ 2.0) over ${regrets.length} queries`);
  console.log(`  regret over the fastest engine of auto's mode: geometric mean ${geomean(inModeRegrets).toFixed(3)}, max ${Math.max(...inModeRegrets).toFixed(2)} over ${inModeRegrets.length} queries`);
  for (const [k, engine] of (['duckdb', 'polars', 'bloom', 'spark'] as const).entries()) {
    const refused = [...pinned].filter(([, t]) => t[k]?.refused).map(([nr, t]) => `Q${nr}: ${String(t[k]?.refused).slice(0, 160)}`);
    if (refused.length > 0) console.log(`${engine} did not run ${refused.length} queries, e.g. ${refused[0]}`);
  }
  console.log(`machine after: ${machine()}`);
};

requireExtensions();
await (values.boundaries ? boundaries() : main());
