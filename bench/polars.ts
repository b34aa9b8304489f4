/**
 * The polars endpoint against bare polars on the same Iceberg files.
 *
 *   npx tsx bench/polars.ts [--scale 0.01|0.1|1] [--reps N] [--vcpus 2|4|8|16] [--home DIR]
 *
 * Starts the local stack (`local/main.ts`) in its own home (default `.lakeline/bench/polars-sf<scale>`,
 * kept between runs) and loads TPC-H at the scale with the lake writer's `demo_load` when the home
 * does not have it yet. Then:
 *
 * 1. Warm vs cold for a trivial query (`SELECT count(*) FROM nation`): cold is a fresh sandbox
 *    worker (bubblewrap, Python, the polars import, the first run: a new pool per sample, in this
 *    process); warm is `POST /api/v1/warehouse/polars` on the stack's warm pool. The overhead is
 *    warm p50 minus bare polars p50 (one warm Python process, `SQLContext` over fresh
 *    `scan_iceberg`s of the same metadata files per run, the same thread count); target ≤ 50 ms.
 * 2. TPC-H Q1, Q3, Q6 and Q18 (polars SQL, explicit joins) through the endpoint (tier `--vcpus`,
 *    default 2; its memory limit is 2 GiB per vCPU, and Q18 at SF 1 needs more than the 2-vCPU
 *    tier's 4 GiB) and bare, one warm-up then `reps` runs per side; medians compared, answers
 *    checked for equal row counts.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BwrapPolarsPool } from '#adapters/local/polars-pool';
import { SqliteCatalog } from '#adapters/local/sqlite-catalog';
import { SubprocessLakeWriter } from '#adapters/local/subprocess-lake-writer';
import { REPO_ROOT, startStackProcess, type StackProcess } from '../test/helpers/local-stack-process.ts';
import { machine, quantile } from './bench-util.ts';

const TPCH_TABLES = ['region', 'nation', 'supplier', 'customer', 'part', 'partsupp', 'orders', 'lineitem'] as const;
const LINEITEM_ROWS_PER_SF = 6_001_215;
const PYTHON = path.join(REPO_ROOT, '.lakeline', 'venv', 'bin', 'python');
const TRIVIAL = 'SELECT count(*) AS n FROM nation';

/** TPC-H queries in the SQL polars reads (explicit joins, CAST for dates). */
const QUERIES: Record<string, string> = {
  Q1: `SELECT l_returnflag, l_linestatus, sum(l_quantity) AS sum_qty, sum(l_extendedprice) AS sum_base_price,
         sum(l_extendedprice * (1 - l_discount)) AS sum_disc_price, sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge,
         avg(l_quantity) AS avg_qty, avg(l_extendedprice) AS avg_price, avg(l_discount) AS avg_disc, count(*) AS count_order
       FROM lineitem WHERE l_shipdate <= CAST('1998-09-02' AS DATE)
       GROUP BY l_returnflag, l_linestatus ORDER BY l_returnflag, l_linestatus`,
  Q3: `SELECT l_orderkey, sum(l_extendedprice * (1 - l_discount)) AS revenue, o_orderdate, o_shippriority
       FROM customer JOIN orders ON c_custkey = o_custkey JOIN lineitem ON l_orderkey = o_orderkey
       WHERE c_mktsegment = 'BUILDING' AND o_orderdate < CAST('1995-03-15' AS DATE) AND l_shipdate > CAST('1995-03-15' AS DATE)
       GROUP BY l_orderkey, o_orderdate, o_shippriority ORDER BY revenue DESC, o_orderdate LIMIT 10`,
  Q6: `SELECT sum(l_extendedprice * l_discount) AS revenue FROM lineitem
       WHERE l_shipdate >= CAST('1994-01-01' AS DATE) AND l_shipdate < CAST('1995-01-01' AS DATE)
         AND l_discount >= 0.05 AND l_discount <= 0.07 AND l_quantity < 24`,
  Q18: `SELECT c_name, c_custkey, o_orderkey, o_orderdate, o_totalprice, sum(l_quantity) AS sum_qty
        FROM customer JOIN orders ON c_custkey = o_custkey JOIN lineitem ON o_orderkey = l_orderkey
        WHERE o_orderkey IN (SELECT l_orderkey FROM lineitem GROUP BY l_orderkey HAVING sum(l_quantity) > 300)
        GROUP BY c_name, c_custkey, o_orderkey, o_orderdate, o_totalprice ORDER BY o_totalprice DESC, o_orderdate LIMIT 100`,
};

