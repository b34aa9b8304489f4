/**
 * Bloom benchmark: TPC-H on the local bloom engine (Trino) against DuckDB and managed Spark on the
 * same Iceberg tables, the figures behind the routing table's bloom row.
 *
 *   npx tsx bench/bloom.ts [--scale 1] [--reps 1] [--queries 1-22] [--spark-queries 1,3,18] [--heap-mb 4096] [--home DIR]
 *
 * Starts the local stack (`local/main.ts`) on the home of `bench/tpch-duckdb.ts` (default
 * `.lakeline/bench/sf<scale>`, kept between runs; it must hold TPC-H at the scale — run that bench
 * first), and a Trino server of its own on the same catalog file and warehouse (the bloom engine's
 * adapter, `TrinoBloomEngine.query`, with the heap given here). Each query runs the same text
 * (`bench/tpch-queries.ts`, portable between DuckDB and Trino): DuckDB through the legacy endpoint
 * (the Pro plan's 2-vCPU sandbox), bloom in-process, Spark through `POST /api/v2/spark/query`
 * (local[2], both cores) for the few queries named by --spark-queries. Bloom's rows are compared
 * with DuckDB's. Figures: Trino's start-up, each query's wall time per engine (median of reps after
 * one warm-up, Spark without warm-up: each Spark run is a new JVM), the total, and the machine's
 * load before and after (other work on the two cores skews every figure).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { TrinoBloomEngine } from '#adapters/trino/bloom-engine';
import { findTrinoJava } from '#adapters/trino/java';
import { LocalTrinoServer } from '#adapters/trino/server';
import { TRINO_VERSION } from '#composition/config';
import { analyzeSql } from '#domain/sql/analyze';
import { REPO_ROOT, startStackProcess, type StackProcess } from '../test/helpers/local-stack-process.ts';
import { callStack, machine, quantile } from './bench-util.ts';
import { portableTpchQueries } from './tpch-queries.ts';

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '1' },
    reps: { type: 'string', default: '1' },
    queries: { type: 'string', default: '1-22' },
    'spark-queries': { type: 'string', default: '1,3,18' },
    'heap-mb': { type: 'string', default: '4096' },
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

type Json = Record<string, unknown>;

const call = (stack: StackProcess, method: string, route: string, body?: unknown) => callStack<Json>(stack, method, route, body);

const median = (xs: number[]): number => quantile([...xs].sort((a, b) => a - b), 0.5);
const secs = (ms: number): string => (ms / 1000).toFixed(2);

/** Rows as comparable text: numbers (and decimals' text) rounded to the cent, sorted. */
const canonical = (rows: unknown[][]): string =>
  rows
    .map((r) => JSON.stringify(r.map((v) => (typeof v === 'number' || (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)) ? Math.round(Number(v) * 100) / 100 : v))))
    .sort()
    .join('\n');

const runDuckDB = async (stack: StackProcess, sql: string): Promise<{ ms: number; rows: unknown[][] }> => {
  const started = performance.now();
  const answer = await call(stack, 'POST', '/api/v1/warehouse/query', { query: sql });
  if (answer.status !== 200) throw new Error(`DuckDB answered ${answer.status} ${JSON.stringify(answer.body)}`);
  return { ms: performance.now() - started, rows: (answer.body.results as { rows: unknown[][] }).rows };
};

const runSpark = async (stack: StackProcess, nr: number, sql: string): Promise<{ totalMs: number; startupMs: number; queryMs: number }> => {
  const started = performance.now();
  const submitted = await call(stack, 'POST', '/api/v2/spark/query', {
    namespace: 'bench',
    name: `bloom_tpch_q${nr}`,
    // A results table does not keep ORDER BY; Spark writes the rows, the order is irrelevant here.
    query: sql,
    output_table: `lakeline.bench.bloom_q${nr}`,
    driver_machine_type: 'spark.1.b',
    executor_machine_type: 'spark.2.b',
    executor_numbers: 1,
  });
  if (submitted.status !== 200) throw new Error(`Spark Q${nr}: submit answered ${submitted.status} ${JSON.stringify(submitted.body)}`);
  for (;;) {
    const run = await call(stack, 'GET', `/api/v1/runs/${String(submitted.body.run_id)}`);
    if (run.body.state === 'RUNNING') {
      await new Promise((resolve) => setTimeout(resolve, 200));
      continue;
    }
    if (run.body.state !== 'COMPLETE') throw new Error(`Spark Q${nr}: ${String(run.body.state)}: ${String(run.body.error)}`);
    const timings = run.body.timings as { startup_ms: number; query_ms: number };
    return { totalMs: performance.now() - started, startupMs: timings.startup_ms, queryMs: timings.query_ms };
  }
};

