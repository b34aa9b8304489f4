/**
 * @module layers/duckdb/build
 * Builds the DuckDB Lambda layer for linux-arm64 into a directory, laid out as Lambda mounts it
 * under /opt:
 *
 *   nodejs/node_modules/@duckdb/{node-api,node-bindings,node-bindings-linux-arm64}, detect-libc
 *   duckdb-extensions/{iceberg,avro,httpfs}.duckdb_extension
 *   layer-manifest.json   (versions and SHA-256 of every binary)
 *
 * Usage: `npx tsx layers/duckdb/build.ts [--out DIR]` (default `layers/duckdb/dist`). It uses npm
 * (`npm install --os=linux --cpu=arm64`) and pip from the project venv (`pip download
 * --platform manylinux2014_aarch64`); wheels are unpacked with Python's zipfile. Every native file
 * is checked to be aarch64 and, for extensions, built for the pinned DuckDB version.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { extensionFooter, planLayer, TARGET, type LayerPlan } from './plan.ts';

/** The repository root. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** What a build produced. */
export interface LayerBuild {
  readonly out: string;
  readonly plan: LayerPlan;
  /** SHA-256 by path inside the layer, for every native binary. */
  readonly files: Record<string, string>;
}

const sha256 = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

/** ELF machine of a shared object: 183 is AArch64 (EM_AARCH64). */
const isAarch64Elf = (file: string): boolean => {
  const head = readFileSync(file).subarray(0, 20);
  return head.subarray(0, 4).toString('latin1') === '\x7fELF' && head.readUInt16LE(18) === 183;
};

const python = (): string => process.env.LAKELINE_PYTHON_BIN ?? path.join(REPO_ROOT, '.lakeline', 'venv', 'bin', 'python');

/** Installs the Node bindings for linux-arm64 into `<out>/nodejs`. */
const installNodeModules = (plan: LayerPlan, out: string): void => {
  const prefix = path.join(out, 'nodejs');
  mkdirSync(prefix, { recursive: true });
  execFileSync(
    'npm',
    ['install', '--prefix', prefix, `--os=${TARGET.npm.os}`, `--cpu=${TARGET.npm.cpu}`, `--libc=${TARGET.npm.libc}`, '--omit=dev', '--no-package-lock', '--no-save', '--ignore-scripts', '--no-audit', '--no-fund', ...plan.npmPackages],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  // npm leaves a package.json at the prefix; the layer needs only node_modules.
  rmSync(path.join(prefix, 'package.json'), { force: true });
  const binding = path.join(out, plan.layout.nodeModules, plan.bindingPackage);
  for (const file of ['duckdb.node', 'libduckdb.so']) {
    const full = path.join(binding, file);
    if (!existsSync(full) || !isAarch64Elf(full)) throw new Error(`${plan.bindingPackage}/${file} is missing or not an aarch64 binary`);
  }
  // Bindings for other platforms must not ride along (npm may still fetch optional ones).
  for (const other of readdirSync(path.join(out, plan.layout.nodeModules, '@duckdb')).filter((d) => d.startsWith('node-bindings-') && `@duckdb/${d}` !== plan.bindingPackage)) {
    rmSync(path.join(out, plan.layout.nodeModules, '@duckdb', other), { recursive: true, force: true });
  }
};

/** Downloads the aarch64 extension wheels and unpacks the extension files into `<out>/duckdb-extensions`. */
const installExtensions = (plan: LayerPlan, out: string): void => {
  const wheels = mkdtempSync(path.join(os.tmpdir(), 'lakeline-layer-wheels-'));
  try {
    execFileSync(
      python(),
      ['-m', 'pip', 'download', '--disable-pip-version-check', '--quiet', '--only-binary=:all:', '--no-deps', '--python-version', '3.12', ...TARGET.pipPlatforms.flatMap((p) => ['--platform', p]), '-d', wheels, ...plan.wheels.map((w) => w.requirement)],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    const target = path.join(out, plan.layout.extensions);
    mkdirSync(target, { recursive: true });
    for (const wheel of plan.wheels) {
      const prefix = `${wheel.requirement.split('==')[0]?.replaceAll('-', '_')}-`;
      const file = readdirSync(wheels).find((f) => f.startsWith(prefix) && f.endsWith('.whl'));
      if (!file) throw new Error(`no wheel downloaded for ${wheel.requirement}`);
      const destination = path.join(target, `${wheel.extension}.duckdb_extension`);
      execFileSync(python(), ['-c', 'import sys, zipfile; open(sys.argv[3], "wb").write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))', path.join(wheels, file), wheel.member, destination]);
      const footer = extensionFooter(readFileSync(destination));
      if (footer.platform !== TARGET.duckdbPlatform || footer.duckdbVersion !== plan.duckdbVersion) {
        throw new Error(`${wheel.extension}.duckdb_extension is built for ${footer.platform} ${footer.duckdbVersion}, not ${TARGET.duckdbPlatform} ${plan.duckdbVersion}`);
      }
    }
  } finally {
    rmSync(wheels, { recursive: true, force: true });
  }
};

/** Builds the layer into `out` (emptied first). */
export const buildLayer = (out: string, repoRoot = REPO_ROOT): LayerBuild => {
  const plan = planLayer(repoRoot);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  installNodeModules(plan, out);
  installExtensions(plan, out);
  const natives = [
    ...['duckdb.node', 'libduckdb.so'].map((f) => path.join(plan.layout.nodeModules, plan.bindingPackage, f)),
    ...plan.wheels.map((w) => path.join(plan.layout.extensions, `${w.extension}.duckdb_extension`)),
  ];
  const files = Object.fromEntries(natives.map((rel) => [rel, sha256(path.join(out, rel))]));
  writeFileSync(path.join(out, 'layer-manifest.json'), `${JSON.stringify({ target: TARGET, duckdbVersion: plan.duckdbVersion, npm: plan.npmPackages, wheels: plan.wheels.map((w) => w.requirement), files }, null, 2)}\n`);
  return { out, plan, files };
};

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  const out = path.resolve(values.out ?? path.join(REPO_ROOT, 'layers', 'duckdb', 'dist'));
  const started = Date.now();
  const built = buildLayer(out);
  console.log(`DuckDB layer (${built.plan.duckdbVersion}, ${TARGET.duckdbPlatform}) built in ${((Date.now() - started) / 1000).toFixed(1)} s: ${out}`);
  for (const [file, hash] of Object.entries(built.files)) console.log(`  ${file}  sha256:${hash.slice(0, 16)}…`);
}
