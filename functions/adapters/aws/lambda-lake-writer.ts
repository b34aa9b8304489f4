/**
 * @module lambda-lake-writer
 * The AWS LakeWriter: invokes the Python lake writer Lambda (pyiceberg on Glue) with the same
 * requests the local subprocess takes.
 */
import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import { ExecutionError, ValidationError } from '#domain/errors';
import type { LakeWrite, LakeWriteResult, LakeWriter } from '#domain/lake/catalog';
import type { TableName } from '#domain/lake/names';

/** Lambda-backed {@link LakeWriter}. */
export class LambdaLakeWriter implements LakeWriter {
  constructor(
    private readonly lambda: LambdaClient,
    private readonly functionName: string,
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
    return (await this.call({ command: 'drop', org_id: orgId, namespace: name.namespace, table: name.table })).dropped === true;
  }

  async demoLoad(orgId: string, scale: number, namespace = 'tpch'): Promise<Record<string, number>> {
    return (await this.call({ command: 'demo_load', org_id: orgId, scale, namespace })).tables as Record<string, number>;
  }

  private async call(request: Record<string, unknown>): Promise<Record<string, unknown>> {
    const out = await this.lambda.send(new InvokeCommand({ FunctionName: this.functionName, Payload: Buffer.from(JSON.stringify(request)) }));
    const answer = JSON.parse(Buffer.from(out.Payload ?? new Uint8Array()).toString('utf8') || '{}') as { ok?: boolean; result?: Record<string, unknown>; error?: string; kind?: string; errorMessage?: string };
    if (out.FunctionError || answer.errorMessage) throw new ExecutionError(`the lake writer failed: ${answer.errorMessage ?? out.FunctionError}`);
    if (answer.ok) return answer.result ?? {};
    throw answer.kind === 'invalid' ? new ValidationError(answer.error ?? 'invalid lake write') : new ExecutionError(answer.error ?? 'lake write failed');
  }
}
