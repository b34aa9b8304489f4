/**
 * @module spark-submit
 * The local SparkEngine: `spark-submit` of the job script (`jobs/spark/run_job.py`, the same one
 * EMR Serverless runs) as a supervised child process. Each run gets `<home>/runs/<run id>/` with
 * its spec, the job's result document and the driver log. The child runs in its own process
 * group with its output in a file, so it outlives a restart of the stack: a restarted stack
 * re-attaches to it (or reads how it ended) instead of leaving the run RUNNING.
 *
 * At most `maxConcurrent` runs have a JVM at once, each within its share of the memory budget;
 * the others wait in a queue (their runs are QUEUED) and start, oldest first, as runs end. The
 * queue is the run store's QUEUED runs: a restarted stack queues them again (`reattach`).
 *
 * Small jobs (inputs up to `warmMaxInputBytes`) go to the warm driver instead (`warm-spark.ts`,
 * ADR 0059): one long-lived JVM of bounded heap that runs them one at a time, each in a session of
 * its own, so they do not wait for a JVM to start. While it has more jobs waiting than it takes,
 * a small job takes the per-run path like a big one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import path from 'node:path';
import { jobSpecDocument } from '#domain/runs/job-spec';
import { outcomeFromResult } from '#domain/runs/job-result';
import type { SparkResourceRequest } from '#domain/core/machine-types';
import type { OutcomeListener, SparkEngine, SparkJob, SparkSubmission, StartListener } from '#domain/runs/ports';
import type { ComputeUsed, EngineHandle, Run, RunOutcome } from '#domain/runs/run';
import { isSameProcess, processStartTicks, signalGroup, stopGroup } from './spark-process.ts';
import { localCompute, sparkSubmitArgs, sparkSubmitEnv, type SubmitPaths } from './spark-submit-args.ts';
import { WarmSparkDriver, type WarmExit } from './warm-spark.ts';

/**
 * How long a Spark commit waits for the SQLite catalog when another writer (the lake writer, another
 * run) holds its lock. sqlite-jdbc's default is 3 s, which a loaded machine can exceed while a
 * pyiceberg commit is in flight; a run should wait, not fail.
 */
const CATALOG_BUSY_TIMEOUT_MS = 30_000;

/** Settings of the local engine. */
export interface LocalSparkOptions {
  /** The stack's state directory; runs live under `<home>/runs/`. */
  readonly home: string;
  /** The SQLite catalog file (Iceberg JDBC layout). */
  readonly catalogFile: string;
  /** The warehouse root directory. */
  readonly warehouse: string;
  /** The project venv's Python (pyspark is installed in it). */
  readonly pythonBin: string;
  /** Repository root: `jobs/spark/run_job.py` and `.lakeline/jars/`. */
  readonly repoRoot: string;
  readonly maxCores?: number;
  /** Memory all concurrent runs may take together, in MB (each run gets its share). @default half the machine's */
  readonly maxMemoryMb?: number;
  /** Most runs with a JVM at once; more wait in the queue. @default {@link defaultConcurrency} */
  readonly maxConcurrent?: number;
  /** Receives each run's outcome when its process ends. */
  readonly onOutcome: OutcomeListener;
  /** Receives each queued run's start. */
  readonly onStarted: StartListener;
  readonly log: (message: string, fields: Record<string, unknown>) => void;
  /** How often a re-attached run (not our child) is checked for its end. @default 1000 */
  readonly pollMs?: number;
  /**
   * Largest total input (bytes of the input tables' current snapshots) a job may have to run in the
   * warm driver; 0 turns the warm driver off. @default {@link DEFAULT_WARM_MAX_INPUT_BYTES}
   */
  readonly warmMaxInputBytes?: number;
  /** The warm driver's heap in MB. @default {@link DEFAULT_WARM_HEAP_MB} */
  readonly warmHeapMb?: number;
  /** How long the warm driver stays up without a job. @default 600000 */
  readonly warmIdleMs?: number;
}

/**
 * Small enough for the warm driver: 64 MiB of input Parquet (about a million narrow rows), which
 * its heap reads without spilling; a write of 10,000 rows from tables this size takes a second there.
 */
export const DEFAULT_WARM_MAX_INPUT_BYTES = 64 * 1024 * 1024;

/** The warm driver's heap: bounded, whatever the jobs are, and beside the per-run JVMs' budget. */
export const DEFAULT_WARM_HEAP_MB = 1_536;

