/**
 * Small writes on Spark (issue 30, ADR 0059): submit → COMPLETE of a routed write through
 * `POST /api/v1/query`, on the warm driver against the per-run path (a JVM per run, as before).
 *
 *   npx tsx bench/small-writes.ts [--reps 5] [--big-reps 1]
 *
 * Two local stacks, one after the other (never both at once), each on a fresh home with the demo
 * TPC-H SF 0.01: first with the warm driver off (`LAKELINE_SPARK_WARM_MAX_INPUT_BYTES=0`: every
 * run starts its own JVM, the path before), then with it on, its limit set between the small
 * writes' input (orders) and the big write's (lineitem), so the big write takes the per-run path in
 * both stacks and shows it is not slower. Each stack runs one warm-up write first (on the warm
 * stack it starts the driver: its JVM's start is printed on its own), then `reps` small writes of
 * each size and `big-reps` big ones, each polled to COMPLETE every 50 ms. Prints p50/p95 per path.
 */
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startStackProcess, tempHome, type StackProcess } from '../test/helpers/local-stack-process.ts';
import { callStack, machine, quantile } from './bench-util.ts';

const { values } = parseArgs({ options: { reps: { type: 'string', default: '5' }, 'big-reps': { type: 'string', default: '1' } } });
const reps = Number(values.reps);
const bigReps = Number(values['big-reps']);

type Json = Record<string, unknown>;
const WRITES = {
  'five rows': (tag: string) => `CREATE TABLE bench_small.five_${tag} AS SELECT n_nationkey, n_name FROM tpch.nation WHERE n_nationkey < 5`,
  '10,000 rows': (tag: string) => `CREATE TABLE bench_small.ten_k_${tag} AS SELECT * FROM tpch.orders LIMIT 10000`,
  'big (lineitem, 60,175 rows)': (tag: string) => `CREATE TABLE bench_small.big_${tag} AS SELECT * FROM tpch.lineitem`,
} as const;
type WriteName = keyof typeof WRITES;

/** Submits a write and polls it to its end; resolves with submit → COMPLETE in ms. */
const timeWrite = async (stack: StackProcess, sql: string): Promise<number> => {
  const started = performance.now();
  const answer = await callStack<Json>(stack, 'POST', '/api/v1/query', { query: sql });
  if (answer.status !== 200 || answer.body.state !== 'SUBMITTED') throw new Error(`expected SUBMITTED, got ${answer.status} ${JSON.stringify(answer.body)}`);
  const runId = String(answer.body.run_id);
  for (;;) {
    const run = await callStack<Json>(stack, 'GET', `/api/v1/runs/${runId}`);
    if (run.body.state === 'COMPLETE') return performance.now() - started;
    if (run.body.state === 'FAIL' || run.body.state === 'ABORT') throw new Error(`run ${runId} ended ${String(run.body.state)}: ${JSON.stringify(run.body)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

const tableBytes = async (stack: StackProcess, table: string): Promise<number> => Number((await callStack<{ size_bytes: string }>(stack, 'GET', `/api/v1/tables/tpch/${table}`)).body.size_bytes);

const summary = (ms: readonly number[]): string => {
  if (ms.length === 0) return '—';
  const sorted = [...ms].sort((a, b) => a - b);
  return `p50 ${(quantile(sorted, 0.5) / 1000).toFixed(2)} s, p95 ${(quantile(sorted, 0.95) / 1000).toFixed(2)} s (n=${sorted.length})`;
};

/** One stack: a warm-up write, then the small writes alternating sizes, then the big ones. */
const measure = async (label: string, env: Record<string, string>): Promise<{ warmUp: number; figures: Record<WriteName, number[]> }> => {
  const home = tempHome(`bench-small-${label}`);
  const stack = await startStackProcess(home, 0, { LAKELINE_SPARK_MAX_CONCURRENT: '1', ...env });
  try {
    const warmUp = await timeWrite(stack, WRITES['five rows']('warmup'));
    console.log(`  ${label}: warm-up write ${(warmUp / 1000).toFixed(2)} s; ${machine()}`);
    const figures: Record<WriteName, number[]> = { 'five rows': [], '10,000 rows': [], 'big (lineitem, 60,175 rows)': [] };
    for (let i = 0; i < reps; i++) {
      figures['five rows'].push(await timeWrite(stack, WRITES['five rows'](`r${i}`)));
      figures['10,000 rows'].push(await timeWrite(stack, WRITES['10,000 rows'](`r${i}`)));
    }
    for (let i = 0; i < bigReps; i++) figures['big (lineitem, 60,175 rows)'].push(await timeWrite(stack, WRITES['big (lineitem, 60,175 rows)'](`r${i}`)));
    return { warmUp, figures };
  } finally {
    await stack.stop();
    rmSync(home, { recursive: true, force: true });
  }
};

const main = async (): Promise<void> => {
  console.log(`small writes on Spark, ${reps} per size and path, ${bigReps} big; ${machine()}`);
  // The limit between the inputs: read from a stack's demo data (the same on both).
  const probeHome = tempHome('bench-small-probe');
  const probe = await startStackProcess(probeHome, 0, { LAKELINE_SPARK_WARM_MAX_INPUT_BYTES: '0' });
  const [orders, lineitem] = await Promise.all([tableBytes(probe, 'orders'), tableBytes(probe, 'lineitem')]);
  await probe.stop();
  rmSync(probeHome, { recursive: true, force: true });
  if (!(orders < lineitem)) throw new Error(`orders (${orders} B) is not smaller than lineitem (${lineitem} B)`);
  const limit = Math.floor((orders + lineitem) / 2);
  console.log(`inputs: orders ${orders} B, lineitem ${lineitem} B; the warm stack's limit ${limit} B\n`);

  const perRun = await measure('per-run', { LAKELINE_SPARK_WARM_MAX_INPUT_BYTES: '0' });
  const warm = await measure('warm', { LAKELINE_SPARK_WARM_MAX_INPUT_BYTES: String(limit) });
  console.log('\nsubmit → COMPLETE');
  console.log(`${'write'.padEnd(30)}${'per-run JVM (before)'.padEnd(42)}warm driver (after; big: per-run)`);
  for (const name of Object.keys(WRITES) as WriteName[]) console.log(`${name.padEnd(30)}${summary(perRun.figures[name]).padEnd(42)}${summary(warm.figures[name])}`);
  console.log(`${'first write (warm-up)'.padEnd(30)}${`${(perRun.warmUp / 1000).toFixed(2)} s`.padEnd(42)}${(warm.warmUp / 1000).toFixed(2)} s (the warm driver's start)`);
  console.log(`\n${machine()}`);
};

await main();
process.exit(0);
