#!/usr/bin/env node
// Builds the console (`web/` → `web/dist/`) with Vite, only when its inputs changed: the hash of
// every source file of web/ (not dist), the lineage naming module it bundles and the lock file is
// kept in `web/dist/.lakeline-build-hash`, so a second run does nothing and takes milliseconds.
// Run by `npm run local`, the test set-up (so `npm test` and single suites test the current
// console), `npm run build:web`, and CDK synthesis when the files are stale (lib/console.ts).
// Only Node built-ins here: it may run before anything else is set up.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hashFiles } from './setup.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The built console: index.html and its assets. */
export const CONSOLE_DIST = path.join(root, 'web', 'dist');
/** The stamp of the inputs the current build was made from (a dotfile: never served or deployed). */
export const CONSOLE_BUILD_STAMP = path.join(CONSOLE_DIST, '.lakeline-build-hash');

/** Files outside web/ that end up in the bundle (imported by web/src for their code, not only types). */
const BUNDLED_FROM_OUTSIDE = ['functions/domain/lineage-capture/dataset-identity.ts', 'package-lock.json'];

const listFiles = (dir) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((entry) => !(dir === path.join(root, 'web') && entry.name === 'dist'))
    .flatMap((entry) => (entry.isDirectory() ? listFiles(path.join(dir, entry.name)) : [path.join(dir, entry.name)]))
    .sort();

/** The hash of everything the build reads. */
export const consoleInputsHash = () => hashFiles([...listFiles(path.join(root, 'web')), ...BUNDLED_FROM_OUTSIDE.map((f) => path.join(root, f))], root);

/** Whether `web/dist` was built from the current inputs. */
export const consoleBuildIsCurrent = () =>
  existsSync(path.join(CONSOLE_DIST, 'index.html')) && existsSync(CONSOLE_BUILD_STAMP) && readFileSync(CONSOLE_BUILD_STAMP, 'utf8').trim() === consoleInputsHash();

/**
 * Builds the console unless it is current; prints one line when it builds.
 * @returns the built directory
 */
export const ensureConsoleBuilt = ({ quiet = false } = {}) => {
  if (consoleBuildIsCurrent()) return CONSOLE_DIST;
  const started = Date.now();
  const hash = consoleInputsHash();
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  execFileSync(process.execPath, [vite, 'build', '--config', path.join(root, 'web', 'vite.config.ts'), '--logLevel', 'warn'], {
    cwd: root,
    stdio: quiet ? ['ignore', 'pipe', 'inherit'] : 'inherit',
    // Always the production build: run from vitest's global set-up NODE_ENV is `test`, and Vite
    // then bundles React's development build (a larger first page, and not what is deployed).
    env: { ...process.env, NO_COLOR: '1', NODE_ENV: 'production' },
  });
  writeFileSync(CONSOLE_BUILD_STAMP, `${hash}\n`);
  // stderr: `cdk synth` prints the template on stdout.
  console.error(`console: built web/dist in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return CONSOLE_DIST;
};

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    ensureConsoleBuilt({ quiet: process.argv.includes('--quiet') });
  } catch (err) {
    console.error(`console: build failed: ${err instanceof Error ? err.message.split('\n')[0] : err}`);
    process.exit(1);
  }
}
