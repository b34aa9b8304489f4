/**
 * The polars sandbox in AWS on fake transports and a fake credential issuer: the tier chosen, the
 * payload (the local pool's request shape, the run's credentials, a staging key for a destination),
 * the scope the credentials are asked for, and how answers map to results and errors. The Lambda
 * transport's own request is checked on a fake Lambda client.
 */
import { InvokeCommand } from '@aws-sdk/client-lambda';
import { describe, expect, it } from 'vitest';
import { AwsPolarsSandbox } from '#adapters/aws/aws-polars-sandbox';
import { LambdaSandboxTransport } from '#adapters/aws/lambda-sandbox-transport';
import type { SandboxCredentialIssuer, SandboxScope, SandboxTransport } from '#adapters/aws/polars-sandbox-transport';
import { CapabilityError, ServiceUnavailableError, ValidationError } from '#domain/errors';
import type { SandboxRun } from '#domain/polars/sandbox';

const ORG = 'c8b7d732-bc82-4eed-a256-f1f33b8861d5';
const WH = 's3://lake-bucket/warehouse/org_c8b7d732bc824eeda256f1f33b8861d5';
const STAGING = 's3://lake-bucket/polars-staging';
const ROWS = { columns: ['n'], column_types: ['Int64'], rows: [[3]] };

/** A fake transport: records payloads, answers with `answer`. */
const fakeTransport = (instanceType: string, answer: (payload: Record<string, unknown>) => unknown = () => ({ ok: true, results: ROWS, row_count: 1, run_ms: 4 })) => {
  const sent: Record<string, unknown>[] = [];
  const transport: SandboxTransport = {
    instanceType,
    // As the real transports: Fargate tasks confine scripts, Lambda functions cannot.
    confinesScripts: instanceType.startsWith('fargate'),
    invoke: async (payload) => {
      sent.push(payload as Record<string, unknown>);
      return answer(payload as Record<string, unknown>);
    },
  };
  return { sent, transport };
};

/** A fake issuer: records scopes, issues fixed credentials. */
const fakeIssuer = () => {
  const scopes: SandboxScope[] = [];
  const issuer: SandboxCredentialIssuer = {
    issue: async (scope) => {
      scopes.push(scope);
      return { accessKeyId: 'ASIAX', secretAccessKey: 'secret', sessionToken: 'token', expiration: '2030-01-01T00:15:00Z' };
    },
  };
  return { scopes, issuer };
};

const scriptRun: SandboxRun = {
  orgId: ORG,
  source: { kind: 'script', script: 'result = scan("s.orders")', params: { v: '1' } },
  tables: [{ names: ['o', 's.orders'], metadataLocation: `${WH}/s.db/orders/metadata/00001.metadata.json`, location: `${WH}/s.db/orders` }],
  catalog: 'lakeline',
  vcpus: 2,
  toFile: false,
  maxResultBytes: 1000,
};

const build = (transports: Record<number, SandboxTransport>, issuer = fakeIssuer().issuer) => new AwsPolarsSandbox(transports, issuer, { stagingUri: `${STAGING}/`, newRunId: () => 'run-1' });

