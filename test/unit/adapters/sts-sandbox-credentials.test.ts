/**
 * The polars sandbox's per-run credentials: the exact AssumeRole request (the data role, a session
 * name from the run id, the run's session policy rooted at the org's own warehouse directory, 900
 * seconds), the credentials handed back, and the settings refused at cold start.
 */
import { AssumeRoleCommand } from '@aws-sdk/client-sts';
import { describe, expect, it } from 'vitest';
import { sessionNameFor, StsSandboxCredentialIssuer } from '#adapters/aws/sts-sandbox-credentials';
import { recordingClient } from './recording-client.ts';

const ORG = 'c8b7d732-bc82-4eed-a256-f1f33b8861d5';
const CATALOG = 'org_c8b7d732bc824eeda256f1f33b8861d5';
const ROLE = 'arn:aws:iam::123456789012:role/lakeline-polars-data';
const settings = { roleArn: ROLE, warehouseUri: 's3://lake-bucket/warehouse', stagingUri: 's3://lake-bucket/polars-staging' };
const EXPIRES = new Date('2030-01-01T00:15:00Z');

/** A fake STS client: records commands, answers with fixed credentials. */
const fakeSts = (answer: unknown = { Credentials: { AccessKeyId: 'ASIAX', SecretAccessKey: 'secret', SessionToken: 'token', Expiration: EXPIRES } }) => recordingClient(() => answer);

describe('StsSandboxCredentialIssuer', () => {
  it('Should assume the data role for 900 s with a policy naming only the run table directories and staging prefix', async () => {
    // Arrange
    const sts = fakeSts();
    const issuer = new StsSandboxCredentialIssuer(sts.client, settings);
    const table = `s3://lake-bucket/warehouse/${CATALOG}/${CATALOG}__sales.db/orders`;

    // Act
    const credentials = await issuer.issue({ orgId: ORG, requestId: 'run-1', readPrefixes: [table], writePrefix: 's3://lake-bucket/polars-staging/run-1/' });

    // Assess
    expect(sts.sent).toHaveLength(1);
    expect(sts.sent[0]).toBeInstanceOf(AssumeRoleCommand);
    const input = (sts.sent[0] as AssumeRoleCommand).input;
    expect(input).toEqual({ RoleArn: ROLE, RoleSessionName: 'polars-run-1', DurationSeconds: 900, Policy: expect.any(String) });
    expect(JSON.parse(input.Policy as string)).toEqual({
      Version: '2012-10-17',
      Statement: [
        { Effect: 'Allow', Action: 's3:GetObject', Resource: [`arn:aws:s3:::lake-bucket/warehouse/${CATALOG}/${CATALOG}__sales.db/orders/*`] },
        { Effect: 'Allow', Action: 's3:PutObject', Resource: 'arn:aws:s3:::lake-bucket/polars-staging/run-1/*' },
      ],
    });
    expect(credentials).toEqual({ accessKeyId: 'ASIAX', secretAccessKey: 'secret', sessionToken: 'token', expiration: EXPIRES.toISOString() });
  });

  it("Should refuse a table outside the org's own warehouse directory without calling STS", async () => {
    // Arrange
    const sts = fakeSts();
    const issuer = new StsSandboxCredentialIssuer(sts.client, settings);

    // Act + Assess
    await expect(issuer.issue({ orgId: ORG, requestId: 'r', readPrefixes: ['s3://lake-bucket/warehouse/org_other/org_other__s.db/t/'] })).rejects.toThrow(/not below/);
    expect(sts.sent).toEqual([]);
  });

  it('Should fail when STS answers without credentials', async () => {
    const issuer = new StsSandboxCredentialIssuer(fakeSts({}).client, settings);
    await expect(issuer.issue({ orgId: ORG, requestId: 'r', readPrefixes: [`s3://lake-bucket/warehouse/${CATALOG}/t/`] })).rejects.toThrow(/without credentials/);
  });

  it.each([
    ['a role ARN that is not one', { ...settings, roleArn: 'lakeline-polars-data' }],
    ['a staging prefix in another bucket', { ...settings, stagingUri: 's3://other/polars-staging' }],
    ['a warehouse URI without a prefix', { ...settings, warehouseUri: 's3://lake-bucket' }],
  ])('Should refuse %s at construction', (_label, options) => {
    expect(() => new StsSandboxCredentialIssuer(fakeSts().client, options)).toThrow(/configuration/);
  });

  it('Should derive a valid session name of at most 64 characters from any run id', () => {
    expect(sessionNameFor('0b7c7a3e-1d2f-4a5b-9c8d-7e6f5a4b3c2d')).toBe('polars-0b7c7a3e-1d2f-4a5b-9c8d-7e6f5a4b3c2d');
    const odd = sessionNameFor(`a b/c:d${'x'.repeat(100)}`);
    expect(odd).toMatch(/^[\w+=,.@-]{2,64}$/);
    expect(odd.startsWith('polars-a-b-c-d')).toBe(true);
  });
});
