#!/usr/bin/env node
// Runs every pytest suite of the repository with the project's venv (`npm run test:python`).
// Each suite lives beside its Python code and has its own pytest.ini.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const python = process.env.LAKELINE_PYTHON_BIN ?? path.join(root, '.lakeline', 'venv', 'bin', 'python');
/** Folders holding a pytest suite. */
const SUITES = ['functions/lakewriter', 'functions/polars', 'jobs/spark'];

let failed = false;
for (const suite of SUITES) {
  const done = spawnSync(python, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'], { cwd: path.join(root, suite), stdio: 'inherit' });
  if (done.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