/** Bytes of the driver log read to explain a run that ended without a result. */
const LOG_TAIL_BYTES = 64 * 1024;

/** The installed pyspark's Spark version (the processing_engine facet until a run reports its own). */
const pysparkVersion = (sparkHome: string): string => {
  try {
    return /__version__[^"']*["']([^"']+)["']/.exec(readFileSync(path.join(sparkHome, 'version.py'), 'utf8'))?.[1] ?? 'unknown';
  } catch {
    return 'unknown';
  }
};

const findSparkHome = (pythonBin: string): string => {
  const lib = path.join(path.dirname(path.dirname(pythonBin)), 'lib');
  const candidates = existsSync(lib) ? readdirSync(lib).filter((d) => d.startsWith('python')) : [];
  for (const dir of candidates) {
    const home = path.join(lib, dir, 'site-packages', 'pyspark');
    if (existsSync(path.join(home, 'bin', 'spark-submit'))) return home;
  }
  throw new Error(`pyspark is not installed next to ${pythonBin}; run \`npm run setup\``);
};

const findJars = (jarsDir: string): string[] => {
  const files = existsSync(jarsDir) ? readdirSync(jarsDir) : [];
  const pick = (prefix: string) => {
    const jar = files.filter((f) => f.startsWith(prefix) && f.endsWith('.jar')).sort().pop();
    if (!jar) throw new Error(`${prefix}*.jar is missing from ${jarsDir}; run \`npm run setup\``);
    return path.join(jarsDir, jar);
  };
  return [pick('iceberg-spark-runtime-3.5_2.12-'), pick('sqlite-jdbc-')];
};

const readIfExists = (file: string): string | undefined => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};

/** The last error-looking lines of a driver log, to explain a run that left no result. */
export const logTail = (file: string): string => {
  const text = readIfExists(file);
  if (!text) return '';
  const tail = text.slice(-LOG_TAIL_BYTES).split('\n').map((l) => l.trim()).filter(Boolean);
  const errors = tail.filter((l) => /error|exception|killed|out of memory/i.test(l) && !/^\s*at /.test(l));
  return (errors.length ? errors : tail).slice(-3).join(' | ').slice(0, 2000);
};

/** The smallest heap share that is worth a JVM of its own. */
const MIN_SHARE_MB = 2_048;

/**
 * Runs with a JVM at once by default: as many as the memory budget holds at 2 GB each, but no more
 * than the machine has cores (two runs per core would only take turns).
 */
export const defaultConcurrency = (cores: number, memoryBudgetMb: number): number => Math.max(1, Math.min(cores, Math.floor(memoryBudgetMb / MIN_SHARE_MB)));

/** A run waiting for a slot. */
interface Queued {
  readonly runId: string;
  readonly compute: ComputeUsed;
}

/** Local {@link SparkEngine}: supervised `spark-submit` child processes, a bounded number at once. */
export class LocalSparkEngine implements SparkEngine {
  readonly platform = 'local';
  readonly version: string;
  /** Most runs with a JVM at once. */
  readonly maxConcurrent: number;
  private readonly sparkHome: string;
  private readonly jars: string[];
  private readonly memoryBudgetMb: number;
  /** Runs whose process lives (started here, or watched after a restart). */
  private readonly active = new Set<string>();
  private readonly queue: Queued[] = [];
  private readonly warm: WarmSparkDriver | undefined;
  private readonly warmMaxInputBytes: number;

  constructor(private readonly options: LocalSparkOptions) {
    this.sparkHome = findSparkHome(options.pythonBin);
    this.jars = findJars(path.join(options.repoRoot, '.lakeline', 'jars'));
    this.version = pysparkVersion(this.sparkHome);
    this.memoryBudgetMb = options.maxMemoryMb ?? Math.floor(totalmem() / (1024 * 1024) / 2);
    this.maxConcurrent = options.maxConcurrent ?? defaultConcurrency(availableParallelism(), this.memoryBudgetMb);
    this.warmMaxInputBytes = options.warmMaxInputBytes ?? DEFAULT_WARM_MAX_INPUT_BYTES;
    const heapMb = options.warmHeapMb ?? DEFAULT_WARM_HEAP_MB;
    this.warm =
      this.warmMaxInputBytes > 0
        ? new WarmSparkDriver({
            sparkHome: this.sparkHome,
            pythonBin: options.pythonBin,
            jars: this.jars,
            driverScript: path.join(options.repoRoot, 'jobs', 'spark', 'warm_driver.py'),
            directory: path.join(options.home, 'spark-warm'),
            compute: localCompute(
              { driver: { name: 'warm', vcpus: 1, memoryGb: heapMb / 1024 }, executor: { name: 'warm', vcpus: availableParallelism(), memoryGb: 0 }, executors: 1 },
              { cores: availableParallelism(), memoryMb: Math.floor(totalmem() / (1024 * 1024)), maxMemoryMb: heapMb, ...(options.maxCores === undefined ? {} : { maxCores: options.maxCores }) },
            ),
            ...(options.warmIdleMs === undefined ? {} : { idleMs: options.warmIdleMs }),
            log: options.log,
          })
        : undefined;
  }

