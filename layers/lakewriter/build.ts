/**
 * @module layers/lakewriter/build
 * Builds the code of the lake writer's Python Lambda (Python 3.12, arm64) into a directory:
 *
 *   lakewriter/          the package from functions/lakewriter (the same code the local profile runs)
 *   <dependencies>       pyiceberg[pyarrow], duckdb and its tpch extension, for manylinux aarch64
 *   build-manifest.json  the pins and the unzipped size
 *
 * Usage: `npx tsx layers/lakewriter/build.ts [--out DIR]` (default `layers/lakewriter/dist`). The
 * versions are the ones requirements.lock pins (`-c requirements.lock`), so AWS writes tables with
 * the library the tests ran. boto3 comes from the Lambda runtime (pyiceberg's Glue catalog uses it).
 *
 * Lambda allows 250 MB unzipped; the wheels come to ~300 MB, so parts the writer never loads are
 * pruned (Arrow Flight, C++ headers and tests, the Hive metastore client, duplicate copies of versioned shared objects) and the
 * build fails if the result is still too large.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** The repository root. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** What the Lambda runs: the top-level requirements (exact versions come from requirements.lock). */
export const LAKE_WRITER_REQUIREMENTS = ['pyiceberg[pyarrow]', 'duckdb', 'duckdb-extension-tpch'] as const;

/** The Lambda runtime's Python version the wheels are chosen for (lib/lake.ts uses the same). */
export const LAKE_WRITER_PYTHON = '3.12';

/** Lambda's limit on a function's unzipped code and layers. */
export const LAMBDA_UNZIPPED_LIMIT_BYTES = 250 * 1024 * 1024;

/** Paths (relative to the build root) the writer never loads. */
const PRUNED = [
  'pyarrow/include',
  'pyarrow/tests',
  'pyarrow/src',
  'pyarrow/libarrow_flight.so.*',
  'pyarrow/libarrow_python_flight.so*',
  'pyarrow/_flight.*.so',
  'pyarrow/_pyarrow_cpp_tests.*.so',
  'hive_metastore',
  'fb303',
  'bin',
  '_duckdb-stubs',
];

const python = (): string => process.env.LAKELINE_PYTHON_BIN ?? path.join(REPO_ROOT, '.lakeline', 'venv', 'bin', 'python');

/** Expands the one-star globs of {@link PRUNED} against the build root. */
const prunedPaths = (root: string): string[] =>
  PRUNED.flatMap((pattern) => {
    if (!pattern.includes('*')) return [path.join(root, pattern)];
    const dir = path.dirname(pattern);
    const [prefix, suffix] = path.basename(pattern).split('*') as [string, string];
    const full = path.join(root, dir);
    if (!existsSync(full)) return [];
    return readdirSync(full)
      .filter((f) => f.startsWith(prefix) && f.endsWith(suffix))
      .map((f) => path.join(full, f));
  });

/**
 * pip writes `libx.so`, `libx.so.N` and `libx.so.N.M.P` as three copies; the loader asks for the
 * SONAME (`libx.so.N`), so the other two are dead weight.
 */
const dropDuplicateSharedObjects = (dir: string): void => {
  const files = readdirSync(dir);
  for (const f of files) {
    const soname = /^(lib[\w-]+\.so)\.(\d+)$/.exec(f);
    if (!soname) continue;
    for (const copy of files.filter((g) => g === soname[1] || g.startsWith(`${f}.`))) rmSync(path.join(dir, copy), { force: true });
  }
};

const sizeOf = (p: string): number => {
  const stat = lstatSync(p);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(p).reduce((sum, f) => sum + sizeOf(path.join(p, f)), 0);
};

const lockHash = (repoRoot: string): string => createHash('sha256').update(readFileSync(path.join(repoRoot, 'requirements.lock'))).update(LAKE_WRITER_REQUIREMENTS.join(',')).digest('hex');

const PACKAGE_DIR = (repoRoot: string): string => path.join(repoRoot, 'functions', 'lakewriter', 'lakewriter');

/** Hash of the lakewriter package's Python sources, so a changed writer is rebuilt. */
const sourceHash = (repoRoot: string): string => {
  const hash = createHash('sha256');
  for (const f of readdirSync(PACKAGE_DIR(repoRoot)).filter((f) => f.endsWith('.py')).sort()) hash.update(f).update(readFileSync(path.join(PACKAGE_DIR(repoRoot), f)));
  return hash.digest('hex');
};

interface BuildManifest {
  readonly lockHash?: string;
  readonly sourceHash?: string;
}

const readManifest = (out: string): BuildManifest => {
  const file = path.join(out, 'build-manifest.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as BuildManifest) : {};
};

/** Whether `out` holds a build of the current pins and sources (nothing to do). */
export const lakeWriterBuildIsCurrent = (out: string, repoRoot = REPO_ROOT): boolean => {
  const manifest = readManifest(out);
  return manifest.lockHash === lockHash(repoRoot) && manifest.sourceHash === sourceHash(repoRoot);
};

/** What a build produced. */
export interface LakeWriterBuild {
  readonly out: string;
  readonly unzippedBytes: number;
  /** Whether the dependencies were reused from an earlier build of the same pins. */
  readonly reused: boolean;
}

/**
 * Builds the function code into `out`. The dependencies are reinstalled only when the pins
 * changed; the lakewriter package is always copied fresh.
 */
export const buildLakeWriter = (out: string, repoRoot = REPO_ROOT): LakeWriterBuild => {
  const manifestFile = path.join(out, 'build-manifest.json');
  const hash = lockHash(repoRoot);
  const reused = readManifest(out).lockHash === hash;
  if (!reused) {
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    execFileSync(
      python(),
      [
        '-m', 'pip', 'install', '--disable-pip-version-check', '--quiet', '--target', out,
        '--platform', 'manylinux2014_aarch64', '--platform', 'manylinux_2_28_aarch64', '--implementation', 'cp', '--python-version', LAKE_WRITER_PYTHON,
        '--only-binary=:all:', '-c', path.join(repoRoot, 'requirements.lock'), ...LAKE_WRITER_REQUIREMENTS,
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    for (const p of prunedPaths(out)) rmSync(p, { recursive: true, force: true });
    dropDuplicateSharedObjects(path.join(out, 'pyarrow'));
  }
  const pkg = path.join(out, 'lakewriter');
  rmSync(pkg, { recursive: true, force: true });
  cpSync(PACKAGE_DIR(repoRoot), pkg, { recursive: true, filter: (src) => !src.includes('__pycache__') });
  const unzippedBytes = sizeOf(out);
  if (unzippedBytes > LAMBDA_UNZIPPED_LIMIT_BYTES) throw new Error(`the lake writer code is ${(unzippedBytes / 2 ** 20).toFixed(0)} MB unzipped, above Lambda's 250 MB`);
  writeFileSync(manifestFile, `${JSON.stringify({ lockHash: hash, sourceHash: sourceHash(repoRoot), requirements: LAKE_WRITER_REQUIREMENTS, unzippedBytes }, null, 2)}\n`);
  return { out, unzippedBytes, reused };
};

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  const out = path.resolve(values.out ?? path.join(REPO_ROOT, 'layers', 'lakewriter', 'dist'));
  const started = Date.now();
  const built = buildLakeWriter(out);
  console.log(`lake writer code built in ${((Date.now() - started) / 1000).toFixed(1)} s (${(built.unzippedBytes / 2 ** 20).toFixed(0)} MB unzipped${built.reused ? ', dependencies reused' : ''}): ${out}`);
}
