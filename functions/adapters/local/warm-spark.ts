/**
 * @module warm-spark
 * The local profile's warm Spark driver (ADR 0059): one long-lived `spark-submit` of
 * `jobs/spark/warm_driver.py` that runs small jobs one after another, each in a Spark session of its
 * own, so a small write waits for its query and not for a JVM to start. It starts on the first job,
 * holds one bounded heap, and stops after it has been idle a while; big jobs never come here
 * (the engine decides, `spark-submit.ts`).
 *
 * The driver (plain Python; PySpark starts its JVM) reads one line per job on stdin and answers one
 * line per job on file descriptor 3 once the job's result document is written, so its outcome is read exactly as a run of its own is. Stopping a job
 * that is running stops the driver (the next job starts a new one): nothing of a stopped job can
 * go on in a JVM that takes other jobs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { ComputeUsed } from '#domain/runs/run';
import { signalGroup } from './spark-process.ts';
import { sparkSubmitEnv, warmDriverArgs } from './spark-submit-args.ts';

/** How a job given to the warm driver ended: its exit code, or why the driver could not say. */
export type WarmExit = { readonly code: number } | { readonly lost: string };

/** Settings of the warm driver. */
export interface WarmSparkOptions {
  readonly sparkHome: string;
  readonly pythonBin: string;
  readonly jars: readonly string[];
  /** `jobs/spark/warm_driver.py`. */
  readonly driverScript: string;
  /** Its directory: driver log and Spark's scratch. */
  readonly directory: string;
  /** The one JVM's sizing (task slots and heap): the driver's memory is bounded by it. */
  readonly compute: ComputeUsed;
  /** Jobs that may wait for the driver; a job beyond them takes the per-run path. @default 4 */
  readonly maxWaiting?: number;
  /** How long the driver stays up without a job. @default 600000 (10 minutes) */
  readonly idleMs?: number;
  readonly log: (message: string, fields: Record<string, unknown>) => void;
}

interface Job {
  readonly runId: string;
  readonly specFile: string;
  readonly done: (exit: WarmExit) => void;
}

/** Every driver of this process, so a stopping stack stops them ({@link stopWarmDrivers}). */
const drivers = new Set<WarmSparkDriver>();

/** Stops every warm driver of this process (the local stack's stop). */
export const stopWarmDrivers = (): void => {
  for (const driver of drivers) driver.stop();
  drivers.clear();
};