console.log(`bloom bench: TPC-H SF ${scale}, ${reps} rep(s), home ${home}; machine: ${machine()}`);
const stack = await startStackProcess(home, 0, { LAKELINE_DEMO_DATA: '0', LAKELINE_BLOOM: '0' });
const java = findTrinoJava();
if (!java) throw new Error('no JDK 24+ for Trino (set LAKELINE_TRINO_JAVA_HOME)');
const trinoStarted = performance.now();
const server = await LocalTrinoServer.start({
  installDir: path.join(REPO_ROOT, '.lakeline', 'trino', `trino-server-${TRINO_VERSION}`),
  javaHome: java,
  stateDir: path.join(home, 'trino-bench'),
  heapMb: Number(values['heap-mb']),
});
console.log(`trino ${server.version}: started in ${secs(performance.now() - trinoStarted)} s (heap ${values['heap-mb']} MB, 2 task threads)`);
try {
  const orgId = (JSON.parse(readFileSync(path.join(home, 'local.json'), 'utf8')) as { orgId: string }).orgId;
  const bloom = new TrinoBloomEngine(async () => server, { catalogFile: path.join(home, 'catalog.db'), warehouse: path.join(home, 'warehouse') }, server.version);
  const queries = new Map((await portableTpchQueries()).map((q) => [q.nr, q.sql]));
  const runBloom = async (sql: string): Promise<{ ms: number; rows: unknown[][]; scanned?: number }> => {
    const analysis = analyzeSql(sql, { dialect: 'trino', defaultCatalog: 'lakeline', resolveTable: (r) => (r.namespace === 'tpch' ? { catalog: 'lakeline', namespace: 'tpch', table: r.table } : undefined) });
    const started = performance.now();
    const answer = await bloom.query({ orgId, sql, tables: analysis.inputTables }, { timeoutMs: 600_000, maxRows: 100_000 });
    return { ms: performance.now() - started, rows: answer.results.rows, ...(answer.scannedBytes !== undefined ? { scanned: answer.scannedBytes } : {}) };
  };

  console.log('\nQ   duckdb_s  bloom_s  bloom/duckdb  bloom_cold_s  same_rows');
  let duckTotal = 0;
  let bloomTotal = 0;
  for (const nr of queryNrs) {
    const sql = queries.get(nr) as string;
    const cold = await runBloom(sql);
    await runDuckDB(stack, sql);
    const duckMs: number[] = [];
    const bloomMs: number[] = [];
    let duckRows: unknown[][] = [];
    for (let r = 0; r < reps; r++) {
      const d = await runDuckDB(stack, sql);
      duckMs.push(d.ms);
      duckRows = d.rows;
      bloomMs.push((await runBloom(sql)).ms);
    }
    const d = median(duckMs);
    const b = median(bloomMs);
    duckTotal += d;
    bloomTotal += b;
    const same = canonical(cold.rows) === canonical(duckRows);
    console.log(`${String(nr).padEnd(3)} ${secs(d).padStart(8)} ${secs(b).padStart(8)} ${(b / d).toFixed(1).padStart(12)} ${secs(cold.ms).padStart(13)}  ${same ? 'yes' : 'NO'}`);
  }
  console.log(`all ${secs(duckTotal).padStart(8)} ${secs(bloomTotal).padStart(8)} ${(bloomTotal / duckTotal).toFixed(1).padStart(12)}`);

  if (sparkNrs.length > 0) {
    console.log('\nQ   spark_total_s  spark_startup_s  spark_query_s  (local[2], output table)');
    for (const nr of sparkNrs) {
      const s = await runSpark(stack, nr, queries.get(nr) as string);
      console.log(`${String(nr).padEnd(3)} ${secs(s.totalMs).padStart(13)} ${secs(s.startupMs).padStart(16)} ${secs(s.queryMs).padStart(14)}`);
    }
  }
} finally {
  await server.stop();
  await stack.stop();
  console.log(`\nmachine after: ${machine()}`);
}
