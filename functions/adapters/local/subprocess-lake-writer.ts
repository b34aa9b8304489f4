/**
 * @module subprocess-lake-writer
 * Local LakeWriter: runs the Python lake writer (`python -m lakewriter`, pyiceberg) as a child
 * process per request, one JSON request on stdin and one JSON answer on stdout.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ExecutionError, ValidationError } from '#domain/errors';
import type { LakeWrite, LakeWriteResult, LakeWriter } from '#domain/lake/catalog';
import type { TableName } from '#domain/lake/names';

interface Answer {
  readonly ok: boolean;
  readonly result?: Record<string, unknown>;
  readonly error?: string;
  readonly kind?: string;
}

/** Subprocess-backed {@link LakeWriter}. */
export class SubprocessLakeWriter implements LakeWriter {
  constructor(
    private readonly pythonBin: string,
    private readonly repoRoot: string,
    private readonly home: string,
  ) {}

  async write(request: LakeWrite): Promise<LakeWriteResult> {
    const r = await this.call({ command: 'write', org_id: request.orgId, namespace: request.namespace, table: request.table, parquet: request.parquet, mode: request.mode });
    return {
      table: String(r.table),
      rowsWritten: Number(r.rows_written),
      mode: r.mode as LakeWriteResult['mode'],
      snapshotId: (r.snapshot_id as string | null) ?? null,
      metadataLocation: String(r.metadata_location),
    };
  }

  async drop(orgId: string, name: TableName): Promise<boolean> {
    const r = await this.call({ command: 'drop', org_id: orgId, namespace: name.namespace, table: name.table });
    return r.dropped === true;
  }

  async demoLoad(orgId: string, scale: number, namespace = 'tpch'): Promise<Record<string, number>> {
    const r = await this.call({ command: 'demo_load', org_id: orgId, scale, namespace });
    return r.tables as Record<string, number>;
  }

  private call(request: Record<string, unknown>): Promise<Record<string, unknown>> {
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
        let answer: Answer;
        try {
          answer = JSON.parse(out) as Answer;
        } catch {
          return reject(new ExecutionError(`the lake writer failed: ${err.trim().split('\n').slice(-1)[0] ?? 'no output'}`));
        }
        if (answer.ok) return resolve(answer.result ?? {});
        reject(answer.kind === 'invalid' ? new ValidationError(answer.error ?? 'invalid lake write') : new ExecutionError(answer.error ?? 'lake write failed'));
      });
      child.stdin.end(JSON.stringify(request));
    });
  }
}
