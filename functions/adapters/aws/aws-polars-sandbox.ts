/**
 * @module aws-polars-sandbox
 * The polars sandbox in AWS: one {@link SandboxTransport} per tier (a Python Lambda for the tiers
 * that fit Lambda, ECS Fargate for the larger ones), each running the request in a forked child
 * with the same limits as the local workers (`lakeline_polars.lambda_handler`). A tier without a
 * transport in this deployment is refused with a 400 naming the tiers that exist.
 *
 * Every run gets credentials of its own ({@link SandboxCredentialIssuer}): read access to the
 * directories of its input tables only and, for a destination, write access to its own staging
 * prefix. The sandbox's execution role has no data access, so what a run finds in its process
 * opens nothing beyond the request's tables. Scripts go only to transports that can confine
 * caller Python ({@link SandboxTransport.confinesScripts}: the Fargate tiers, not the Lambda ones). A destination's result is uploaded by the run to
 * `<staging>/<run id>/result.parquet`, which the lake writer reads with its own role; a lifecycle
 * rule expires the staging prefix after a day (docs/adr/0022-polars-sandbox.md).
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { CapabilityError, ServiceUnavailableError, ValidationError } from '#domain/errors';
import { sandboxRequest, type SandboxResult, type SandboxRun } from '#domain/polars/sandbox';
import type { PolarsSandbox } from '#domain/polars/ports';
import type { SandboxCredentialIssuer, SandboxTransport } from './polars-sandbox-transport.ts';

/** The sandbox's answer (`execute.run_request`, or the zygote's for a run that died). */
const answerSchema = z.object({
  ok: z.boolean(),
  kind: z.string().optional(),
  error: z.string().optional(),
  details: z.string().optional(),
  polars: z.string().optional(),
  results: z.object({ columns: z.array(z.string()), column_types: z.array(z.string()), rows: z.array(z.array(z.unknown())) }).optional(),
  row_count: z.number().optional(),
  run_ms: z.number().optional(),
  output_uri: z.string().optional(),
});
type Answer = z.infer<typeof answerSchema>;

/**
 * A run's wall-clock limit: Lambda's own limit is 900 s and so is the credentials' lifetime; the
 * run stops a little earlier so its answer (and its result upload) still get out.
 */
export const RUN_SECONDS = 880;
/** What the transport may take beyond the run's limit (start, upload, answer). */
const GRACE_MS = 20_000;

/** Settings of {@link AwsPolarsSandbox}. */
export interface AwsPolarsSandboxOptions {
  /** `s3://bucket/prefix` where destination runs stage their result (the lake writer reads it there). */
  readonly stagingUri: string;
  /** Unique per run: names the credentials' session and the staging directory. @default randomUUID */
  readonly newRunId?: () => string;
}

const directoryOf = (location: string): string => (location.endsWith('/') ? location : `${location}/`);

/** The polars sandbox in AWS. */
export class AwsPolarsSandbox implements PolarsSandbox {
  private readonly stagingUri: string;
  private readonly newRunId: () => string;

  constructor(
    private readonly transports: Readonly<Record<number, SandboxTransport>>,
    private readonly credentials: SandboxCredentialIssuer,
    options: AwsPolarsSandboxOptions,
  ) {
    if (!/^s3:\/\/[^/]+\/.+/.test(options.stagingUri)) throw new Error(`configuration: the polars staging URI must be s3://bucket/prefix, not ${options.stagingUri}`);
    this.stagingUri = options.stagingUri.replace(/\/+$/, '');
    this.newRunId = options.newRunId ?? randomUUID;
  }