describe('AwsPolarsSandbox', () => {
  it('Should send a script, with the run credentials scoped to its table directories, to the smallest tier that confines scripts', async () => {
    // Arrange
    const two = fakeTransport('lambda-2vcpu');
    const eight = fakeTransport('fargate-8vcpu');
    const credentials = fakeIssuer();
    const sandbox = build({ 2: two.transport, 8: eight.transport }, credentials.issuer);

    // Act
    const result = await sandbox.run(scriptRun);

    // Assess
    expect(credentials.scopes).toEqual([{ orgId: ORG, requestId: 'run-1', readPrefixes: [`${WH}/s.db/orders/`] }]);
    expect(two.sent).toEqual([]);
    expect(eight.sent).toEqual([
      {
        op: 'run',
        request: {
          mode: 'script',
          script: 'result = scan("s.orders")',
          params: { v: '1' },
          tables: { o: `${WH}/s.db/orders/metadata/00001.metadata.json`, 's.orders': `${WH}/s.db/orders/metadata/00001.metadata.json` },
          catalog: 'lakeline',
          output: false,
          max_result_bytes: 1000,
        },
        timeout_s: 880,
        credentials: { access_key_id: 'ASIAX', secret_access_key: 'secret', session_token: 'token' },
      },
    ]);
    expect(result).toEqual({ results: ROWS, rowCount: 1, runMs: 4, compute: { vcpus: 8, mode: 'sandbox', instanceType: 'fargate-8vcpu' } });
  });

  it('Should refuse a script with 503 when no tier can confine one, before issuing credentials', async () => {
    // Arrange
    const two = fakeTransport('lambda-2vcpu');
    const four = fakeTransport('lambda-4vcpu');
    const credentials = fakeIssuer();

    // Act
    const run = build({ 2: two.transport, 4: four.transport }, credentials.issuer).run(scriptRun);

    // Assess
    await expect(run).rejects.toBeInstanceOf(ServiceUnavailableError);
    await expect(run).rejects.toThrow(/scripts are not available in this deployment/);
    expect(credentials.scopes).toEqual([]);
    expect([...two.sent, ...four.sent]).toEqual([]);
  });

  it('Should run SQL on a Lambda tier even when a Fargate tier exists', async () => {
    // Arrange
    const two = fakeTransport('lambda-2vcpu');
    const eight = fakeTransport('fargate-8vcpu');

    // Act
    const result = await build({ 2: two.transport, 8: eight.transport }).run({ ...scriptRun, source: { kind: 'sql', sql: 'SELECT 1' } });

    // Assess
    expect(result.compute.instanceType).toBe('lambda-2vcpu');
    expect(eight.sent).toEqual([]);
  });

  it('Should send SQL as mode query with the routed endpoint time limit', async () => {
    // Arrange
    const two = fakeTransport('lambda-2vcpu');

    // Act
    await build({ 2: two.transport }).run({ ...scriptRun, source: { kind: 'sql', sql: 'SELECT 1' }, timeoutMs: 25_000 });

    // Assess
    expect(two.sent[0]).toMatchObject({ request: { mode: 'query', query: 'SELECT 1' }, timeout_s: 25 });
    expect((two.sent[0]?.request as Record<string, unknown>).script).toBeUndefined();
  });

  it('Should give a destination run write access to its own staging prefix and return the staged key', async () => {
    // Arrange
    const two = fakeTransport('lambda-2vcpu', (p) => ({ ok: true, results: ROWS, row_count: 1, run_ms: 4, output_uri: (p.request as Record<string, unknown>).output_uri }));
    const credentials = fakeIssuer();

    // Act
    const result = await build({ 2: two.transport }, credentials.issuer).run({ ...scriptRun, source: { kind: 'sql', sql: 'SELECT 1' }, toFile: true });

    // Assess
    expect(credentials.scopes[0]).toEqual({ orgId: ORG, requestId: 'run-1', readPrefixes: [`${WH}/s.db/orders/`], writePrefix: `${STAGING}/run-1/` });
    expect(two.sent[0]).toMatchObject({ request: { output: true, output_uri: `${STAGING}/run-1/result.parquet` } });
    expect(result.file?.path).toBe(`${STAGING}/run-1/result.parquet`);
    await expect(result.file?.release()).resolves.toBeUndefined();
  });

  it('Should fail a destination run whose answer names another result key', async () => {
    const two = fakeTransport('lambda-2vcpu', () => ({ ok: true, results: ROWS, output_uri: `${STAGING}/other/result.parquet` }));
    await expect(build({ 2: two.transport }).run({ ...scriptRun, source: { kind: 'sql', sql: 'SELECT 1' }, toFile: true })).rejects.toThrow(/did not stage its result/);
  });

  it('Should issue no credentials for a run that reads no table and writes nothing', async () => {
    // Arrange
    const two = fakeTransport('lambda-2vcpu');
    const credentials = fakeIssuer();

    // Act
    await build({ 2: two.transport }, credentials.issuer).run({ ...scriptRun, source: { kind: 'sql', sql: 'SELECT 1' }, tables: [] });

    // Assess
    expect(credentials.scopes).toEqual([]);
    expect(two.sent[0]?.credentials).toBeUndefined();
  });

  it('Should run on the smallest tier with at least the vCPUs asked for and report its instance type', async () => {
    // Arrange
    const two = fakeTransport('lambda-2vcpu');
    const eight = fakeTransport('fargate-8vcpu');

    // Act
    const result = await build({ 2: two.transport, 8: eight.transport }).run({ ...scriptRun, vcpus: 4 });

    // Assess
    expect(two.sent).toEqual([]);
    expect(eight.sent).toHaveLength(1);
    expect(result.compute).toEqual({ vcpus: 8, mode: 'sandbox', instanceType: 'fargate-8vcpu' });
  });

  it('Should refuse a tier above every transport with a 400 naming the available tiers, before issuing credentials', async () => {
    // Arrange
    const credentials = fakeIssuer();
    const sandbox = build({ 2: fakeTransport('lambda-2vcpu').transport, 4: fakeTransport('lambda-4vcpu').transport }, credentials.issuer);

    // Act + Assess
    await expect(sandbox.run({ ...scriptRun, vcpus: 16 })).rejects.toThrow(new CapabilityError('a 16-vCPU polars sandbox is not available in this deployment; use vcpus 2 or 4'));
    expect(credentials.scopes).toEqual([]);
  });

  it.each([
    ['a script error', { ok: false, kind: 'user', error: 'the script failed: ZeroDivisionError', details: 'line 1' }, ValidationError],
    ['a time-out', { ok: false, kind: 'timeout', error: 'the request ran longer than its limit' }, ValidationError],
    ['a sandbox failure', { ok: false, kind: 'internal', error: 'the sandbox failed: OSError' }, Error],
    ['an answer of another shape', { rows: [] }, Error],
  ])('Should map %s', async (_label, answer, type) => {
    const eight = fakeTransport('fargate-8vcpu', () => answer);
    const run = build({ 8: eight.transport }).run(scriptRun);
    await expect(run).rejects.toBeInstanceOf(type);
    if (type === Error) await expect(run).rejects.not.toBeInstanceOf(ValidationError);
  });

  it('Should ask the smallest tier for its polars version without credentials', async () => {
    const two = fakeTransport('lambda-2vcpu', () => ({ ok: true, polars: '1.44.2' }));
    await expect(build({ 2: two.transport }).version()).resolves.toBe('1.44.2');
    expect(two.sent).toEqual([{ op: 'version' }]);
  });
});

