/**
 * The session policy of a polars sandbox run: exactly the run's table directories (read) and its
 * staging prefix (write), and a refusal — never a wider grant — for any prefix that could reach
 * beyond one directory of the org's warehouse (another bucket, a root, wildcards, `..`, IAM policy
 * variables) and for runs whose policy would exceed AssumeRole's 2,048 characters.
 */
import { describe, expect, it } from 'vitest';
import { checkedKeyPrefix, MAX_SESSION_POLICY_CHARS, sandboxSessionPolicy } from '#adapters/aws/sandbox-session-policy';
import { ValidationError } from '#domain/errors';

const BUCKET = 'lake-bucket';
const ROOT = 'warehouse/org_aaaa/';
const base = { bucket: BUCKET, readRoot: ROOT, writeRoot: 'polars-staging/' };
const table = (name: string) => `s3://${BUCKET}/warehouse/org_aaaa/org_aaaa__ns.db/${name}`;

type Statement = { Effect: string; Action: string; Resource: string | string[] };
const statements = (policy: string) => (JSON.parse(policy) as { Statement: Statement[] }).Statement;

describe('sandboxSessionPolicy', () => {
  it('Should allow s3:GetObject below each table directory and nothing else', () => {
    // Act
    const policy = sandboxSessionPolicy({ ...base, readPrefixes: [table('orders'), `${table('lineitem')}/`] });

    // Assess
    expect(statements(policy)).toEqual([
      {
        Effect: 'Allow',
        Action: 's3:GetObject',
        Resource: [`arn:aws:s3:::${BUCKET}/warehouse/org_aaaa/org_aaaa__ns.db/lineitem/*`, `arn:aws:s3:::${BUCKET}/warehouse/org_aaaa/org_aaaa__ns.db/orders/*`],
      },
    ]);
  });

  it('Should add s3:PutObject on the staging prefix alone for a destination run, in the given partition', () => {
    // Act
    const policy = sandboxSessionPolicy({ ...base, partition: 'aws-cn', readPrefixes: [table('t')], writePrefix: `s3://${BUCKET}/polars-staging/run-1/` });

    // Assess
    expect(statements(policy)).toEqual([
      { Effect: 'Allow', Action: 's3:GetObject', Resource: [`arn:aws-cn:s3:::${BUCKET}/warehouse/org_aaaa/org_aaaa__ns.db/t/*`] },
      { Effect: 'Allow', Action: 's3:PutObject', Resource: `arn:aws-cn:s3:::${BUCKET}/polars-staging/run-1/*` },
    ]);
  });

  it('Should name a table once when it is given twice or below another directory of the run', () => {
    // Act
    const policy = sandboxSessionPolicy({ ...base, readPrefixes: [table('t'), table('t'), `${table('t')}/metadata/`] });

    // Assess
    expect(statements(policy)[0]?.Resource).toEqual([`arn:aws:s3:::${BUCKET}/warehouse/org_aaaa/org_aaaa__ns.db/t/*`]);
  });

  it.each([
    ['an empty string', ''],
    ['a local path', '/home/x/warehouse/org_aaaa/t'],
    ['a file URL', 'file:///warehouse/org_aaaa/t/'],
    ['a bucket without a key', `s3://${BUCKET}`],
    ['the whole bucket', `s3://${BUCKET}/`],
    ['the whole warehouse', `s3://${BUCKET}/warehouse/`],
    ["the org's whole warehouse (the root itself)", `s3://${BUCKET}/warehouse/org_aaaa/`],
    ["another org's table", `s3://${BUCKET}/warehouse/org_bbbb/org_bbbb__ns.db/t/`],
    ['a sibling whose name extends the root', `s3://${BUCKET}/warehouse/org_aaaab/t/`],
    ['another bucket', 's3://other-bucket/warehouse/org_aaaa/t/'],
    ['a bucket whose name extends the warehouse bucket', `s3://${BUCKET}x/warehouse/org_aaaa/t/`],
    ['a star', `s3://${BUCKET}/warehouse/org_aaaa/*`],
    ['a question mark', `s3://${BUCKET}/warehouse/org_aaaa/t?/`],
    ['a climb', `s3://${BUCKET}/warehouse/org_aaaa/t/../../org_bbbb/t/`],
    ['a double dot inside a name', `s3://${BUCKET}/warehouse/org_aaaa/t..x/`],
    ['an empty segment', `s3://${BUCKET}/warehouse/org_aaaa//t/`],
    ['an IAM policy variable', `s3://${BUCKET}/warehouse/org_aaaa/\${aws:username}/`],
    ['a space', `s3://${BUCKET}/warehouse/org_aaaa/t x/`],
  ])('Should refuse a read prefix that is %s', (_label, prefix) => {
    // Act + Assess
    expect(() => sandboxSessionPolicy({ ...base, readPrefixes: [table('ok'), prefix] })).toThrow(/refusing sandbox prefix/);
  });

  it.each([
    ['the staging root itself', `s3://${BUCKET}/polars-staging/`],
    ['a table directory', table('t')],
    ['a wildcard', `s3://${BUCKET}/polars-staging/*`],
  ])('Should refuse a write prefix that is %s', (_label, prefix) => {
    // Act + Assess
    expect(() => sandboxSessionPolicy({ ...base, readPrefixes: [table('t')], writePrefix: prefix })).toThrow(/refusing sandbox prefix/);
  });

  it('Should refuse a run with nothing to read or write', () => {
    expect(() => sandboxSessionPolicy({ ...base, readPrefixes: [] })).toThrow(/at least one prefix/);
  });

  it('Should refuse, with a 400 naming the limit, a run whose tables do not fit in one policy instead of widening it', () => {
    // Arrange
    const many = Array.from({ length: 40 }, (_, i) => table(`table_with_a_rather_long_name_${i}`));

    // Act
    let error: unknown;
    try {
      sandboxSessionPolicy({ ...base, readPrefixes: many });
    } catch (err) {
      error = err;
    }

    // Assess
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toMatch(/40 table directories/);
  });

  it('Should stay within the limit for a dozen tables of realistic names', () => {
    // Act
    const policy = sandboxSessionPolicy({ ...base, readPrefixes: Array.from({ length: 12 }, (_, i) => table(`t${i}`)), writePrefix: `s3://${BUCKET}/polars-staging/0b7c7a3e-1d2f-4a5b-9c8d-7e6f5a4b3c2d/` });

    // Assess
    expect(policy.length).toBeLessThanOrEqual(MAX_SESSION_POLICY_CHARS);
  });
});

describe('checkedKeyPrefix', () => {
  it('Should return the key with a trailing slash', () => {
    expect(checkedKeyPrefix(table('t'), BUCKET, ROOT)).toBe('warehouse/org_aaaa/org_aaaa__ns.db/t/');
  });
});
