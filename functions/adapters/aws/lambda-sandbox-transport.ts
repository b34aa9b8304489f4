/**
 * @module lambda-sandbox-transport
 * The {@link SandboxTransport} of the polars tiers that fit Lambda (2 and 4 vCPUs): one synchronous
 * invocation of the tier's Python function (`lakeline_polars.lambda_handler`) per run. The call is
 * abandoned at the deadline; the function's own wall-clock limit has stopped the run by then.
 */
import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import type { SandboxTransport } from './polars-sandbox-transport.ts';

/** One tier's sandbox function. */
export class LambdaSandboxTransport implements SandboxTransport {
  readonly instanceType: string;
  /**
   * No: a forked child shares the function's network view, so a script could call the Lambda
   * runtime API (127.0.0.1:9001), answer its own invocation and ask for the next one — another
   * org's request and credentials. Lambda offers no way to hide that endpoint from a process
   * (no network namespaces, no second uid). SQL runs here: it executes no caller Python.
   */
  readonly confinesScripts = false;

  constructor(
    private readonly client: Pick<LambdaClient, 'send'>,
    private readonly functionName: string,
    vcpus: number,
  ) {
    this.instanceType = `lambda-${vcpus}vcpu`;
  }

  async invoke(payload: unknown, deadlineMs: number): Promise<unknown> {
    const abortSignal = AbortSignal.timeout(Math.max(1, deadlineMs - Date.now()));
    const out = await this.client.send(new InvokeCommand({ FunctionName: this.functionName, Payload: new TextEncoder().encode(JSON.stringify(payload)) }), { abortSignal });
    const text = new TextDecoder().decode(out.Payload ?? new Uint8Array());
    if (out.FunctionError) throw new Error(`polars sandbox function failed: ${text.slice(0, 500)}`);
    return JSON.parse(text) as unknown;
  }
}