/** Bare polars: one process, the same scans, each query timed `reps` times after a warm-up. */
const BARE = `
import json, sys, time
import polars as pl
spec = json.load(sys.stdin)
out = {}
for label, sql in spec["queries"].items():
    times, rows = [], 0
    for i in range(spec["reps"] + 1):
        t = time.perf_counter()
        # Fresh scans each time, as a request makes them (the table may have a new snapshot).
        frames = {name: pl.scan_iceberg(meta) for name, meta in spec["tables"].items()}
        df = pl.SQLContext(frames=frames).execute(sql, eager=False).collect()
        rows = df.height
        if i:
            times.append((time.perf_counter() - t) * 1000)
    out[label] = {"ms": times, "rows": rows}
print(json.dumps(out))
`;

const { values } = parseArgs({ options: { scale: { type: 'string', default: '0.01' }, reps: { type: 'string' }, vcpus: { type: 'string', default: '2' }, home: { type: 'string' } } });
const vcpus = Number(values.vcpus);
if (![2, 4, 8, 16].includes(vcpus)) throw new Error('--vcpus must be 2, 4, 8 or 16 (the Pro plan allows up to 16)');
const scale = Number(values.scale);
if (![0.01, 0.1, 1].includes(scale)) throw new Error('--scale must be 0.01, 0.1 or 1');
const reps = Number(values.reps ?? (scale >= 1 ? 3 : 5));
const home = path.resolve(values.home ?? path.join(REPO_ROOT, '.lakeline', 'bench', `polars-sf${scale}`));

const median = (xs: readonly number[]): number => quantile([...xs].sort((a, b) => a - b), 0.5);
const fmt = (ms: number): string => ms.toFixed(1).padStart(8);

