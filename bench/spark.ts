/**
 * Managed Spark benchmark: TPC-H Q1, Q3 and Q18 through `POST /api/v2/spark/query` into output
 * tables, timed from submit to COMPLETE and split into Spark start-up (submit → Spark session ready)
 * and query time (session ready → result written), compared with DuckDB running the same query
 * through the legacy endpoint (`POST /api/v1/warehouse/query`, the plan's default sandbox).
 *
 *   npx tsx bench/spark.ts [--scale 1] [--reps 1] [--queries 1,3,18] [--home DIR]
 *
 * Starts the local stack (`local/main.ts`) in its own home (default `.lakeline/bench/spark-sf<scale>`,
 * kept between runs; a fresh home is loaded with the lake writer's `demo_load`, timed). Spark runs
 * with `driver spark.1.b` and one `spark.2.b` executor, which the local profile runs as `local[2]`
 * (both cores); DuckDB gets the Pro plan's default 2-vCPU sandbox. Every Spark output table is read
 * back through the legacy endpoint and compared with DuckDB's answer. The machine's load average
 * is printed before and after: other work on the same cores skews every figure.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SubprocessLakeWriter } from '#adapters/local/subprocess-lake-writer';
import { REPO_ROOT, startStackProcess, type StackProcess } from '../test/helpers/local-stack-process.ts';
import { callStack, machine } from './bench-util.ts';

const LINEITEM_ROWS_PER_SF = 6_001_215;

/** TPC-H queries (validation substitution parameters), tables qualified as `tpch.<table>`; standard SQL both engines run. */
const QUERIES: Readonly<Record<number, { sql: string; order: string }>> = {
  1: {
    sql: `SELECT l_returnflag, l_linestatus, sum(l_quantity) AS sum_qty, sum(l_extendedprice) AS sum_base_price,
       sum(l_extendedprice * (1 - l_discount)) AS sum_disc_price, sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge,
       avg(l_quantity) AS avg_qty, avg(l_extendedprice) AS avg_price, avg(l_discount) AS avg_disc, count(*) AS count_order
FROM tpch.lineitem
WHERE l_shipdate <= DATE '1998-09-02'
GROUP BY l_returnflag, l_linestatus`,
    order: 'ORDER BY l_returnflag, l_linestatus',
  },
  3: {
    sql: `SELECT l_orderkey, sum(l_extendedprice * (1 - l_discount)) AS revenue, o_orderdate, o_shippriority
FROM tpch.customer, tpch.orders, tpch.lineitem
WHERE c_mktsegment = 'BUILDING' AND c_custkey = o_custkey AND l_orderkey = o_orderkey
  AND o_orderdate < DATE '1995-03-15' AND l_shipdate > DATE '1995-03-15'
GROUP BY l_orderkey, o_orderdate, o_shippriority
ORDER BY revenue DESC, o_orderdate
LIMIT 10`,
    order: 'ORDER BY revenue DESC, o_orderdate, l_orderkey',
  },
  18: {
    sql: `SELECT c_name, c_custkey, o_orderkey, o_orderdate, o_totalprice, sum(l_quantity) AS sum_qty
FROM tpch.customer, tpch.orders, tpch.lineitem
WHERE o_orderkey IN (SELECT l_orderkey FROM tpch.lineitem GROUP BY l_orderkey HAVING sum(l_quantity) > 300)
  AND c_custkey = o_custkey AND o_orderkey = l_orderkey
GROUP BY c_name, c_custkey, o_orderkey, o_orderdate, o_totalprice
ORDER BY o_totalprice DESC, o_orderdate
LIMIT 100`,
    order: 'ORDER BY o_totalprice DESC, o_orderdate, o_orderkey',
  },
};

const { values } = parseArgs({ options: { scale: { type: 'string', default: '1' }, reps: { type: 'string', default: '1' }, queries: { type: 'string', default: '1,3,18' }, home: { type: 'string' } } });
const scale = Number(values.scale);
const reps = Number(values.reps);
const queryNrs = String(values.queries).split(',').map(Number);
for (const nr of queryNrs) if (!QUERIES[nr]) throw new Error(`--queries: no TPC-H query ${nr} here (have ${Object.keys(QUERIES).join(', ')})`);
const home = path.resolve(values.home ?? path.join(REPO_ROOT, '.lakeline', 'bench', `spark-sf${scale}`));

type Json = Record<string, unknown>;

const call = (stack: StackProcess, method: string, route: string, body?: unknown) => callStack<Json>(stack, method, route, body);

