/**
 * Routed submit benchmark: how long `POST /api/v1/query` takes to answer `SUBMITTED` for a routed
 * write (a CTAS that `auto` sends to Spark) and for a bloom read (pinned `engine: bloom`), in two
 * code versions side by side — the figures behind issue 13's plan split, where the Spark and bloom
 * submitters take the router's plan instead of fetching the org, listing the catalog, analysing the
 * SQL and loading the tables' metadata a second time.
 *
 *   npx tsx bench/routed-submit.ts [--baseline <git rev>] [--reps 10] [--keep]
 *
 * The baseline (default: 3acc1ec, the commit before the split) is extracted with `git archive`
 * into a directory under the system's temporary directory that borrows this checkout's
 * `node_modules` and `.lakeline` tools; "after" is this checkout. Both local stacks run at once
 * (`local/main.ts`, each on a fresh home with the demo TPC-H SF 0.01, one Spark slot, Trino with a
 * 1 GiB heap), and every repetition measures both, alternating which goes first, so load on the
 * shared machine weighs on both columns alike. Only the time to the `SUBMITTED` answer is
 * measured: each run is aborted right after its answer, so neither Spark's JVM nor Trino's statement
 * keeps working in the background. Each stack is warmed first (DuckDB, a Spark submit, a bloom read
 * run to its end, which starts Trino). Prints median, min and max per column, with the load average before and after.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT, startStackProcess, tempHome, type StackProcess } from '../test/helpers/local-stack-process.ts';
import { callStack, machine, quantile } from './bench-util.ts';

const { values } = parseArgs({ options: { baseline: { type: 'string', default: '3acc1ec' }, reps: { type: 'string', default: '10' }, keep: { type: 'boolean', default: false } } });
const reps = Number(values.reps);
const baselineRev = execFileSync('git', ['-C', REPO_ROOT, 'rev-parse', '--short', String(values.baseline)], { encoding: 'utf8' }).trim();

/** The stacks' settings: one Spark slot (its runs are aborted at once anyway), a smaller Trino. */
const STACK_ENV = { LAKELINE_SPARK_MAX_CONCURRENT: '1', LAKELINE_TRINO_HEAP_MB: '1024' };
const WRITE = (tag: string) => `CREATE TABLE bench_submit.t_${tag} AS SELECT n_nationkey, n_name FROM tpch.nation`;
const BLOOM_READ = 'SELECT n_regionkey, count(*) AS n FROM tpch.nation GROUP BY n_regionkey';
const ENDED = ['COMPLETE', 'FAIL', 'ABORT'];

type Json = Record<string, unknown>;

/** A source tree of `rev` that runs with this checkout's dependencies and tools. */
const baselineTree = (rev: string): string => {
  const dir = path.join(tmpdir(), 'lakeline-bench-routed-submit', rev);
  if (existsSync(path.join(dir, 'package.json'))) return dir;
  mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `git -C "${REPO_ROOT}" archive --format=tar ${rev} | tar -x -C "${dir}"`]);
  symlinkSync(realpathSync(path.join(REPO_ROOT, 'node_modules')), path.join(dir, 'node_modules'));
  mkdirSync(path.join(dir, '.lakeline'));
  for (const tool of ['venv', 'jars', 'trino', 'duckdb-extensions', 'lambda-runtime']) {
    const from = path.join(REPO_ROOT, '.lakeline', tool);
    if (existsSync(from)) symlinkSync(realpathSync(from), path.join(dir, '.lakeline', tool));
  }
  return dir;
};

const call = (stack: StackProcess, method: string, route: string, body?: unknown) => callStack<Json>(stack, method, route, body);

/**
 * Submits `body`, times the answer and checks it is SUBMITTED; then aborts the run (or, with
 * `abort` false, lets it finish) and waits for its end. Resolves with the milliseconds.
 */
const timeSubmit = async (stack: StackProcess, body: Json, abort = true): Promise<number> => {
  const started = performance.now();
  const answer = await call(stack, 'POST', '/api/v1/query', body);
  const ms = performance.now() - started;
  if (answer.status !== 200 || answer.body.state !== 'SUBMITTED') throw new Error(`expected SUBMITTED, got ${answer.status} ${JSON.stringify(answer.body)}`);
  await settle(stack, String(answer.body.run_id), abort);
  return ms;
};