const ensureData = async (stack: StackProcess): Promise<void> => {
  const answer = await fetch(`${stack.baseUrl}/api/v1/tables/tpch/lineitem`, { headers: { authorization: `Bearer ${stack.apiKey}` } });
  const rows = answer.ok ? Number(((await answer.json()) as { record_count: string }).record_count) : 0;
  const wanted = Math.round(LINEITEM_ROWS_PER_SF * scale);
  if (Math.abs(rows - wanted) / wanted < 0.01) return;
  console.log(`data: loading TPC-H SF ${scale} with the lake writer's demo_load into ${home} …`);
  const started = performance.now();
  await new SubprocessLakeWriter(PYTHON, REPO_ROOT, home).demoLoad(stack.orgId, scale, 'tpch');
  console.log(`data: loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
};

const main = async (): Promise<void> => {
  mkdirSync(home, { recursive: true });
  console.log(`polars endpoint vs bare polars, TPC-H SF ${scale}, ${reps} runs per query per side after one warm-up; ${machine()}`);
  const stack = await startStackProcess(home, 0, { LAKELINE_DEMO_DATA: '0', LAKELINE_LOG_LEVEL: 'warn' });
  try {
    await ensureData(stack);
    const tables = await new SqliteCatalog(path.join(home, 'catalog.db'), path.join(REPO_ROOT, '.lakeline', 'duckdb-extensions')).listTables(stack.orgId, 'tpch');
    const metadata = Object.fromEntries(tables.map((t) => [t.table, t.metadataLocation.replace(/^file:\/\//, '')]));
    const registrations = TPCH_TABLES.map((t) => `${t}=tpch.${t}`);
    const post = (query: string) =>
      fetch(`${stack.baseUrl}/api/v1/warehouse/polars`, {
        method: 'POST',
        headers: { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ mode: 'query', query, tables: registrations, vcpus: query === TRIVIAL ? 2 : vcpus }),
      });
    const endpoint = async (query: string): Promise<{ ms: number; rows: number }> => {
      let t0 = performance.now();
      // A keep-alive connection the server closed while the bare side ran fails once; POST is not
      // retried by fetch itself.
      const r = await post(query).catch(() => {
        t0 = performance.now();
        return post(query);
      });
      const body = await r.text();
      const ms = performance.now() - t0;
      if (r.status !== 200) throw new Error(`endpoint answered ${r.status}: ${body.slice(0, 300)}`);
      return { ms, rows: (JSON.parse(body) as { row_count: number }).row_count };
    };
    const threads = String(Math.min(2, os.availableParallelism()));
    const bare = (queries: Record<string, string>, n: number): Record<string, { ms: number[]; rows: number }> =>
      JSON.parse(
        execFileSync(PYTHON, ['-W', 'ignore', '-c', BARE], { input: JSON.stringify({ tables: metadata, queries, reps: n }), env: { ...process.env, POLARS_MAX_THREADS: threads }, maxBuffer: 1 << 26 }).toString(),
      ) as Record<string, { ms: number[]; rows: number }>;

    // 1. Trivial query: cold (fresh worker per sample), warm (the stack's pool), bare.
    const cold: number[] = [];
    for (let i = 0; i < 5; i++) {
      const pool = new BwrapPolarsPool({ pythonBin: PYTHON, codeDir: path.join(REPO_ROOT, 'functions', 'polars'), warehouse: path.join(home, 'warehouse'), stateDir: path.join(home, 'polars-bench') });
      const nation = tables.find((t) => t.table === 'nation');
      if (!nation) throw new Error('no tpch.nation');
      const location = JSON.parse(readFileSync(nation.metadataLocation.replace(/^file:\/\//, ''), 'utf8')) as { location: string };
      const t0 = performance.now();
      await pool.run({ orgId: stack.orgId, source: { kind: 'sql', sql: TRIVIAL }, tables: [{ names: ['nation'], metadataLocation: nation.metadataLocation, location: location.location }], catalog: 'lakeline', vcpus: 2, toFile: false, maxResultBytes: 1 << 20 });
      cold.push(performance.now() - t0);
      pool.close();
    }
    await endpoint(TRIVIAL);
    const warm: number[] = [];
    for (let i = 0; i < 30; i++) warm.push((await endpoint(TRIVIAL)).ms);
    const bareTrivial = bare({ trivial: TRIVIAL }, 30).trivial?.ms ?? [];
    console.log(`\ntrivial query (${TRIVIAL}), p50 / p90 ms:`);
    console.log(`  cold endpoint sandbox (new worker) ${fmt(median(cold))} / ${fmt(quantile([...cold].sort((a, b) => a - b), 0.9))}   (${cold.length} samples)`);
    console.log(`  warm endpoint (HTTP, warm pool)    ${fmt(median(warm))} / ${fmt(quantile([...warm].sort((a, b) => a - b), 0.9))}   (${warm.length} samples)`);
    console.log(`  bare polars (in-process)           ${fmt(median(bareTrivial))} / ${fmt(quantile([...bareTrivial].sort((a, b) => a - b), 0.9))}   (${bareTrivial.length} samples)`);
    console.log(`  warm overhead p50: ${(median(warm) - median(bareTrivial)).toFixed(1)} ms (target ≤ 50 ms)`);

    // 2. TPC-H queries.
    const bareTpch = bare(QUERIES, reps);
    console.log(`\nTPC-H SF ${scale}, endpoint tier ${vcpus} vCPUs: median ms  endpoint     bare   ratio   rows`);
    let totalEndpoint = 0;
    let totalBare = 0;
    for (const [label, sql] of Object.entries(QUERIES)) {
      const first = await endpoint(sql);
      const runs: number[] = [];
      for (let i = 0; i < reps; i++) runs.push((await endpoint(sql)).ms);
      const b = bareTpch[label];
      if (!b) throw new Error(`no bare figures for ${label}`);
      if (b.rows !== first.rows) throw new Error(`${label}: endpoint returned ${first.rows} rows, bare polars ${b.rows}`);
      const e = median(runs);
      const m = median(b.ms);
      totalEndpoint += e;
      totalBare += m;
      console.log(`  ${label.padEnd(4)}                 ${fmt(e)} ${fmt(m)} ${(e / m).toFixed(2).padStart(7)} ${String(first.rows).padStart(6)}`);
    }
    console.log(`  total                ${fmt(totalEndpoint)} ${fmt(totalBare)} ${(totalEndpoint / totalBare).toFixed(2).padStart(7)}`);
    console.log(`\n${machine()}`);
  } finally {
    await stack.stop();
  }
};

await main();
