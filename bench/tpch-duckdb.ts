/**
 * TPC-H through the legacy endpoint against a bare DuckDB on the same Iceberg files.
 *
 *   npx tsx bench/tpch-duckdb.ts --scale 0.01|0.1|1 [--reps N] [--home DIR]
 *
 * Starts the local stack (`local/main.ts`) in its own home (default `.lakeline/bench/sf<scale>`,
 * kept between runs), loads TPC-H at the scale with the lake writer's `demo_load` when the home
 * does not have it yet (and times that), then runs DuckDB's 22 TPC-H queries (`tpch_queries()`,
 * table names qualified as `tpch.<table>`) both through `POST /api/v1/warehouse/query` and in one
 * bare DuckDB instance in this process with the same views (`iceberg_scan` of the same metadata
 * files), the same threads and the same memory limit. Each query runs once to warm up and then
 * `reps` times on each side, alternating; the medians are compared per query and in total, and
 * every answer is checked against the bare one.
 *
 * Figures: per-query ratio endpoint/bare, the total ratio (target ≤ 1.10 at SF 1), and the fixed
 * overhead of a request (endpoint − bare for the same query, p50 over all runs; target ≤ 30 ms at
 * SF 0.01), with the machine's load before and after.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { hostCapacity } from '#adapters/duckdb/engine';
import { openDuckDB, sqlIdent, sqlString } from '#adapters/duckdb/instance';
import { jsonConverter } from '#adapters/duckdb/json-values';
import { SqliteCatalog } from '#adapters/local/sqlite-catalog';
import { SubprocessLakeWriter } from '#adapters/local/subprocess-lake-writer';
import { PLANS } from '#domain/core/plans';
import { engineSizing, sandboxOf } from '#domain/lake/sandbox';
import { REPO_ROOT, startStackProcess, type StackProcess } from '../test/helpers/local-stack-process.ts';
import { tpchQueries } from './tpch-queries.ts';
import { machine, quantile } from './bench-util.ts';

const LINEITEM_ROWS_PER_SF = 6_001_215;
const EXTENSIONS = path.join(REPO_ROOT, '.lakeline', 'duckdb-extensions');

const { values } = parseArgs({ options: { scale: { type: 'string', default: '0.01' }, reps: { type: 'string' }, home: { type: 'string' } } });
const scale = Number(values.scale);
if (![0.01, 0.1, 1].includes(scale)) throw new Error('--scale must be 0.01, 0.1 or 1');
const reps = Number(values.reps ?? (scale >= 1 ? 3 : 5));
const home = path.resolve(values.home ?? path.join(REPO_ROOT, '.lakeline', 'bench', `sf${scale}`));

/** Makes sure the home's demo org has TPC-H at the scale; loads it (timed) when it does not. */
const ensureData = async (stack: StackProcess): Promise<void> => {
  const answer = await fetch(`${stack.baseUrl}/api/v1/tables/tpch/lineitem`, { headers: { authorization: `Bearer ${stack.apiKey}` } });
  const rows = answer.ok ? Number(((await answer.json()) as { record_count: string }).record_count) : 0;
  const wanted = Math.round(LINEITEM_ROWS_PER_SF * scale);
  if (Math.abs(rows - wanted) / wanted < 0.01) {
    console.log(`data: TPC-H SF ${scale} already in ${home} (lineitem ${rows} rows)`);
    return;
  }
  console.log(`data: loading TPC-H SF ${scale} with the lake writer's demo_load into ${home} …`);
  const started = performance.now();
  const writer = new SubprocessLakeWriter(path.join(REPO_ROOT, '.lakeline', 'venv', 'bin', 'python'), REPO_ROOT, home);
  const tables = await writer.demoLoad(stack.orgId, scale, 'tpch');
  console.log(`data: loaded in ${((performance.now() - started) / 1000).toFixed(1)} s (${Object.entries(tables).map(([t, n]) => `${t} ${n}`).join(', ')})`);
};

/** The bare DuckDB: one instance, the same views over the same metadata files, the same sizing. */
const bareDuckDB = async (orgId: string): Promise<{ connection: DuckDBConnection; instance: DuckDBInstance; threads: number; memoryLimitMb: number }> => {
  const catalog = new SqliteCatalog(path.join(home, 'catalog.db'), EXTENSIONS);
  const tables = await catalog.listTables(orgId, 'tpch');
  const sizing = engineSizing(sandboxOf(PLANS.pro.defaultSandboxVcpus), hostCapacity());
  const { instance, connection } = await openDuckDB(EXTENSIONS, ['avro', 'iceberg']);
  await connection.run(
    [
      "ATTACH ':memory:' AS lakeline",
      'CREATE SCHEMA lakeline.tpch',
      ...tables.map((t) => `CREATE VIEW lakeline.tpch.${sqlIdent(t.table)} AS SELECT * FROM iceberg_scan('${sqlString(t.metadataLocation)}')`),
      'USE lakeline',
      `SET threads = ${sizing.threads}`,
      `SET memory_limit = '${sizing.memoryLimitMb}MiB'`,
    ].join(';\n'),
  );
  return { connection, instance, ...sizing };
};

const median = (xs: readonly number[]): number => quantile([...xs].sort((a, b) => a - b), 0.5);
const fmt = (ms: number): string => ms.toFixed(1).padStart(8);

