/**
 * @module sts-sandbox-credentials
 * Per-run credentials of the polars sandbox: STS `AssumeRole` of the sandbox data role (the only
 * role with access to table files that a sandbox can use; the sandboxes' execution roles have
 * none) with the run's session policy (`sandbox-session-policy.ts`), for 15 minutes (STS's
 * minimum). The policy's read root is the org's own warehouse directory, so even a wrong table
 * location could not open another org's files.
 */
import { AssumeRoleCommand, type STSClient } from '@aws-sdk/client-sts';
import { catalogNameForOrg } from '#domain/core/names';
import { sandboxSessionPolicy } from './sandbox-session-policy.ts';
import type { SandboxCredentialIssuer, SandboxScope, ScopedCredentials } from './polars-sandbox-transport.ts';

/** How long a run's credentials last (STS's minimum; a Lambda run stops before). */
export const CREDENTIALS_SECONDS = 900;

/** Settings of {@link StsSandboxCredentialIssuer}. */
export interface StsSandboxCredentialIssuerOptions {
  /** The sandbox data role (`arn:<partition>:iam::<account>:role/...`). */
  readonly roleArn: string;
  /** `s3://bucket/warehouse`: the warehouse root (each org below it at `org_<id>/`). */
  readonly warehouseUri: string;
  /** `s3://bucket/polars-staging`: where destination runs stage their result (same bucket). */
  readonly stagingUri: string;
}

const ROLE_ARN = /^arn:(aws[a-z-]*):iam::\d{12}:role\/[\w+=,.@/-]+$/;

/** Splits `s3://bucket/prefix` into the bucket and the prefix (no slashes around it). */
const splitUri = (name: string, uri: string): { bucket: string; prefix: string } => {
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])\/([A-Za-z0-9_.=+-]+(?:\/[A-Za-z0-9_.=+-]+)*)\/?$/.exec(uri);
  if (!match) throw new Error(`configuration: ${name} must be s3://bucket/prefix, not ${uri}`);
  return { bucket: match[1] as string, prefix: match[2] as string };
};

/**
 * The session name of a run: `polars-<request id>`, only the characters STS accepts, at most 64.
 * CloudTrail records it, so a run's S3 reads can be traced to its request.
 */
export const sessionNameFor = (requestId: string): string => `polars-${requestId.replace(/[^\w+=,.@-]/g, '-')}`.slice(0, 64);

/** Issues a run's credentials with STS. */
export class StsSandboxCredentialIssuer implements SandboxCredentialIssuer {
  private readonly partition: string;
  private readonly bucket: string;
  private readonly warehousePrefix: string;
  private readonly stagingPrefix: string;

  /** @throws Error at cold start when the settings are malformed (the role ARN, the two URIs, different buckets) */
  constructor(
    private readonly sts: Pick<STSClient, 'send'>,
    private readonly options: StsSandboxCredentialIssuerOptions,
  ) {
    const arn = ROLE_ARN.exec(options.roleArn);
    if (!arn) throw new Error(`configuration: the sandbox data role must be an IAM role ARN, not ${options.roleArn}`);
    this.partition = arn[1] as string;
    const warehouse = splitUri('the warehouse URI', options.warehouseUri);
    const staging = splitUri('the polars staging URI', options.stagingUri);
    if (warehouse.bucket !== staging.bucket) throw new Error('configuration: the polars staging prefix must be in the warehouse bucket');
    this.bucket = warehouse.bucket;
    this.warehousePrefix = warehouse.prefix;
    this.stagingPrefix = staging.prefix;
  }

  async issue(scope: SandboxScope): Promise<ScopedCredentials> {
    const policy = sandboxSessionPolicy({
      partition: this.partition,
      bucket: this.bucket,
      readRoot: `${this.warehousePrefix}/${catalogNameForOrg(scope.orgId)}/`,
      writeRoot: `${this.stagingPrefix}/`,
      readPrefixes: scope.readPrefixes,
      ...(scope.writePrefix === undefined ? {} : { writePrefix: scope.writePrefix }),
    });
    const out = await this.sts.send(
      new AssumeRoleCommand({ RoleArn: this.options.roleArn, RoleSessionName: sessionNameFor(scope.requestId), Policy: policy, DurationSeconds: CREDENTIALS_SECONDS }),
    );
    const c = out.Credentials;
    if (!c?.AccessKeyId || !c.SecretAccessKey || !c.SessionToken) throw new Error('STS AssumeRole answered without credentials');
    return {
      accessKeyId: c.AccessKeyId,
      secretAccessKey: c.SecretAccessKey,
      sessionToken: c.SessionToken,
      expiration: (c.Expiration ?? new Date(Date.now() + CREDENTIALS_SECONDS * 1000)).toISOString(),
    };
  }
}