/** One warm driver, taking jobs one at a time. */
export class WarmSparkDriver {
  private child: ChildProcess | undefined;
  private ready: Promise<void> | undefined;
  private readonly waiting: Job[] = [];
  private running: Job | undefined;
  /** The driver the running job was sent to (a job's end is only heard from that one). */
  private runningOn: ChildProcess | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly options: WarmSparkOptions) {
    drivers.add(this);
  }

  /** Whether a job can be taken now without waiting behind more than `maxWaiting` others. */
  hasRoom(): boolean {
    return !this.stopped && this.waiting.length < (this.options.maxWaiting ?? 4);
  }

  /** Queues a job whose spec is written; `done` hears how it ended (once). */
  submit(runId: string, specFile: string, done: (exit: WarmExit) => void): void {
    this.waiting.push({ runId, specFile, done });
    this.next();
  }

  /**
   * Stops a job: a waiting one leaves the queue; the running one stops with the driver. Answers
   * whether the job was here.
   */
  cancel(runId: string): boolean {
    const at = this.waiting.findIndex((j) => j.runId === runId);
    if (at >= 0) {
      this.waiting.splice(at, 1)[0]?.done({ lost: 'stopped before it started' });
      return true;
    }
    if (this.running?.runId !== runId) return false;
    this.kill('a run in it was stopped');
    return true;
  }

  /** Stops the driver; jobs still waiting are lost (the stack is stopping). */
  stop(): void {
    this.stopped = true;
    for (const job of this.waiting.splice(0)) job.done({ lost: 'the warm Spark driver stopped' });
    this.kill('the stack stopped');
  }

  private next(): void {
    if (this.running || this.waiting.length === 0 || this.stopped) return;
    clearTimeout(this.idleTimer);
    const job = this.waiting.shift() as Job;
    this.running = job;
    void this.start().then(
      () => {
        if (this.running !== job) return;
        this.runningOn = this.child;
        this.child?.stdin?.write(`${JSON.stringify({ spec: job.specFile })}\n`);
      },
      (err: unknown) => this.finish(job, { lost: `the warm Spark driver did not start: ${err instanceof Error ? err.message : String(err)}` }),
    );
  }

  private finish(job: Job, exit: WarmExit): void {
    if (this.running !== job) return;
    this.running = undefined;
    this.runningOn = undefined;
    job.done(exit);
    this.next();
    if (!this.running && this.child) {
      clearTimeout(this.idleTimer);
      this.idleTimer = setTimeout(() => this.kill('idle'), this.options.idleMs ?? 600_000);
      this.idleTimer.unref();
    }
  }

  /** Starts the driver if it is not up; resolves once its session is ready. */
  private start(): Promise<void> {
    if (this.ready) return this.ready;
    const { options } = this;
    mkdirSync(path.join(options.directory, 'tmp'), { recursive: true });
    const paths = { sparkHome: options.sparkHome, pythonBin: options.pythonBin, jars: options.jars, jobScript: options.driverScript, runDir: options.directory };
    const log = openSync(path.join(options.directory, 'driver.log'), 'a');
    let child: ChildProcess;
    try {
      // Its own process group, so stopping it stops the JVM too; stdin is a pipe, so a stack that
      // dies takes the driver with it (its input ends, and PySpark's JVM ends with its Python).
      child = spawn(options.pythonBin, warmDriverArgs(options.compute, paths), {
        cwd: options.directory,
        env: sparkSubmitEnv({ ...paths, specFile: '' }, process.env),
        detached: true,
        stdio: ['pipe', log, log, 'pipe'],
      });
    } finally {
      closeSync(log);
    }
    this.child = child;
    child.unref();
    const ready = new Promise<void>((resolve, reject) => {
      child.once('error', (err) => {
        // Not started at all (no Python there): the next job tries a new one.
        if (this.child === child) {
          this.child = undefined;
          this.ready = undefined;
        }
        reject(err);
      });
      createInterface({ input: child.stdio[3] as NodeJS.ReadableStream }).on('line', (line) => {
        let answer: { ready?: boolean; spec?: string; code?: number };
        try {
          answer = JSON.parse(line) as typeof answer;
        } catch {
          return;
        }
        if (answer.ready) resolve();
        else if (this.running && this.runningOn === child && answer.spec === this.running.specFile && typeof answer.code === 'number') this.finish(this.running, { code: answer.code });
      });
      child.once('exit', (code, signal) => {
        if (this.child === child) {
          this.child = undefined;
          this.ready = undefined;
        }
        const why = `the warm Spark driver ended (${code === null ? `signal ${signal}` : `code ${code}`})`;
        reject(new Error(why));
        if (this.running && this.runningOn === child) this.finish(this.running, { lost: why });
      });
    });
    this.ready = ready;
    void ready.catch(() => undefined);
    options.log('warm Spark driver starting', { pid: child.pid, heap: options.compute.sparkConf['spark.driver.memory'] });
    return ready;
  }

  private kill(reason: string): void {
    clearTimeout(this.idleTimer);
    const child = this.child;
    if (!child?.pid) return;
    this.options.log('warm Spark driver stopping', { reason });
    // Forgotten at once: a job that comes while this one is still exiting starts a new driver.
    this.child = undefined;
    this.ready = undefined;
    child.stdin?.end();
    signalGroup(child.pid, 'SIGKILL');
  }
}
