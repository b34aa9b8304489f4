/**
 * @module polars-pool
 * The local polars sandbox: a pool of warm Python workers, each confined by bubblewrap
 * (`bwrap-args.ts`), so the common request pays neither a Python start nor the polars import.
 *
 * Per request a worker's view of the warehouse is refilled with hard links to exactly the files of
 * the request's tables (the view directory is bind-mounted read-only at the warehouse path, so the
 * metadata's absolute paths resolve, and nothing else of the lake is visible); the request goes to a
 * read-only inbox; the worker (`lakeline_polars.zygote`) forks a child per request with its memory,
 * process and file-size limits and a wall-clock limit, and answers in its scratch directory. A
 * worker that dies (crash, out of memory, a limit) is replaced; the request gets a clear 400.
 * Without bubblewrap and setpriv the pool refuses every run (503): never unconfined.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, closeSync, constants, createWriteStream, existsSync, lstatSync, mkdirSync, openSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { copyFile, link, lstat, mkdir, mkdtemp, open, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { ServiceUnavailableError, ValidationError } from '#domain/errors';
import { sandboxRequest, type PolarsTier, type SandboxResult, type SandboxRun } from '#domain/polars/sandbox';
import type { PolarsSandbox } from '#domain/polars/ports';
import { bwrapArgs, SANDBOX_CODE_DIR, SANDBOX_INBOX, SANDBOX_SCRATCH, type BwrapLayout } from './bwrap-args.ts';
import { seccompFilter } from './seccomp.ts';

/** Settings of the pool. */
export interface PolarsPoolOptions {
  /** The venv's python. */
  readonly pythonBin: string;
  /** `functions/polars`. */
  readonly codeDir: string;
  /** The warehouse root (table locations must lie below it). */
  readonly warehouse: string;
  /** State directory of the workers (must be on the warehouse's file system for hard links). */
  readonly stateDir: string;
  /** Wall-clock limit of one run, in seconds (default 1700). */
  readonly timeoutSeconds?: number;
  /** Most workers alive at once (default: the host's cores, 1 to 4). */
  readonly maxWorkers?: number;
  /** Memory limit per vCPU of the tier, in bytes (default 2 GiB), capped by the host. */
  readonly memoryPerVcpu?: number;
  /** Most processes and threads of one worker's uid (default 256). */
  readonly maxProcesses?: number;
}

/** The wall-clock limit the contract's issue asks for by default. */
export const DEFAULT_TIMEOUT_SECONDS = 1700;
/** What the zygote may take beyond the run's own limit before the worker counts as hung. */
const GRACE_MS = 10_000;
/** Largest answer file: the inline result limit plus the JSON around it. */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

interface Answer {
  readonly ok: boolean;
  readonly kind?: string;
  readonly error?: string;
  readonly details?: string;
  readonly results?: { columns: string[]; column_types: string[]; rows: unknown[][] };
  readonly row_count?: number;
  readonly run_ms?: number;
  readonly output_file?: string;
}

const which = (name: string, dirs = ['/usr/bin', '/bin', '/usr/sbin', '/usr/local/bin']): string | undefined =>
  dirs.map((d) => path.join(d, name)).find((p) => existsSync(p));

/** Finds bubblewrap, setpriv and the Python installation; the reason when isolation is impossible. */
export const discoverLayout = (pythonBin: string, codeDir: string): BwrapLayout | { unavailable: string } => {
  const bwrap = which('bwrap');
  if (!bwrap) return { unavailable: 'bubblewrap (bwrap) is not installed on this machine; install the Debian package bubblewrap' };
  const setpriv = which('setpriv');
  if (!setpriv) return { unavailable: 'setpriv (util-linux) is not installed on this machine' };
  if (!within(setpriv, '/usr')) return { unavailable: `setpriv at ${setpriv} is outside /usr` };
  let prefixes: string[];
  try {
    prefixes = execFileSync(pythonBin, ['-c', 'import sys; print(sys.prefix); print(sys.base_prefix)'], { encoding: 'utf8' }).trim().split('\n');
  } catch (err) {
    return { unavailable: `the sandbox python ${pythonBin} does not run: ${(err as Error).message}` };
  }
  const rootSymlinks: Record<string, string> = {};
  const rootDirs: string[] = [];
  for (const top of ['/lib', '/lib64', '/lib32', '/bin', '/sbin']) {
    if (!existsSync(top)) continue;
    if (lstatSync(top).isSymbolicLink()) rootSymlinks[top] = readlinkSync(top);
    else rootDirs.push(top);
  }
  return {
    bwrap,
    setpriv: setpriv.startsWith('/bin/') ? `/usr${setpriv}` : setpriv,
    python: path.resolve(pythonBin),
    venvPrefix: prefixes[0] as string,
    basePrefix: prefixes[1] as string,
    codeDir,
    rootSymlinks,
    rootDirs,
  };
};

