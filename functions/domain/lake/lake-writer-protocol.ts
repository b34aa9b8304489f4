/**
 * @module lake-writer-protocol
 * The lake writer's request/answer protocol (`functions/lakewriter`: one JSON request, one JSON
 * answer `{ok, result}` or `{ok: false, kind, error}`), shared by every transport — a subprocess
 * locally, a Lambda invocation in AWS — so the commands and the error mapping exist once.
 */
import { ExecutionError, ValidationError } from '../errors.ts';
import type { LakeWrite, LakeWriteResult, LakeWriter } from './ports.ts';
import type { TableName } from '../core/names.ts';

/** The lake writer's answer to one request. */
export interface LakeWriterAnswer {
  readonly ok?: boolean;
  readonly result?: Record<string, unknown>;
  readonly error?: string;
  /** `invalid` when the request itself is wrong (a 400), anything else a failure. */
  readonly kind?: string;
}

/** A {@link LakeWriter} over a transport that delivers one request and returns its answer. */
export abstract class ProtocolLakeWriter implements LakeWriter {
  /** Delivers one request; throws ExecutionError when the writer gave no answer at all. */
  protected abstract send(request: Record<string, unknown>): Promise<LakeWriterAnswer>;

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

  async drop(orgId: string, name: TableName, options: { readonly purge?: boolean } = {}): Promise<boolean> {
    return (await this.call({ command: 'drop', org_id: orgId, namespace: name.namespace, table: name.table, ...(options.purge ? { purge: true } : {}) })).dropped === true;
  }

  async demoLoad(orgId: string, scale: number, namespace = 'tpch'): Promise<Record<string, number>> {
    return (await this.call({ command: 'demo_load', org_id: orgId, scale, namespace })).tables as Record<string, number>;
  }

  /** Runs one command of the lake writer by name (the lineage tables' commands use this). */
  command(name: string, fields: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.call({ command: name, ...fields });
  }

  private async call(request: Record<string, unknown>): Promise<Record<string, unknown>> {
    const answer = await this.send(request);
    if (answer.ok) return answer.result ?? {};
    throw answer.kind === 'invalid' ? new ValidationError(answer.error ?? 'invalid lake write') : new ExecutionError(answer.error ?? 'lake write failed');
  }
}