  /** Stops the warm driver (the stack is stopping); per-run JVMs outlive the stack on purpose. */
  close(): void {
    this.warm?.stop();
  }

  size(request: SparkResourceRequest): ComputeUsed {
    return localCompute(request, {
      cores: availableParallelism(),
      memoryMb: Math.floor(totalmem() / (1024 * 1024)),
      ...(this.options.maxCores === undefined ? {} : { maxCores: this.options.maxCores }),
      // Each run's heap is its share of the budget, so the runs that may run at once fit together.
      maxMemoryMb: Math.floor(this.memoryBudgetMb / this.maxConcurrent),
    });
  }

  async submit(job: SparkJob): Promise<SparkSubmission> {
    const runDir = this.runDir(job.runId);
    mkdirSync(path.join(runDir, 'tmp'), { recursive: true });
    const spec = jobSpecDocument(job, { type: 'jdbc', uri: `jdbc:sqlite:${this.options.catalogFile}?busy_timeout=${CATALOG_BUSY_TIMEOUT_MS}`, warehouseRoot: `file://${this.options.warehouse}` }, `file://${runDir}/result.json`);
    writeFileSync(path.join(runDir, 'job.json'), JSON.stringify(spec, null, 2), { mode: 0o600 });
    if (this.warm && job.inputBytes !== undefined && job.inputBytes <= this.warmMaxInputBytes && this.warm.hasRoom()) {
      this.warm.submit(job.runId, path.join(runDir, 'job.json'), (exit: WarmExit) => void this.report(job.runId, runDir, 'code' in exit ? `code ${exit.code}` : exit.lost));
      return { handle: { platform: this.platform, runDir, warm: 1, startedAt: Date.now() }, started: true };
    }
    if (this.active.size >= this.maxConcurrent) {
      this.queue.push({ runId: job.runId, compute: job.compute });
      return { handle: { platform: this.platform, runDir, queued: 1 }, started: false };
    }
    return { handle: await this.launch(job.runId, job.compute), started: true };
  }

  /** Starts the JVM of a run whose spec is in its directory. */
  private async launch(runId: string, compute: ComputeUsed): Promise<EngineHandle> {
    const runDir = this.runDir(runId);
    const paths: SubmitPaths = {
      sparkHome: this.sparkHome,
      pythonBin: this.options.pythonBin,
      jars: this.jars,
      jobScript: path.join(this.options.repoRoot, 'jobs', 'spark', 'run_job.py'),
      runDir,
      specFile: path.join(runDir, 'job.json'),
    };
    this.active.add(runId);
    const log = openSync(path.join(runDir, 'driver.log'), 'a');
    let child: ChildProcess;
    try {
      // Own process group (abort stops the whole tree) and output to a file, not a pipe to us:
      // the run must survive the stack stopping, and re-attach when it starts again.
      child = spawn(path.join(this.sparkHome, 'bin', 'spark-submit'), sparkSubmitArgs(runId, compute, paths), {
        cwd: runDir,
        env: sparkSubmitEnv(paths, process.env),
        detached: true,
        stdio: ['ignore', log, log],
      });
      await new Promise<void>((resolve, reject) => {
        child.once('spawn', resolve);
        child.once('error', reject);
      });
    } catch (err) {
      this.active.delete(runId);
      throw err;
    } finally {
      closeSync(log);
    }
    const pid = child.pid as number;
    const startTicks = processStartTicks(pid);
    child.once('exit', (code, signal) => {
      // The JVM's children (the Python driver) go with it; anything left behind is stopped.
      signalGroup(pid, 'SIGKILL');
      void this.ended(runId, runDir, code === null ? `signal ${signal}` : `code ${code}`);
    });
    child.unref();
    return { platform: this.platform, pid, ...(startTicks === undefined ? {} : { startTicks }), runDir, startedAt: Date.now() };
  }

