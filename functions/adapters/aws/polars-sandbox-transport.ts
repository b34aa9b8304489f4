/**
 * @module polars-sandbox-transport
 * The seams of the polars sandbox in AWS, shared by its two compute kinds: a per-tier
 * {@link SandboxTransport} (Lambda for the tiers that fit Lambda, ECS Fargate for the larger ones)
 * that carries one JSON payload to `lakeline_polars`' handler and brings its JSON answer back, and
 * a {@link SandboxCredentialIssuer} that gives each run short-lived credentials limited to the
 * run's own table files (and its own staging prefix for a destination).
 */

/** Carries one sandbox invocation to a tier's compute and returns the handler's answer. */
export interface SandboxTransport {
  /** What `compute.instanceType` reports for runs on this transport (`lambda-2vcpu`, `fargate-8vcpu`). */
  readonly instanceType: string;
  /**
   * Whether caller Python (a script) may run here. A script must not be able to reach anything
   * beyond its own run: no other org's request, no credentials but its run's. The Lambda tiers
   * cannot promise that (the script's process can reach the Lambda runtime API on localhost and
   * could take the next invocation, another org's, with its credentials); the Fargate tiers run
   * scripts as a separate uid that sees neither the queue nor the task role.
   */
  readonly confinesScripts: boolean;
  /**
   * Sends the payload (`{op, request, timeout_s, credentials?}`, as `lakeline_polars.lambda_handler`
   * reads it) and resolves with the handler's answer object.
   * @throws when the compute failed (not when the script failed: that is an answer with `ok: false`)
   */
  invoke(payload: unknown, deadlineMs: number): Promise<unknown>;
}

/** Short-lived AWS credentials for one sandbox run. */
export interface ScopedCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken: string;
  /** ISO-8601. */
  readonly expiration: string;
}

/** What one sandbox run may touch in the warehouse bucket. */
export interface SandboxScope {
  readonly orgId: string;
  /** Unique per run; names the credentials' session and the staging prefix. */
  readonly requestId: string;
  /** `s3://bucket/prefix/` of each input table's directory: the run may read objects below them. */
  readonly readPrefixes: readonly string[];
  /** `s3://bucket/prefix/` the run may write its result file below (destination runs only). */
  readonly writePrefix?: string;
}

/** Issues {@link ScopedCredentials} for a {@link SandboxScope}. */
export interface SandboxCredentialIssuer {
  issue(scope: SandboxScope): Promise<ScopedCredentials>;
}