  /**
   * The smallest tier with a transport that has at least the vCPUs asked for and, for a script, can
   * confine one. A larger tier serving a smaller request is the contract's rule for warm workers:
   * `compute` then reports (and usage bills) the larger one.
   */
  private transportFor(vcpus: number, script = false): [number, SandboxTransport] {
    const tiers = Object.keys(this.transports).map(Number).sort((a, b) => a - b);
    const tier = tiers.find((t) => t >= vcpus);
    if (tier === undefined) {
      throw new CapabilityError(`a ${vcpus}-vCPU polars sandbox is not available in this deployment; use vcpus ${tiers.join(' or ') || '(none configured)'}`);
    }
    if (!script) return [tier, this.transports[tier] as SandboxTransport];
    const confining = tiers.find((t) => t >= vcpus && (this.transports[t] as SandboxTransport).confinesScripts);
    if (confining === undefined) {
      throw new ServiceUnavailableError('scripts are not available in this deployment: none of its polars sandboxes can confine a script', {
        details:
          'the Lambda sandboxes (2 and 4 vCPUs) cannot hide the Lambda runtime API from a script; scripts run on the ECS Fargate tiers (8 and 16 vCPUs), which this deployment has not provisioned (docs/adr/0022-polars-sandbox.md). Polars SQL (mode query) is available.',
      });
    }
    return [confining, this.transports[confining] as SandboxTransport];
  }

  private static parse(raw: unknown): Answer {
    const parsed = answerSchema.safeParse(raw);
    if (!parsed.success) throw new Error(`the polars sandbox answered in an unexpected shape: ${parsed.error.message.slice(0, 300)}`);
    return parsed.data;
  }

  async version(): Promise<string> {
    const [, transport] = this.transportFor(2);
    return AwsPolarsSandbox.parse(await transport.invoke({ op: 'version' }, Date.now() + 60_000)).polars ?? 'unknown';
  }

  async run(run: SandboxRun): Promise<SandboxResult> {
    const [tier, transport] = this.transportFor(run.vcpus, run.source.kind === 'script');
    const runId = this.newRunId();
    const outputUri = run.toFile ? `${this.stagingUri}/${runId}/result.parquet` : undefined;
    const readPrefixes = run.tables.map((t) => directoryOf(t.location));
    // A run that touches no lake file (a script over literals) gets no credentials at all.
    const credentials =
      readPrefixes.length > 0 || run.toFile
        ? await this.credentials.issue({ orgId: run.orgId, requestId: runId, readPrefixes, ...(run.toFile ? { writePrefix: `${this.stagingUri}/${runId}/` } : {}) })
        : undefined;
    // The local pool's request (`execute.run_request` reads both), plus where to upload the result.
    const tables = Object.fromEntries(run.tables.flatMap((t) => t.names.map((n) => [n, t.metadataLocation])));
    const request = { ...sandboxRequest(run, tables), ...(outputUri ? { output_uri: outputUri } : {}) };
    const timeoutS = Math.max(1, Math.min(RUN_SECONDS, (run.timeoutMs ?? Infinity) / 1000));
    const payload = {
      op: 'run',
      request,
      timeout_s: timeoutS,
      ...(credentials ? { credentials: { access_key_id: credentials.accessKeyId, secret_access_key: credentials.secretAccessKey, session_token: credentials.sessionToken } } : {}),
    };
    const answer = AwsPolarsSandbox.parse(await transport.invoke(payload, Date.now() + timeoutS * 1000 + GRACE_MS));
    if (!answer.ok) {
      if (answer.kind === 'internal') throw new Error(`polars sandbox failure: ${answer.error ?? ''} ${answer.details ?? ''}`.trim());
      throw new ValidationError(answer.error ?? 'the polars run failed', { details: answer.details ?? answer.error ?? 'no details' });
    }
    if (outputUri && answer.output_uri !== outputUri) throw new Error(`the polars sandbox did not stage its result at ${outputUri}`);
    const results = answer.results ?? { columns: [], column_types: [], rows: [] };
    const compute = { vcpus: tier, mode: 'sandbox', instanceType: transport.instanceType };
    // The staged object is not deleted here (the caller's role cannot); the staging lifecycle rule expires it.
    const file = outputUri ? { file: { path: outputUri, release: async () => undefined } } : {};
    return { results, rowCount: answer.row_count ?? results.rows.length, runMs: answer.run_ms ?? 0, compute, ...file };
  }
}
