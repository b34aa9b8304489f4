/**
 * How long the SQL firewall takes to analyze a query: the 22 TPC-H queries in each engine's
 * dialect, warm (the parser's WebAssembly compiled, the JIT warmed), median of 21 runs per query.
 *
 *   npx tsx bench/firewall.ts
 *
 * The firewall runs on every query of every engine before anything else, so its cost is a fixed
 * part of every request's overhead (the legacy endpoint's target is ≤ 30 ms p50 in all).
 */
import { analyzeSql } from '#domain/sql/analyze';
import type { SqlDialect } from '#domain/sql/types';
import { orgOptions } from '../test/unit/domain/sql/org-catalog.ts';
import { TPCH_QUERIES } from '../test/unit/domain/sql/tpch-queries.ts';
import { machine } from './bench-util.ts';

const RUNS = 21;

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
  const mean = medians.reduce((a, b) => a + b, 0) / medians.length;
  console.log(`  ${dialect.padEnd(7)} mean ${mean.toFixed(2)} ms, max ${Math.max(...medians).toFixed(2)} ms  (per query: ${medians.map((m) => m.toFixed(2)).join(' ')})`);
}