const ensureData = async (stack: StackProcess): Promise<void> => {
  const table = await call(stack, 'GET', '/api/v1/tables/tpch/lineitem');
  const rows = table.status === 200 ? Number(table.body.record_count) : 0;
  const wanted = Math.round(LINEITEM_ROWS_PER_SF * scale);
  if (Math.abs(rows - wanted) / wanted < 0.01) {
    console.log(`data: TPC-H SF ${scale} already in ${home} (lineitem ${rows} rows)`);
    return;
  }
  console.log(`data: loading TPC-H SF ${scale} with the lake writer's demo_load into ${home} …`);
  const started = performance.now();
  const writer = new SubprocessLakeWriter(path.join(REPO_ROOT, '.lakeline', 'venv', 'bin', 'python'), REPO_ROOT, home);
  await writer.demoLoad(stack.orgId, scale, 'tpch');
  console.log(`data: loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
};

interface SparkFigures {
  readonly totalMs: number;
  readonly startupMs: number;
  readonly queryMs: number;
  readonly rows: number;
}

const runSpark = async (stack: StackProcess, nr: number, rep: number): Promise<SparkFigures> => {
  const started = performance.now();
  const submitted = await call(stack, 'POST', '/api/v2/spark/query', {
    namespace: 'bench',
    name: `tpch_q${nr}`,
    query: QUERIES[nr]?.sql,
    output_table: `lakeline.bench.q${nr}`,
    driver_machine_type: 'spark.1.b',
    executor_machine_type: 'spark.2.b',
    executor_numbers: 1,
  });
  if (submitted.status !== 200) throw new Error(`Q${nr}: submit answered ${submitted.status} ${JSON.stringify(submitted.body)}`);
  const runId = String(submitted.body.run_id);
  for (;;) {
    const run = await call(stack, 'GET', `/api/v1/runs/${runId}`);
    if (run.body.state === 'RUNNING') {
      await new Promise((resolve) => setTimeout(resolve, 200));
      continue;
    }
    const totalMs = performance.now() - started;
    if (run.body.state !== 'COMPLETE') throw new Error(`Q${nr} rep ${rep}: ${String(run.body.state)}: ${String(run.body.error)}`);
    const timings = run.body.timings as { startup_ms: number; query_ms: number };
    return { totalMs, startupMs: timings.startup_ms, queryMs: timings.query_ms, rows: Number(run.body.rows_written) };
  }
};

const runDuckDB = async (stack: StackProcess, sql: string): Promise<{ ms: number; rows: unknown[][] }> => {
  const started = performance.now();
  const answer = await call(stack, 'POST', '/api/v1/warehouse/query', { query: sql });
  if (answer.status !== 200) throw new Error(`DuckDB answered ${answer.status} ${JSON.stringify(answer.body)}`);
  return { ms: performance.now() - started, rows: (answer.body.results as { rows: unknown[][] }).rows };
};

/** Same rows, numbers compared to 6 significant digits (Spark averages decimals exactly, DuckDB in double). */
const sameRows = (a: unknown[][], b: unknown[][]): boolean =>
  a.length === b.length &&
  a.every((row, i) =>
    row.every((value, j) => {
      const other = (b[i] as unknown[])[j];
      const x = Number(value);
      const y = Number(other);
      if (Number.isFinite(x) && Number.isFinite(y) && value !== null && other !== null && typeof value !== 'boolean') return Math.abs(x - y) <= 1e-6 * Math.max(1, Math.abs(y));
      return String(value) === String(other);
    }),
  );

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? NaN;
const s = (ms: number): string => (ms / 1000).toFixed(1).padStart(7);

console.log(`machine before: ${machine()}`);
const stack = await startStackProcess(home, 0, { LAKELINE_LOG_LEVEL: 'warn' });
try {
  await ensureData(stack);
  console.log(`Spark: driver spark.1.b + 1 × spark.2.b (local[2]); DuckDB: legacy endpoint; SF ${scale}; ${reps} rep(s), medians`);
  console.log('query   spark total  startup    query   rows   duckdb   spark/duckdb  same rows');
  for (const nr of queryNrs) {
    const spark: SparkFigures[] = [];
    const duck: number[] = [];
    let rowsMatch = true;
    for (let rep = 0; rep < reps; rep++) {
      spark.push(await runSpark(stack, nr, rep));
      const own = await runDuckDB(stack, `${QUERIES[nr]?.sql}`);
      duck.push(own.ms);
      const written = await runDuckDB(stack, `SELECT * FROM lakeline.bench.q${nr} ${QUERIES[nr]?.order}`);
      const reference = await runDuckDB(stack, `SELECT * FROM (${QUERIES[nr]?.sql}) AS q ${QUERIES[nr]?.order}`);
      rowsMatch &&= sameRows(written.rows, reference.rows);
    }
    const total = median(spark.map((f) => f.totalMs));
    const duckdb = median(duck);
    console.log(
      `Q${String(nr).padEnd(5)} ${s(total)} s ${s(median(spark.map((f) => f.startupMs)))} s ${s(median(spark.map((f) => f.queryMs)))} s ${String(spark[0]?.rows ?? 0).padStart(6)} ${s(duckdb)} s ${(total / duckdb).toFixed(1).padStart(10)}×  ${rowsMatch ? 'yes' : 'NO'}`,
    );
  }
} finally {
  await stack.stop();
  console.log(`machine after:  ${machine()}`);
}
