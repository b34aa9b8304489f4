/**
 * Bloom benchmark: TPC-H on the bloom engine (Trino locally) against DuckDB and Spark, every engine
 * measured the same way — through `POST /api/v1/query` of a local stack with the product's
 * settings, pinned to the engine, from the request to the rows in hand (`bench/routed-client.ts`):
 *
 *   npx tsx bench/bloom.ts [--scale 1] [--reps 3] [--queries 1-22] [--spark-queries 1,3,18] [--home DIR]
 *
 * - DuckDB answers in the request (the 2-vCPU / 4 GB sandbox of band `xs`): request → rows.
 * - bloom is a run: request → SUBMITTED → polled every 50 ms → COMPLETE → every page of rows
 *   (the stack's Trino with the product's 2 GB heap, `LAKELINE_TRINO_HEAP_MB`, 2 task threads).
 * - Spark is a batch read: the same request shape pinned to `spark` in a second stack on the same
 *   home whose interactive and bloom limits are set to 1 byte (a pinned Spark read within the
 *   interactive limit is refused, ADR 0020), so the run writes its rows to a results table that the
 *   poll then reads; every run starts a Spark JVM (`local[2]`, band `xs` sizing), as locally in
 *   the product.
 * Per query: one warm-up of each engine (bloom's first query, which starts Trino, is printed as
 * the cold figure), then `reps` rounds alternating which engine goes first; medians. Spark: one
 * run per query (each run is a new JVM). Rows of bloom and Spark are compared with DuckDB's.
 * Home: the one `bench/tpch-duckdb.ts` and `bench/routing-regret.ts` use (TPC-H loaded when missing).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT, startStackProcess } from '../test/helpers/local-stack-process.ts';
import { machine, quantile } from './bench-util.ts';
import { canonicalRows, ensureTpch, requireExtensions, routedRead, type RoutedTiming } from './routed-client.ts';
import { portableTpchQueries } from './tpch-queries.ts';

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '1' },
    reps: { type: 'string', default: '3' },
    queries: { type: 'string', default: '1-22' },
    'spark-queries': { type: 'string', default: '1,3,18' },
    home: { type: 'string' },
  },
});
const scale = Number(values.scale);
const reps = Number(values.reps);
const range = (spec: string): number[] =>
  spec.split(',').flatMap((part) => {
    const [a, b] = part.split('-').map(Number) as [number, number | undefined];
    return b === undefined ? [a] : Array.from({ length: b - a + 1 }, (_, i) => a + i);
  });
const queryNrs = values.queries === '' ? [] : range(String(values.queries));
const sparkNrs = values['spark-queries'] === '' ? [] : range(String(values['spark-queries']));
const home = path.resolve(values.home ?? path.join(REPO_ROOT, '.lakeline', 'bench', `sf${scale}`));

const median = (xs: number[]): number => quantile([...xs].sort((a, b) => a - b), 0.5);
const secs = (ms: number | undefined): string => (ms === undefined ? 'n/a' : (ms / 1000).toFixed(2));
const timed = (t: RoutedTiming, what: string): RoutedTiming & { ms: number } => {
  if (t.ms === undefined) throw new Error(`${what}: ${t.refused}`);
  return t as RoutedTiming & { ms: number };
};

requireExtensions();
mkdirSync(home, { recursive: true });
console.log(`bloom bench: TPC-H SF ${scale}, median of ${reps} rep(s) after a warm-up, every engine through POST /api/v1/query to rows in hand; home ${home}`);
console.log(`machine before: ${machine()}`);
const queries = new Map((await portableTpchQueries()).map((q) => [q.nr, q.sql]));
const duckRows = new Map<number, string>();

const stack = await startStackProcess(home, 0, { LAKELINE_DEMO_DATA: '0', LAKELINE_LOG_LEVEL: 'warn' });
try {
  await ensureTpch(stack, home, scale);
  const first = queries.get(queryNrs[0] ?? 1) as string;
  const cold = timed(await routedRead(stack, { query: first, engine: 'bloom' }), 'bloom cold');
  console.log(`bloom's first query on a just-started stack (starts Trino: server, catalog, JIT): ${secs(cold.ms)} s`);
  console.log('\nQ   duckdb_s  bloom_s  bloom/duckdb  same_rows');
  let duckTotal = 0;
  let bloomTotal = 0;
  for (const nr of queryNrs) {
    const sql = queries.get(nr) as string;
    const duckWarm = timed(await routedRead(stack, { query: sql, engine: 'duckdb' }), `DuckDB Q${nr}`);
    const bloomWarm = timed(await routedRead(stack, { query: sql, engine: 'bloom' }), `bloom Q${nr}`);
    const duck: number[] = [];
    const bloom: number[] = [];
    for (let r = 0; r < reps; r++) {
      const order = r % 2 === 0 ? (['duckdb', 'bloom'] as const) : (['bloom', 'duckdb'] as const);
      for (const engine of order) (engine === 'duckdb' ? duck : bloom).push(timed(await routedRead(stack, { query: sql, engine }), `${engine} Q${nr}`).ms);
    }
    const d = median(duck);
    const b = median(bloom);
    duckTotal += d;
    bloomTotal += b;
    duckRows.set(nr, canonicalRows(duckWarm.rows ?? []));
    const same = canonicalRows(bloomWarm.rows ?? []) === duckRows.get(nr);
    console.log(`${String(nr).padEnd(3)} ${secs(d).padStart(8)} ${secs(b).padStart(8)} ${(b / d).toFixed(1).padStart(12)}  ${same ? 'yes' : 'NO'}`);
  }
  console.log(`all ${secs(duckTotal).padStart(8)} ${secs(bloomTotal).padStart(8)} ${(bloomTotal / duckTotal).toFixed(1).padStart(12)}`);
  console.log(`machine after DuckDB and bloom: ${machine()}`);
} finally {
  await stack.stop();
}

if (sparkNrs.length > 0) {
  // Limits of 1 byte: every read is a batch read, and a pinned Spark read runs (no bloom band).
  const sparkStack = await startStackProcess(home, 0, {
    LAKELINE_DEMO_DATA: '0',
    LAKELINE_LOG_LEVEL: 'warn',
    LAKELINE_ROUTING_INTERACTIVE_LIMIT_BYTES: '1',
    LAKELINE_ROUTING_BLOOM_LIMIT_BYTES: '1',
  });
  try {
    console.log('\nQ   spark_s  (batch read: submit → COMPLETE → rows, a new local[2] JVM per run)  same_rows');
    for (const nr of sparkNrs) {
      const s = await routedRead(sparkStack, { query: queries.get(nr) as string, engine: 'spark' });
      const same = s.rows && duckRows.has(nr) ? (canonicalRows(s.rows) === duckRows.get(nr) ? 'yes' : 'NO') : '—';
      console.log(`${String(nr).padEnd(3)} ${secs(s.ms).padStart(8)}  ${s.refused ?? ''}${' '.repeat(58)}${same}`);
    }
  } finally {
    await sparkStack.stop();
  }
}
console.log(`\nmachine after: ${machine()}`);