/** Waits until a run has ended (aborting it first), so the next submit finds the machine quiet. */
const settle = async (stack: StackProcess, runId: string, abort: boolean): Promise<void> => {
  if (abort) await call(stack, 'POST', `/api/v1/runs/${runId}/abort`);
  const deadline = performance.now() + (abort ? 10_000 : 300_000);
  while (performance.now() < deadline) {
    const run = await call(stack, 'GET', `/api/v1/runs/${runId}`);
    if (ENDED.includes(String(run.body.state))) return;
    await new Promise((r) => setTimeout(r, abort ? 100 : 1_000));
  }
  throw new Error(`run ${runId} did not end`);
};

interface Column {
  readonly label: string;
  readonly stack: StackProcess;
  readonly write: number[];
  readonly bloom: number[];
}

const warm = async (column: Column): Promise<void> => {
  const read = await call(column.stack, 'POST', '/api/v1/query', { query: 'SELECT count(*) AS n FROM tpch.nation' });
  if (read.status !== 200) throw new Error(`${column.label}: warm-up read answered ${read.status} ${JSON.stringify(read.body)}`);
  await timeSubmit(column.stack, { query: WRITE('warm') });
  const started = performance.now();
  // The local bloom engine starts its statement (and Trino, the first time) after answering: this
  // first read runs to its end, so no Trino start-up overlaps a measured submit.
  await timeSubmit(column.stack, { query: BLOOM_READ, engine: 'bloom' }, false);
  console.log(`  ${column.label}: warm (the first bloom read, Trino's start included, ended after ${((performance.now() - started) / 1000).toFixed(1)} s)`);
};

const summary = (ms: readonly number[]): string => {
  const sorted = [...ms].sort((a, b) => a - b);
  return `${quantile(sorted, 0.5).toFixed(1).padStart(7)} ms (${(sorted[0] ?? NaN).toFixed(1)}–${(sorted[sorted.length - 1] ?? NaN).toFixed(1)})`;
};

const main = async (): Promise<void> => {
  console.log(`routed submit: before = ${baselineRev}, after = this checkout (${execFileSync('git', ['-C', REPO_ROOT, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()}${execFileSync('git', ['-C', REPO_ROOT, 'status', '--porcelain'], { encoding: 'utf8' }).trim() ? ', with uncommitted changes' : ''}), ${reps} repetitions`);
  console.log(`machine: ${machine()}`);
  const tree = baselineTree(baselineRev);
  const homes = [tempHome('bench-before'), tempHome('bench-after')];
  const stacks = await Promise.all([startStackProcess(homes[0] as string, 0, STACK_ENV, tree), startStackProcess(homes[1] as string, 0, STACK_ENV)]);
  const columns: Column[] = [
    { label: `before (${baselineRev})`, stack: stacks[0] as StackProcess, write: [], bloom: [] },
    { label: 'after (this checkout)', stack: stacks[1] as StackProcess, write: [], bloom: [] },
  ];
  try {
    for (const column of columns) await warm(column);
    const loadBefore = machine();
    for (let i = 0; i < reps; i++) {
      const order = i % 2 === 0 ? columns : [...columns].reverse();
      for (const column of order) column.write.push(await timeSubmit(column.stack, { query: WRITE(`r${i}`) }));
      for (const column of order) column.bloom.push(await timeSubmit(column.stack, { query: BLOOM_READ, engine: 'bloom' }));
    }
    console.log(`\ntime to the SUBMITTED answer, median (min–max) of ${reps}:`);
    console.log(`${''.padEnd(34)}${columns.map((c) => c.label.padEnd(34)).join('')}`);
    console.log(`${'routed write (CTAS → Spark)'.padEnd(34)}${columns.map((c) => summary(c.write).padEnd(34)).join('')}`);
    console.log(`${'bloom read (engine: bloom)'.padEnd(34)}${columns.map((c) => summary(c.bloom).padEnd(34)).join('')}`);
    console.log(`\nload before: ${loadBefore}\nload after:  ${machine()}`);
  } finally {
    await Promise.all(stacks.map((s) => s.stop()));
    for (const home of homes) rmSync(home, { recursive: true, force: true });
    if (!values.keep) rmSync(path.dirname(tree), { recursive: true, force: true });
  }
};

await main();