const within = (child: string, parent: string): boolean => child === parent || child.startsWith(`${parent}/`);

/** Hard-links a directory tree (a copy where links cannot be made: another file system). */
const linkTree = async (from: string, to: string): Promise<void> => {
  await mkdir(to, { recursive: true, mode: 0o755 });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) await linkTree(source, target);
    else if (entry.isFile()) await link(source, target).catch(() => copyFile(source, target));
    // Symlinks and anything else in a table directory are not followed.
  }
};

/** Opens a file the sandbox wrote without following links it may have planted. */
const openSandboxFile = async (dir: string, name: string) => {
  const info = await lstat(dir);
  if (!info.isDirectory()) throw new Error(`sandbox directory ${dir} is not a directory`);
  const handle = await open(path.join(dir, name), constants.O_RDONLY | constants.O_NOFOLLOW);
  const stat = await handle.stat();
  if (!stat.isFile()) {
    await handle.close();
    throw new Error(`sandbox file ${name} is not a regular file`);
  }
  return { handle, size: stat.size };
};

let uidBlock = 0;

/** One warm worker: a bubblewrap sandbox running `python -m lakeline_polars`. */
class Worker {
  readonly ready: Promise<string>;
  readonly dir: string;
  private readonly child: ChildProcess;
  private readonly pending: ((line: string | undefined) => void)[] = [];
  private readonly lines: string[] = [];
  private stderr = '';
  dead = false;
  busy = false;

