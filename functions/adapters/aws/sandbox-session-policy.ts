/**
 * @module sandbox-session-policy
 * The session policy of one polars sandbox run. The sandbox data role may read every org's table
 * files (it serves them all); each run's credentials are issued with an inline policy that STS
 * intersects with the role, so a run can read only the directories of its own input tables and,
 * for a destination, write only below its own staging prefix. A script that reads the credentials
 * out of its process can therefore reach nothing the request was not given.
 *
 * The prefixes come from the catalog, not from the caller, but a policy that grants too much is
 * not repairable after the fact, so every prefix is checked and refused (never widened) when it is
 * not an `s3://` URL below the allowed root of the one warehouse bucket, is a root itself, or holds
 * a wildcard, a `..` or an IAM policy variable. AssumeRole takes at most 2,048 characters of
 * session policy: a run over more table directories than fit is refused with a 400.
 */
import { ValidationError } from '#domain/errors';

/** AssumeRole's limit on the plain-text session policy. */
export const MAX_SESSION_POLICY_CHARS = 2048;

/** What one run may touch, and the roots its prefixes must lie below. */
export interface SessionPolicyScope {
  /** `aws`, `aws-cn`, `aws-us-gov`. @default aws */
  readonly partition?: string;
  /** The warehouse bucket: the only bucket a prefix may name. */
  readonly bucket: string;
  /** Key prefix every read prefix must lie strictly below (the org's warehouse directory, `warehouse/org_x/`). */
  readonly readRoot: string;
  /** Key prefix the write prefix must lie strictly below (`polars-staging/`). */
  readonly writeRoot: string;
  /** `s3://bucket/key/` of each directory the run may read below. */
  readonly readPrefixes: readonly string[];
  /** `s3://bucket/key/` the run may write below (destination runs only). */
  readonly writePrefix?: string;
}

/** Characters a key prefix may hold: what the lake writer, Spark and the staging ids produce. */
const SAFE_KEY = /^[A-Za-z0-9_.=+%/-]+$/;

const withSlash = (key: string): string => (key.endsWith('/') ? key : `${key}/`);

/**
 * The key of an `s3://` prefix (with a trailing slash) after every check.
 * @throws Error when the prefix could grant more than one directory of the allowed root
 */
export const checkedKeyPrefix = (uri: string, bucket: string, root: string): string => {
  const refuse = (why: string): never => {
    throw new Error(`refusing sandbox prefix ${JSON.stringify(uri)}: ${why}`);
  };
  if (typeof uri !== 'string' || !uri.startsWith('s3://')) return refuse('not an s3:// URL');
  const rest = uri.slice('s3://'.length);
  const slash = rest.indexOf('/');
  if (slash < 0) return refuse('no key prefix');
  if (rest.slice(0, slash) !== bucket) return refuse(`not in the warehouse bucket ${bucket}`);
  const key = withSlash(rest.slice(slash + 1));
  if (!SAFE_KEY.test(key)) return refuse('characters outside [A-Za-z0-9_.=+%/-] (wildcards, policy variables)');
  const segments = key.slice(0, -1).split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..') || key.includes('..')) return refuse('empty, "." or ".." segments');
  const base = withSlash(root);
  if (!key.startsWith(base) || key.length <= base.length) return refuse(`not below ${base}`);
  return key;
};

/** Drops exact duplicates and prefixes already covered by a shorter one; sorted. */
const minimal = (keys: readonly string[]): string[] => {
  const sorted = [...new Set(keys)].sort();
  return sorted.filter((k) => !sorted.some((other) => other !== k && k.startsWith(other)));
};

/**
 * The session policy of one run, as compact JSON.
 * @throws Error for a prefix that fails {@link checkedKeyPrefix}
 * @throws {ValidationError} (400) when the run names more table directories than a policy can hold
 */
export const sandboxSessionPolicy = (scope: SessionPolicyScope): string => {
  const partition = scope.partition ?? 'aws';
  const arn = (key: string) => `arn:${partition}:s3:::${scope.bucket}/${key}*`;
  const reads = minimal(scope.readPrefixes.map((p) => checkedKeyPrefix(p, scope.bucket, scope.readRoot)));
  if (reads.length === 0 && scope.writePrefix === undefined) throw new Error('a sandbox session policy needs at least one prefix');
  const statements: Record<string, unknown>[] = [];
  if (reads.length > 0) statements.push({ Effect: 'Allow', Action: 's3:GetObject', Resource: reads.map(arn) });
  if (scope.writePrefix !== undefined) {
    statements.push({ Effect: 'Allow', Action: 's3:PutObject', Resource: arn(checkedKeyPrefix(scope.writePrefix, scope.bucket, scope.writeRoot)) });
  }
  const policy = JSON.stringify({ Version: '2012-10-17', Statement: statements });
  if (policy.length > MAX_SESSION_POLICY_CHARS) {
    throw new ValidationError(`the run reads ${reads.length} table directories, more than one run's credentials can name; register fewer tables in one request`, {
      details: `the session policy would be ${policy.length} characters; AssumeRole accepts at most ${MAX_SESSION_POLICY_CHARS}`,
    });
  }
  return policy;
};