describe('LambdaSandboxTransport', () => {
  it('Should invoke its function with the JSON payload and return the parsed answer', async () => {
    // Arrange
    const sent: object[] = [];
    const client = { send: async (c: object) => (sent.push(c), { Payload: new TextEncoder().encode('{"ok":true}') }) } as never;
    const transport = new LambdaSandboxTransport(client, 'sandbox-4', 4);

    // Act
    const answer = await transport.invoke({ op: 'version' }, Date.now() + 10_000);

    // Assess
    expect(transport.instanceType).toBe('lambda-4vcpu');
    expect(answer).toEqual({ ok: true });
    expect(sent[0]).toBeInstanceOf(InvokeCommand);
    const input = (sent[0] as InvokeCommand).input;
    expect(input.FunctionName).toBe('sandbox-4');
    expect(new TextDecoder().decode(input.Payload as Uint8Array)).toBe('{"op":"version"}');
  });

  it('Should fail when the function itself failed', async () => {
    const client = { send: async () => ({ FunctionError: 'Unhandled', Payload: new TextEncoder().encode('{"errorMessage":"boom"}') }) } as never;
    await expect(new LambdaSandboxTransport(client, 'f', 2).invoke({}, Date.now() + 1000)).rejects.toThrow(/function failed.*boom/);
  });
});