  constructor(
    readonly tier: PolarsTier,
    readonly uid: number,
    dir: string,
    private readonly options: PolarsPoolOptions,
    layout: BwrapLayout,
    threads: number,
  ) {
    this.dir = dir;
    // The seccomp filter reaches bubblewrap as descriptor 3, read once at start.
    const filterFile = path.join(dir, 'seccomp.bpf');
    writeFileSync(filterFile, seccompFilter());
    const filterFd = openSync(filterFile, 'r');
    const args = bwrapArgs(layout, { view: this.view, warehouse: options.warehouse, inbox: this.inbox, scratch: this.scratch, uid, seccompFd: 3 });
    // A clean environment: nothing of the service's (keys, endpoints) reaches the sandbox.
    const env = {
      PATH: '/usr/bin:/bin',
      LANG: 'C.UTF-8',
      HOME: SANDBOX_SCRATCH,
      PYTHONPATH: SANDBOX_CODE_DIR,
      PYTHONDONTWRITEBYTECODE: '1',
      LAKELINE_SCRATCH: SANDBOX_SCRATCH,
      LAKELINE_INBOX: SANDBOX_INBOX,
      LAKELINE_HOST_PIDNS: readlinkSync('/proc/self/ns/pid'),
      POLARS_MAX_THREADS: String(threads),
      RAYON_NUM_THREADS: String(threads),
      OMP_NUM_THREADS: String(threads),
    };
    try {
      this.child = spawn(layout.bwrap, args, { env, stdio: ['pipe', 'pipe', 'pipe', filterFd] });
    } finally {
      closeSync(filterFd);
    }
    this.child.stderr?.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString()).slice(-4000);
    });
    createInterface({ input: this.child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      const waiter = this.pending.shift();
      if (waiter) waiter(line);
      else this.lines.push(line);
    });
    this.child.on('exit', () => {
      this.dead = true;
      for (const waiter of this.pending.splice(0)) waiter(undefined);
    });
    this.child.on('error', () => {
      this.dead = true;
      for (const waiter of this.pending.splice(0)) waiter(undefined);
    });
    this.ready = this.nextLine(60_000).then((line) => {
      const hello = line ? (JSON.parse(line) as { ready?: boolean; polars?: string }) : undefined;
      if (!hello?.ready) throw new ServiceUnavailableError('the polars sandbox did not start', { details: this.stderr.trim().split('\n').slice(-3).join(' | ') || 'no output' });
      return hello.polars ?? 'unknown';
    });
    this.ready.catch(() => this.kill());
  }

  get view(): string {
    return path.join(this.dir, 'view');
  }
  get inbox(): string {
    return path.join(this.dir, 'inbox');
  }
  get scratch(): string {
    return path.join(this.dir, 'scratch');
  }

  /** The next line the worker prints, or undefined when it died or took longer than `ms`. */
  private nextLine(ms: number): Promise<string | undefined> {
    const queued = this.lines.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (this.dead) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        const i = this.pending.indexOf(done);
        if (i >= 0) this.pending.splice(i, 1);
        resolve(undefined);
      }, ms);
      const done = (line: string | undefined): void => {
        clearTimeout(timer);
        resolve(line);
      };
      this.pending.push(done);
    });
  }

  /** Sends one run and waits for the zygote's answer. */
  async send(op: Record<string, unknown>, waitMs: number): Promise<Record<string, unknown> | undefined> {
    if (this.dead) return undefined;
    this.child.stdin?.write(`${JSON.stringify(op)}\n`);
    const line = await this.nextLine(waitMs);
    return line === undefined ? undefined : (JSON.parse(line) as Record<string, unknown>);
  }

  /** Kills the sandbox: bubblewrap's init dies with it, and so does every process of the namespace. */
  kill(): void {
    this.dead = true;
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

/** The local polars sandbox. */
export class BwrapPolarsPool implements PolarsSandbox {
  private readonly workers: Worker[] = [];
  private readonly waiting: (() => void)[] = [];
  private layout: BwrapLayout | { unavailable: string } | undefined;
  private readonly uidBase: number;
  private slots = 0;
  private spawned = 0;

  constructor(private readonly options: PolarsPoolOptions) {
    // A block of uids of its own per pool (RLIMIT_NPROC counts per uid): 64 per block.
    this.uidBase = 300_000 + ((process.pid * 7 + uidBlock++) % 10_000) * 64;
  }

  private get maxWorkers(): number {
    return this.options.maxWorkers ?? Math.max(1, Math.min(4, os.availableParallelism()));
  }

  private isolation(): BwrapLayout {
    this.layout ??= discoverLayout(this.options.pythonBin, this.options.codeDir);
    if ('unavailable' in this.layout) {
      throw new ServiceUnavailableError('the polars sandbox cannot isolate runs on this machine, so it runs none', { details: this.layout.unavailable });
    }
    return this.layout;
  }

  /** Starts a warm worker of the smallest tier ahead of the first request (errors surface later). */
  warm(): void {
    try {
      if (this.workers.length === 0) void this.spawn(2).ready.catch(() => undefined);
    } catch {
      // No isolation: the first request says so.
    }
  }

  async version(): Promise<string> {
    const worker = this.workers.find((w) => !w.dead) ?? this.spawn(2);
    return worker.ready;
  }

  /** Kills every worker (tests, shutdown). */
  close(): void {
    for (const worker of [...this.workers]) this.retire(worker);
  }

  private spawn(tier: PolarsTier): Worker {
    const layout = this.isolation();
    const slot = this.slots++ % 64;
    const uid = this.uidBase + slot;
    // Fresh every time: nothing a previous worker (another uid) left can be in the way.
    const dir = path.join(this.options.stateDir, `w${uid}-${process.pid}-${this.spawned++}`);
    rmSync(dir, { recursive: true, force: true });
    const threads = Math.max(1, Math.min(tier, os.availableParallelism()));
    // Directories first (synchronously: bubblewrap binds them at start).
    for (const sub of ['view', 'inbox', 'scratch']) mkdirSync(path.join(dir, sub), { recursive: true });
    for (const d of [this.options.stateDir, dir, path.join(dir, 'view'), path.join(dir, 'inbox')]) chmodSync(d, 0o755);
    chownSync(path.join(dir, 'scratch'), uid, uid);
    chmodSync(path.join(dir, 'scratch'), 0o700);
    const worker = new Worker(tier, uid, dir, this.options, layout, threads);
    this.workers.push(worker);
    return worker;
  }

  private memoryBytes(tier: PolarsTier): number {
    const perVcpu = this.options.memoryPerVcpu ?? 2 * 1024 ** 3;
    return Math.max(1024 ** 3, Math.floor(Math.min(tier * perVcpu, os.totalmem() * 0.6)));
  }

  /** An idle worker of at least the tier (the smallest such), a new one, or the next one freed. */
  private async acquire(tier: PolarsTier): Promise<Worker> {
    for (;;) {
      this.prune();
      const idle = this.workers.filter((w) => !w.busy && w.tier >= tier).sort((a, b) => a.tier - b.tier)[0];
      if (idle) {
        idle.busy = true;
        return idle;
      }
      if (this.workers.length >= this.maxWorkers) {
        // Make room by retiring an idle worker of a smaller tier, else wait for one to be freed.
        const small = this.workers.find((w) => !w.busy);
        if (small) {
          this.retire(small);
          continue;
        }
        await new Promise<void>((resolve) => this.waiting.push(resolve));
        continue;
      }
      const fresh = this.spawn(tier);
      fresh.busy = true;
      return fresh;
    }
  }

  private prune(): void {
    for (const worker of this.workers.filter((w) => w.dead)) this.retire(worker);
  }

  private retire(worker: Worker): void {
    worker.kill();
    const i = this.workers.indexOf(worker);
    if (i >= 0) this.workers.splice(i, 1);
    void rm(worker.dir, { recursive: true, force: true }).catch(() => undefined);
  }

  private release(worker: Worker): void {
    worker.busy = false;
    if (worker.dead) {
      this.retire(worker);
      // Keep one warm worker of the smallest tier: the replacement of a dead one starts now.
      if (!this.workers.some((w) => w.tier === 2)) this.warm();
    }
    this.waiting.shift()?.();
  }

  async run(run: SandboxRun): Promise<SandboxResult> {
    const worker = await this.acquire(run.vcpus);
    try {
      await worker.ready;
      return await this.runOn(worker, run);
    } finally {
      await Promise.all([emptyDir(worker.view), emptyDir(worker.inbox)]).catch(() => worker.kill());
      this.release(worker);
    }
  }

  private async runOn(worker: Worker, run: SandboxRun): Promise<SandboxResult> {
    const tables: Record<string, string> = {};
    for (const table of run.tables) {
      const root = localPath(table.location);
      const metadata = localPath(table.metadataLocation);
      if (!within(root, this.options.warehouse) || !within(metadata, root)) throw new Error(`table files outside the warehouse: ${table.location}`);
      await linkTree(root, path.join(worker.view, path.relative(this.options.warehouse, root)));
      for (const name of table.names) tables[name] = metadata;
    }
    const request = sandboxRequest(run, tables);
    await writeFile(path.join(worker.inbox, 'request.json'), JSON.stringify(request), { mode: 0o644 });
    const timeoutS = Math.max(1, Math.min(this.options.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS, (run.timeoutMs ?? Infinity) / 1000));
    const op = {
      op: 'run',
      task: 'run',
      // SQL runs no caller code, so it may reuse the worker's warm SQL child; scripts get a fresh fork.
      reuse: run.source.kind === 'sql',
      timeout_s: timeoutS,
      memory_bytes: this.memoryBytes(worker.tier),
      max_processes: this.options.maxProcesses ?? 256,
      max_file_bytes: 8 * 1024 ** 3,
    };
    const status = await worker.send(op, timeoutS * 1000 + GRACE_MS);
    if (!status) {
      worker.kill();
      throw new ValidationError('the polars sandbox stopped while running the request; it was replaced', { details: 'the worker process died or stopped answering' });
    }
    if (status.ok !== true) return this.failed(status as unknown as Answer);
    const answer = await readAnswer(worker.scratch);
    if (!answer.ok) return this.failed(answer);
    const compute = { vcpus: worker.tier, mode: 'sandbox', instanceType: `local-sandbox-${worker.tier}vcpu` };
    const results = answer.results ?? { columns: [], column_types: [], rows: [] };
    const file = answer.output_file ? await this.stageResult(worker.scratch) : undefined;
    return { results, rowCount: answer.row_count ?? results.rows.length, runMs: answer.run_ms ?? 0, compute, ...(file ? { file } : {}) };
  }

  private failed(answer: Answer): never {
    const details = answer.details ?? answer.error ?? 'no details';
    if (answer.kind === 'internal') throw new Error(`polars sandbox failure: ${answer.error ?? ''} ${details}`);
    throw new ValidationError(answer.error ?? 'the polars run failed', { details });
  }

  /** Copies the run's Parquet result out of the sandbox (the next request wipes the scratch). */
  private async stageResult(scratch: string): Promise<{ path: string; release(): Promise<void> }> {
    const stage = await mkdtemp(path.join(this.options.stateDir, 'result-'));
    const { handle } = await openSandboxFile(path.join(scratch, 'request'), 'result.parquet');
    const target = path.join(stage, 'result.parquet');
    await pipeline(handle.createReadStream(), createWriteStream(target, { mode: 0o644 }));
    return { path: target, release: () => rm(stage, { recursive: true, force: true }) };
  }
}

const localPath = (uri: string): string => path.resolve(uri.startsWith('file:') ? fileURLToPath(uri) : uri);

const emptyDir = async (dir: string): Promise<void> => {
  for (const entry of await readdir(dir)) await rm(path.join(dir, entry), { recursive: true, force: true });
};

const readAnswer = async (scratch: string): Promise<Answer> => {
  const { handle, size } = await openSandboxFile(scratch, 'answer.json');
  try {
    if (size > MAX_ANSWER_BYTES) throw new ValidationError('the result is too large to return inline; write it to a table with destination');
    return JSON.parse(await handle.readFile('utf8')) as Answer;
  } finally {
    await handle.close();
  }
};
