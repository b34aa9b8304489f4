/**
 * @module lambda-lake-writer
 * The AWS LakeWriter: invokes the Python lake writer Lambda (pyiceberg on Glue) with the same
 * requests the local subprocess takes.
 */
import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import { ExecutionError } from '#domain/errors';
import { ProtocolLakeWriter, type LakeWriterAnswer } from '#domain/lake/lake-writer-protocol';

/** Lambda-backed {@link LakeWriter}. */
export class LambdaLakeWriter extends ProtocolLakeWriter {
  constructor(
    private readonly lambda: LambdaClient,
    private readonly functionName: string,
  ) {
    super();
  }

  protected async send(request: Record<string, unknown>): Promise<LakeWriterAnswer> {
    const out = await this.lambda.send(new InvokeCommand({ FunctionName: this.functionName, Payload: Buffer.from(JSON.stringify(request)) }));
    const answer = JSON.parse(Buffer.from(out.Payload ?? new Uint8Array()).toString('utf8') || '{}') as LakeWriterAnswer & { errorMessage?: string };
    // An unhandled exception in the function: Lambda's own error document, not the writer's answer.
    if (out.FunctionError || answer.errorMessage) throw new ExecutionError(`the lake writer failed: ${answer.errorMessage ?? out.FunctionError}`);
    return answer;
  }
}
