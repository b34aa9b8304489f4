/**
 * @module lambda-polars-sandbox
 * The polars sandbox in AWS: one Python Lambda per tier that fits Lambda (2 and 4 vCPUs; Lambda
 * gives one vCPU per 1,769 MB), invoked synchronously with the request; the function runs it in a
 * forked child with the same limits as the local workers (`lakeline_polars.lambda_handler`). A tier
 * without a function in this deployment is refused with a 400 naming the tiers that exist
 * (docs/decisions.md#decisions-the-polars-endpoint-and-its-sandbox-issue-6: 8–32 vCPUs).
 */
import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import { CapabilityError, ServiceUnavailableError, ValidationError } from '#domain/errors';
import type { PolarsSandbox, SandboxResult, SandboxRun } from '#domain/polars/sandbox';

interface Answer {
  readonly ok: boolean;
  readonly kind?: string;
  readonly error?: string;
  readonly details?: string;
  readonly polars?: string;
  readonly results?: { columns: string[]; column_types: string[]; rows: unknown[][] };
  readonly row_count?: number;
  readonly run_ms?: number;
}

/** Lambda's own limit is 900 s; the run stops a little earlier so its answer still gets out. */
const LAMBDA_RUN_SECONDS = 880;

/** The sandbox Lambdas, by tier. */
export class LambdaPolarsSandbox implements PolarsSandbox {
  constructor(
    private readonly client: Pick<LambdaClient, 'send'>,
    private readonly functions: Readonly<Record<number, string>>,
  ) {}

  private functionFor(vcpus: number): [number, string] {
    const tiers = Object.keys(this.functions).map(Number).sort((a, b) => a - b);
    const tier = tiers.find((t) => t >= vcpus);
    if (tier === undefined) {
      throw new CapabilityError(`a ${vcpus}-vCPU polars sandbox is not available in this deployment; use vcpus ${tiers.join(' or ') || '(none configured)'}`);
    }
    return [tier, this.functions[tier] as string];
  }

  private async invoke(name: string, payload: unknown): Promise<Answer> {
    const out = await this.client.send(new InvokeCommand({ FunctionName: name, Payload: new TextEncoder().encode(JSON.stringify(payload)) }));
    const text = new TextDecoder().decode(out.Payload ?? new Uint8Array());
    if (out.FunctionError) throw new Error(`polars sandbox function failed: ${text.slice(0, 500)}`);
    return JSON.parse(text) as Answer;
  }

  async version(): Promise<string> {
    const [, name] = this.functionFor(2);
    return (await this.invoke(name, { op: 'version' })).polars ?? 'unknown';
  }

  async run(run: SandboxRun): Promise<SandboxResult> {
    // A script could use the function's own credentials (they are in its environment) to read
    // every org's files; scripts wait for per-request credentials scoped to the request's tables.
    if (run.source.kind === 'script') {
      throw new ServiceUnavailableError('scripts are not available in this deployment yet: the AWS sandbox cannot confine a script to the request\'s tables', {
        details: 'the sandbox Lambda needs per-request credentials scoped to the input tables (docs/decisions.md#decisions-the-polars-endpoint-and-its-sandbox-issue-6); polars SQL (mode query) is available',
      });
    }
    if (run.toFile) throw new CapabilityError('destination is not available in this deployment yet: the lake writer cannot read the sandbox results');
    const [tier, name] = this.functionFor(run.vcpus);
    const tables = Object.fromEntries(run.tables.flatMap((t) => t.names.map((n) => [n, t.metadataLocation])));
    const request = {
      mode: 'query',
      query: run.source.sql,
      tables,
      catalog: run.catalog,
      output: false,
      max_result_bytes: run.maxResultBytes,
    };
    const timeout = Math.min(LAMBDA_RUN_SECONDS, (run.timeoutMs ?? Infinity) / 1000);
    const answer = await this.invoke(name, { op: 'run', request, timeout_s: timeout });
    if (!answer.ok) {
      if (answer.kind === 'internal') throw new Error(`polars sandbox failure: ${answer.error ?? ''}`);
      throw new ValidationError(answer.error ?? 'the polars run failed', { details: answer.details ?? answer.error ?? 'no details' });
    }
    const results = answer.results ?? { columns: [], column_types: [], rows: [] };
    return { results, rowCount: answer.row_count ?? results.rows.length, runMs: answer.run_ms ?? 0, compute: { vcpus: tier, mode: 'sandbox', instanceType: `lambda-${tier}vcpu` } };
  }
}
