#!/usr/bin/env node
// Idempotent set-up for a fresh clone, run by `npm run local`, `npm test` and `.ci/run`:
//   1. node_modules from package-lock.json (`npm ci`), redone only when the lock file changes;
//   2. the Python environment `.lakeline/venv` from the pinned requirements files, redone only
//      when one of them changes.
// Each step records a hash of its inputs, so a second run does nothing and takes milliseconds.
// Only Node built-ins are used here: this script runs before node_modules exists.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const quiet = process.argv.includes('--quiet');
const log = (msg) => quiet || console.log(`setup: ${msg}`);
const stateDir = path.join(root, '.lakeline');

/** Python requirement files installed into the venv, in order (pinned, lock-style). */
export const PYTHON_REQUIREMENTS = ['requirements.lock'];

const hashFiles = (files) => {
  const h = createHash('sha256');
  for (const f of files) h.update(f).update(existsSync(f) ? readFileSync(f) : '');
  return h.digest('hex');
};

const upToDate = (stamp, hash) => existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === hash;

const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { cwd: root, stdio: quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit', ...opts });

const setupNode = () => {
  const lock = path.join(root, 'package-lock.json');
  const stamp = path.join(root, 'node_modules', '.lakeline-lock-hash');
  // The lock file alone decides: script edits in package.json need no reinstall.
  const hash = hashFiles([lock]);
  if (upToDate(stamp, hash)) return;
  log('installing node_modules (npm ci)…');
  run('npm', ['ci', '--no-audit', '--no-fund']);
  writeFileSync(stamp, hash);
};

const findPython = () => {
  for (const candidate of [process.env.LAKELINE_PYTHON, 'python3.11', 'python3']) {
    if (!candidate) continue;
    try {
      const version = execFileSync(candidate, ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], { encoding: 'utf8' }).trim();
      const [major, minor] = version.split('.').map(Number);
      if (major === 3 && minor >= 11) return candidate;
    } catch {
      // try the next candidate
    }
  }
  throw new Error('setup: Python 3.11 or newer is required (set LAKELINE_PYTHON to its path)');
};

const setupPython = () => {
  const files = PYTHON_REQUIREMENTS.map((f) => path.join(root, f)).filter((f) => existsSync(f));
  if (files.length === 0) return;
  const venv = path.join(stateDir, 'venv');
  const stamp = path.join(venv, '.lakeline-requirements-hash');
  const hash = hashFiles(files);
  if (upToDate(stamp, hash)) return;
  mkdirSync(stateDir, { recursive: true });
  if (!existsSync(path.join(venv, 'bin', 'python'))) {
    log(`creating Python environment ${venv}…`);
    run(findPython(), ['-m', 'venv', venv]);
  }
  log('installing Python requirements…');
  const pip = path.join(venv, 'bin', 'pip');
  run(pip, ['install', '--disable-pip-version-check', '--no-input', ...(quiet ? ['-q'] : []), ...files.flatMap((f) => ['-r', f])]);
  copyDuckdbExtensions(venv);
  writeFileSync(stamp, hash);
};

/**
 * The DuckDB engine loads its extensions from files (nothing downloads at run time); the PyPI
 * packages `duckdb-extension-*` ship them, so they are copied into one flat directory.
 */
const copyDuckdbExtensions = (venv) => {
  const target = path.join(stateDir, 'duckdb-extensions');
  mkdirSync(target, { recursive: true });
  const lib = path.join(venv, 'lib');
  for (const py of readdirSync(lib)) {
    const site = path.join(lib, py, 'site-packages');
    if (!existsSync(site)) continue;
    for (const pkg of readdirSync(site).filter((d) => d.startsWith('duckdb_extension_'))) {
      const extRoot = path.join(site, pkg, 'extensions');
      if (!existsSync(extRoot)) continue;
      for (const version of readdirSync(extRoot)) {
        for (const file of readdirSync(path.join(extRoot, version)).filter((f) => f.endsWith('.duckdb_extension'))) {
          copyFileSync(path.join(extRoot, version, file), path.join(target, file));
        }
      }
    }
  }
};

/**
 * Java libraries of the local Spark profile, from Maven Central: the Iceberg Spark runtime (must
 * match pyspark's Spark 3.5 / Scala 2.12) and the SQLite JDBC driver for the SQL catalog.
 */
export const JARS = ['org.apache.iceberg:iceberg-spark-runtime-3.5_2.12:1.12.0', 'org.xerial:sqlite-jdbc:3.54.1.0'];

const jarFile = (coordinate) => {
  const [, artifact, version] = coordinate.split(':');
  return `${artifact}-${version}.jar`;
};

const setupJars = () => {
  const dir = path.join(stateDir, 'jars');
  const missing = JARS.filter((c) => !existsSync(path.join(dir, jarFile(c))));
  if (missing.length === 0) return;
  mkdirSync(dir, { recursive: true });
  for (const coordinate of missing) {
    log(`fetching ${coordinate} (Maven)…`);
    run('mvn', ['-q', '-B', 'dependency:copy', `-Dartifact=${coordinate}`, `-DoutputDirectory=${dir}`]);
  }
};

try {
  setupNode();
  setupPython();
  setupJars();
  log('ready');
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
