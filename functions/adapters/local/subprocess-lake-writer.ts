/**
 * @module subprocess-lake-writer
 * Local LakeWriter: runs the Python lake writer (`python -m lakewriter`, pyiceberg) as a child
 * process per request, one JSON request on stdin and one JSON answer on stdout.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ExecutionError } from '#domain/errors';
import { ProtocolLakeWriter, type LakeWriterAnswer } from '#domain/lake/lake-writer-protocol';

/** Subprocess-backed {@link LakeWriter}. */
export class SubprocessLakeWriter extends ProtocolLakeWriter {
  constructor(
    private readonly pythonBin: string,
    private readonly repoRoot: string,
    private readonly home: string,
  ) {
    super();
  }

  protected send(request: Record<string, unknown>): Promise<LakeWriterAnswer> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.pythonBin, ['-W', 'ignore', '-m', 'lakewriter'], {
        cwd: path.join(this.repoRoot, 'functions', 'lakewriter'),
        env: { ...process.env, LAKELINE_PROFILE: 'local', LAKELINE_HOME: this.home },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.on('error', (e) => reject(new ExecutionError(`the lake writer could not start: ${e.message}`)));
      child.on('close', () => {
        try {
          resolve(JSON.parse(out) as LakeWriterAnswer);
        } catch {
          reject(new ExecutionError(`the lake writer failed: ${err.trim().split('\n').slice(-1)[0] ?? 'no output'}`));
        }
      });
      child.stdin.end(JSON.stringify(request));
    });
  }
}
