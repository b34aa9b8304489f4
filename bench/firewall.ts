/**
 * How long the SQL firewall takes to analyze a query: the 22 TPC-H queries in each engine's
 * dialect, warm (the parser's WebAssembly compiled, the JIT warmed), median of 21 runs per query.
 *
 *   npx tsx bench/firewall.ts
 *
 * The firewall runs on every query of every engine before anything else, so its cost is a fixed
 * part of every request's overhead (the legacy endpoint's target is ≤ 30 ms p50 in all). Beside it,
 * for scale, DuckDB's own parse of the same text (`json_serialize_sql`, in-memory, warm): the engine
 * parses every statement again after the firewall, and that time is part of the engine's, not the
 * firewall's. No target: the figures say what the firewall adds; nothing holds them in a test.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { analyzeSql } from '#domain/sql/analyze';
import type { SqlDialect } from '#domain/sql/types';
import { orgOptions } from '../test/unit/domain/sql/org-catalog.ts';
import { TPCH_QUERIES } from '../test/unit/domain/sql/tpch-queries.ts';
import { machine } from './bench-util.ts';

const RUNS = 21;

const print = (label: string, medians: readonly number[]): void => {
  const mean = medians.reduce((a, b) => a + b, 0) / medians.length;
  console.log(`  ${label.padEnd(20)} mean ${mean.toFixed(2)} ms, max ${Math.max(...medians).toFixed(2)} ms  (per query: ${medians.map((m) => m.toFixed(2)).join(' ')})`);
};

console.log(`firewall: TPC-H analysis time, median of ${RUNS} warm runs per query (${machine()})`);
for (const dialect of ['duckdb', 'spark', 'trino', 'polars'] as SqlDialect[]) {
  for (const query of TPCH_QUERIES) for (let i = 0; i < 10; i++) analyzeSql(query.sql, orgOptions(dialect));
  const medians = TPCH_QUERIES.map((query) => {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      analyzeSql(query.sql, orgOptions(dialect));
      times.push(performance.now() - start);
    }
    return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)] as number;
  });
  print(`firewall, ${dialect}`, medians);
}

const duckdb = await (await DuckDBInstance.create(':memory:')).connect();
const parse = async (sql: string) => (await duckdb.runAndReadAll('SELECT json_serialize_sql($sql::VARCHAR)', { sql })).getRows();
for (const query of TPCH_QUERIES) for (let i = 0; i < 10; i++) await parse(query.sql);
const parseMedians: number[] = [];
for (const query of TPCH_QUERIES) {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await parse(query.sql);
    times.push(performance.now() - start);
  }
  parseMedians.push(times.sort((a, b) => a - b)[Math.floor(RUNS / 2)] as number);
}
print("DuckDB's own parse", parseMedians);
console.log(`machine after: ${machine()}`);