  async cancel(handle: EngineHandle): Promise<void> {
    if (handle.warm !== undefined) {
      this.warm?.cancel(path.basename(String(handle.runDir)));
      return;
    }
    if (handle.queued !== undefined) {
      // Not started yet: it leaves the queue (the run is ABORT already).
      const at = this.queue.findIndex((q) => this.runDir(q.runId) === handle.runDir);
      if (at >= 0) this.queue.splice(at, 1);
      return;
    }
    const pid = Number(handle.pid);
    if (!Number.isInteger(pid) || pid <= 1) return;
    // Only the run's own process group: a pid reused by an unrelated process is left alone.
    if (isSameProcess(pid, handle.startTicks as string | undefined)) stopGroup(pid);
  }

  async reattach(run: Run): Promise<'attached' | RunOutcome> {
    if (run.state === 'QUEUED') {
      if (!existsSync(path.join(this.runDir(run.runId), 'job.json'))) return { state: 'FAIL', error: 'the service stopped before the queued run was handed to Spark' };
      this.queue.push({ runId: run.runId, compute: run.compute });
      this.startQueued();
      return 'attached';
    }
    const handle = run.handle;
    if (handle?.warm !== undefined) {
      // The warm driver went with the stack that started it: the run ended with it, or before.
      const runDir = typeof handle.runDir === 'string' ? handle.runDir : this.runDir(run.runId);
      return outcomeFromResult(readIfExists(path.join(runDir, 'result.json'))) ?? { state: 'FAIL', error: 'the local stack stopped while this run was in its warm Spark driver; submit it again' };
    }
    const pid = Number(handle?.pid);
    const runDir = typeof handle?.runDir === 'string' ? handle.runDir : this.runDir(run.runId);
    if (Number.isInteger(pid) && isSameProcess(pid, handle?.startTicks as string | undefined)) {
      this.active.add(run.runId);
      this.watch(run.runId, runDir, pid);
      return 'attached';
    }
    return (
      outcomeFromResult(readIfExists(path.join(runDir, 'result.json'))) ?? {
        state: 'FAIL',
        error: `the local stack stopped while this run was active, and its Spark process ended without a result${this.explain(runDir)}`,
      }
    );
  }

  private runDir(runId: string): string {
    return path.join(this.options.home, 'runs', runId);
  }

  private explain(runDir: string): string {
    const tail = logTail(path.join(runDir, 'driver.log'));
    return tail ? `: ${tail}` : '';
  }

  /** Polls a process that is not our child (re-attached after a restart) until it ends. */
  private watch(runId: string, runDir: string, pid: number): void {
    const started = processStartTicks(pid);
    const timer = setInterval(() => {
      if (isSameProcess(pid, started)) return;
      clearInterval(timer);
      void this.ended(runId, runDir, 'an exit the restarted stack did not see');
    }, this.options.pollMs ?? 1_000);
    timer.unref();
  }

  /** A run's process ended: its outcome is reported, and its slot goes to the oldest queued run. */
  private async ended(runId: string, runDir: string, exit: string): Promise<void> {
    this.active.delete(runId);
    this.startQueued();
    await this.report(runId, runDir, exit);
  }

  /** Starts queued runs while slots are free, oldest first; each start is reported to the listener. */
  private startQueued(): void {
    while (this.active.size < this.maxConcurrent && this.queue.length > 0) {
      const next = this.queue.shift() as Queued;
      void this.launch(next.runId, next.compute).then(
        (handle) => this.options.onStarted(next.runId, handle).catch((err: unknown) => this.options.log('queued run start not recorded', { runId: next.runId, error: err })),
        (err: unknown) =>
          this.options
            .onOutcome(next.runId, { state: 'FAIL', error: `Spark could not start the run: ${err instanceof Error ? err.message : String(err)}` })
            .catch((error: unknown) => this.options.log('run outcome not recorded', { runId: next.runId, error })),
      );
    }
  }

  /** Reads how a run ended and hands the outcome to the listener. */
  private async report(runId: string, runDir: string, exit: string): Promise<void> {
    const outcome: RunOutcome = outcomeFromResult(readIfExists(path.join(runDir, 'result.json'))) ?? {
      state: 'FAIL',
      error: `Spark ended (${exit}) without recording a result${this.explain(runDir)}`,
    };
    try {
      await this.options.onOutcome(runId, outcome);
    } catch (err) {
      this.options.log('run outcome not recorded', { runId, error: err });
    }
  }
}
