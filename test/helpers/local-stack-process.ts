/**
 * @module local-stack-process
 * Runs `local/main.ts` as a child process — exactly what `npm run local` runs — on a free port with
 * its own state directory, for the HTTP suites and the restart tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Connection details of a running local stack. */
export interface StackInfo {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly orgId: string;
  readonly home: string;
  readonly dynamodbEndpoint: string;
}

/** A local stack child process. */
export interface StackProcess extends StackInfo {
  readonly child: ChildProcess;
  /** Everything the stack printed so far (stdout and stderr). */
  output(): string;
  /** Sends SIGINT (Ctrl-C) and waits for a clean exit; resolves with the exit code. */
  stop(): Promise<number | null>;
}

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A fresh temporary state directory. */
export const tempHome = (label = 'stack'): string => mkdtempSync(path.join(tmpdir(), `lakeline-${label}-`));

/**
 * Starts `tsx local/main.ts --port <port> --home <home>` in `root` (this checkout by default; a
 * benchmark may start another tree's stack); resolves once it printed its base URL.
 */
export const startStackProcess = (home: string, port = 0, extraEnv: Record<string, string> = {}, root = REPO_ROOT): Promise<StackProcess> =>
  new Promise((resolve, reject) => {
    // LAKELINE_CPU_PROF_DIR=<dir> writes a V8 CPU profile of the stack process there (benchmarks).
    const profile = process.env.LAKELINE_CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.LAKELINE_CPU_PROF_DIR}`] : [];
    const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'local/main.ts', '--port', String(port), '--home', home], {
      cwd: root,
      // The demo lineage seed (ADR 0044) is off unless a caller asks for it: suites and benchmarks
      // expect the demo org's lineage to hold only what they send, and its Spark write to be theirs.
      env: { ...process.env, LAKELINE_LOG_LEVEL: 'warn', LAKELINE_DEMO_LINEAGE: '0', ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let started = false;
    let stopping = false;
    // Only the tail: a crash report needs the last words, and a long run must not grow without bound.
    child.stderr?.on('data', (d: Buffer) => (err = `${err}${d.toString()}`.slice(-65_536)));
    child.stdout?.on('data', (d: Buffer) => {
      if (started) return;
      out += d.toString();
      if (!out.includes('base URL:')) return;
      // Once only: later output (a warning, "stopping…") may come while local.json is being rewritten.
      started = true;
      const info = JSON.parse(readFileSync(path.join(home, 'local.json'), 'utf8')) as StackInfo;
      resolve({
        ...info,
        home,
        child,
        output: () => out + err,
        stop: () =>
          new Promise((done) => {
            stopping = true;
            // A child killed by a signal has no exit code, only its signal: it has exited all the same.
            if (child.exitCode !== null || child.signalCode !== null) return done(child.exitCode);
            child.once('exit', (code) => done(code));
            child.kill('SIGINT');
          }),
      });
    });
    child.once('exit', (code, signal) => {
      if (!started) reject(new Error(`local stack exited with ${code}: ${err || out}`));
      // A stack that dies under running suites fails them all with ECONNREFUSED; say why here.
      else if (!stopping) console.error(`local stack on ${home} exited unexpectedly (code ${code}, signal ${signal}); its last stderr:\n${err}`);
    });
  });

/** Stacks on one home that a suite starts, crashes and starts again (restart and crash-safety suites). */
export interface CrashableStacks {
  /** Starts a stack on the home. */
  start(): Promise<StackProcess>;
  /** A crash: SIGKILL, no clean shutdown (and nothing left to stop afterwards). */
  crash(stack: StackProcess): Promise<void>;
  /** Stops every stack still running (for `afterAll`). */
  stopAll(): Promise<void>;
}

/** Stacks on `home`, each started with `extraEnv`. */
export const crashableStacks = (home: string, extraEnv: Record<string, string> = {}): CrashableStacks => {
  const running: StackProcess[] = [];
  const alive = (stack: StackProcess): boolean => stack.child.exitCode === null && stack.child.signalCode === null;
  return {
    start: async () => {
      const stack = await startStackProcess(home, 0, extraEnv);
      running.push(stack);
      return stack;
    },
    crash: (stack) => {
      running.splice(running.indexOf(stack), 1);
      return new Promise((resolve) => {
        if (!alive(stack)) return resolve();
        stack.child.once('exit', () => resolve());
        stack.child.kill('SIGKILL');
      });
    },
    stopAll: async () => {
      for (const stack of running) if (alive(stack)) await stack.stop();
    },
  };
};
