/**
 * Bundle sizes (`npm run bench -- bundles`): each Lambda handler bundled the way `cdk deploy`
 * bundles it (esbuild, ESM, node22, minified, the same externals: lib/service-function.ts), with
 * the size of the bundle, whether it carries the SQL parser's 22 MB WebAssembly, and which AWS SDK
 * clients it contains. Bundle size is cold-start time (parse and compile), so a change to how
 * functions are wired compares these before and after. No AWS account or CDK synth needed.
 */
import { build } from 'esbuild';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { DUCKDB_MODULE } from '../lib/service-function.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const HANDLERS = path.join(ROOT, 'functions', 'handlers');
const SDK_CLIENT = /@aws-sdk\/client-([a-z0-9-]+)/g;

const rows: string[][] = [['handler', 'bytes', 'gzip', 'wasm', 'AWS SDK clients']];
for (const file of readdirSync(HANDLERS).filter((f) => f.endsWith('.ts')).sort()) {
  const result = await build({
    entryPoints: [path.join(HANDLERS, file)],
    bundle: true,
    write: false,
    format: 'esm',
    target: 'node22',
    platform: 'node',
    minify: true,
    mainFields: ['module', 'main'],
    external: [DUCKDB_MODULE],
    metafile: true,
    outfile: 'index.mjs',
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.contents ?? new Uint8Array();
  const text = Buffer.from(code).toString('utf8');
  const clients = new Set<string>();
  // What is left in the bundle after tree shaking (the metafile's inputs also list modules shaken away).
  const output = Object.values(result.metafile.outputs)[0];
  for (const [input, { bytesInOutput }] of Object.entries(output?.inputs ?? {})) if (bytesInOutput > 0) for (const m of input.matchAll(SDK_CLIENT)) clients.add(m[1] as string);
  rows.push([file.replace(/\.ts$/, ''), (code.length / 1024).toFixed(0) + ' KB', (gzipSync(code).length / 1024).toFixed(0) + ' KB', text.includes('polyglot_sql.wasm') ? 'yes' : 'no', [...clients].sort().join(' ')]);
}
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] as string).length)));
for (const row of rows) console.log(row.map((cell, i) => (i === 0 || i >= 3 ? cell.padEnd(widths[i] as number) : cell.padStart(widths[i] as number))).join('  '));