const main = async (): Promise<void> => {
  mkdirSync(home, { recursive: true });
  const loadBefore = machine();
  console.log(`TPC-H SF ${scale}, ${reps} runs per query per side after one warm-up; ${loadBefore}`);
  const stack = await startStackProcess(home, 0, { LAKELINE_DEMO_DATA: '0', LAKELINE_LOG_LEVEL: 'warn' });
  try {
    await ensureData(stack);
    const queries = await tpchQueries();
    const bare = await bareDuckDB(stack.orgId);
    console.log(`bare DuckDB: threads ${bare.threads}, memory_limit ${bare.memoryLimitMb} MiB (the Pro plan's ${PLANS.pro.defaultSandboxVcpus}-vCPU sandbox on this host)\n`);

    const phases: Record<string, number[]> = {};
    const runEndpoint = async (sql: string) => {
      const t0 = performance.now();
      const r = await fetch(`${stack.baseUrl}/api/v1/warehouse/query`, {
        method: 'POST',
        headers: { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: sql }),
      });
      const body = await r.text();
      const ms = performance.now() - t0;
      if (r.status !== 200) throw new Error(`endpoint answered ${r.status}: ${body.slice(0, 300)}`);
      for (const part of (r.headers.get('server-timing') ?? '').split(',')) {
        const [name, dur] = part.trim().split(';dur=');
        if (name && dur) (phases[name] ??= []).push(Number(dur));
      }
      return { ms, rows: (JSON.parse(body) as { results: { rows: unknown[][] } }).results.rows };
    };
    const toJson = await jsonConverter();
    const runBare = async (sql: string) => {
      const t0 = performance.now();
      const reader = await bare.connection.runAndReadAll(sql);
      const ms = performance.now() - t0;
      return { ms, rows: reader.convertRows(toJson) as unknown[][] };
    };

    // The warm-up round checks every answer, and times the endpoint's first request per query: a
    // fresh sandbox (views bound, lock set). Later requests of the same query reuse it.
    const figures: { nr: number; bare: number[]; endpoint: number[]; firstEndpoint: number }[] = [];
    for (const q of queries) {
      const endpoint = await runEndpoint(q.sql);
      const reference = await runBare(q.sql);
      if (JSON.stringify(endpoint.rows) !== JSON.stringify(reference.rows)) throw new Error(`Q${q.nr}: the endpoint's rows differ from bare DuckDB's`);
      figures.push({ nr: q.nr, bare: [], endpoint: [], firstEndpoint: endpoint.ms });
    }
    for (let rep = 0; rep < reps; rep++) {
      for (const [i, q] of queries.entries()) {
        const f = figures[i] as (typeof figures)[number];
        // Alternate which side goes first, so neither always runs on the other's warm cache.
        if (rep % 2 === 0) {
          f.bare.push((await runBare(q.sql)).ms);
          f.endpoint.push((await runEndpoint(q.sql)).ms);
        } else {
          f.endpoint.push((await runEndpoint(q.sql)).ms);
          f.bare.push((await runBare(q.sql)).ms);
        }
      }
    }

    console.log(' query     bare ms  endpoint ms   ratio  overhead ms');
    let bareTotal = 0;
    let endpointTotal = 0;
    const overheads: number[] = [];
    for (const f of figures) {
      const b = median(f.bare);
      const e = median(f.endpoint);
      bareTotal += b;
      endpointTotal += e;
      f.endpoint.forEach((ms, i) => overheads.push(ms - (f.bare[i] as number)));
      console.log(` Q${String(f.nr).padStart(2, '0')}    ${fmt(b)}     ${fmt(e)}  ${(e / b).toFixed(2).padStart(6)}     ${fmt(e - b)}`);
    }
    const sorted = [...overheads].sort((a, b) => a - b);
    console.log(` total   ${fmt(bareTotal)}     ${fmt(endpointTotal)}  ${(endpointTotal / bareTotal).toFixed(2).padStart(6)}     ${fmt(endpointTotal - bareTotal)}`);
    console.log(`\nSF ${scale}: total ratio endpoint/bare ${(endpointTotal / bareTotal).toFixed(3)} (target ≤ 1.10 at SF 1)`);
    console.log(`SF ${scale}: overhead per request (endpoint − bare, ${overheads.length} runs): p50 ${quantile(sorted, 0.5).toFixed(1)} ms, p90 ${quantile(sorted, 0.9).toFixed(1)} ms (target p50 ≤ 30 ms at SF 0.01)`);
    const firstOverheads = figures.map((f) => f.firstEndpoint - median(f.bare)).sort((a, b) => a - b);
    console.log(`SF ${scale}: overhead of the first request per query (fresh sandbox), endpoint − bare median: p50 ${quantile(firstOverheads, 0.5).toFixed(1)} ms`);
    console.log(`server-timing phases, median ms: ${Object.entries(phases).map(([p, xs]) => `${p} ${median(xs).toFixed(1)}`).join(', ')}`);
    console.log(`machine: before ${loadBefore}; after ${machine()}`);
    bare.connection.closeSync();
    bare.instance.closeSync();
  } finally {
    await stack.stop();
  }
};

if (!existsSync(path.join(EXTENSIONS, 'iceberg.duckdb_extension'))) throw new Error('run `npm run setup` first: the DuckDB extension files are missing');
await main();
