/**
 * @module cli
 * Runs the `lakeline` CLI exactly as users do (`bin/lakeline.mjs`, a child process) and captures
 * its output and exit status.
 */
import { spawn } from 'node:child_process';
import { REPO_ROOT } from './local-stack-process.ts';

/** What one CLI run printed and returned. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `lakeline <args>`; `env` is added to the test process's environment. */
export const runLakeline = (args: readonly string[], env: Record<string, string> = {}): Promise<CliRun> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/lakeline.mjs', ...args], { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });

/** Runs `lakeline <args> --json` and parses stdout; throws with stderr when it fails. */
export const lakelineJson = async <T = unknown>(args: readonly string[], env: Record<string, string> = {}): Promise<T> => {
  const run = await runLakeline([...args, '--json'], env);
  if (run.code !== 0) throw new Error(`lakeline ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
};
