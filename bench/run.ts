/**
 * `npm run bench -- <name> [arguments]`: runs `bench/<name>.ts` with its arguments (each benchmark
 * documents its own options in its header and in docs/benchmarks.md). Without a name it lists the
 * benchmarks. One at a time: they measure the machine, so two at once measure each other.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const HERE = import.meta.dirname;
/** Modules here that are helpers, not benchmarks. */
const NOT_BENCHMARKS = new Set(['run', 'bench-util', 'lineage-data', 'tpch-queries', 'store-meter']);

const benchmarks = readdirSync(HERE)
  .filter((file) => file.endsWith('.ts'))
  .map((file) => file.slice(0, -'.ts'.length))
  .filter((name) => !NOT_BENCHMARKS.has(name))
  .sort();

const [name, ...args] = process.argv.slice(2);
if (name === undefined || !benchmarks.includes(name)) {
  if (name !== undefined) console.error(`no benchmark named ${name}`);
  console.log(`usage: npm run bench -- <name> [arguments]\nbenchmarks: ${benchmarks.join(', ')}\nfigures and options: docs/benchmarks.md`);
  process.exit(name === undefined ? 0 : 2);
}
const tsx = path.join(HERE, '..', 'node_modules', '.bin', 'tsx');
const result = spawnSync(tsx, [path.join(HERE, `${name}.ts`), ...args], { stdio: 'inherit' });
process.exit(result.status ?? 1);
