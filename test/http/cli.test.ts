/**
 * The `lakeline` CLI end to end, run as users run it (bin/lakeline.mjs in a child process) against
 * a local stack of its own: keys it creates work through HTTP, keys it revokes stop working,
 * sessions it creates are accepted where the contract says, and it finds (or starts) the local
 * store on its own. The stack runs with LAKELINE_AUTH_CACHE_TTL_MS=0 so a revocation is visible on
 * the very next request instead of after the authorizer's 30 s key cache.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VisibleApiKey } from '#domain/orgs/manage';
import type { Org } from '#domain/orgs/org';
import { lakelineJson, runLakeline } from '../helpers/cli.ts';
import { startStackProcess, tempHome, type StackProcess } from '../helpers/local-stack-process.ts';

const EVENTS_QUERY = '/api/v1/events?start=0&end=4102444800';

let stack: StackProcess;
let org: Org;
const cli = <T>(...args: string[]) => lakelineJson<T>([...args, '--home', stack.home]);

const get = (urlPath: string, headers: Record<string, string>) => fetch(`${stack.baseUrl}${urlPath}`, { headers });
const postLineage = (headers: Record<string, string>) =>
  fetch(`${stack.baseUrl}/api/v1/lineage`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{}' });

beforeAll(async () => {
  stack = await startStackProcess(tempHome('cli'), 0, { LAKELINE_AUTH_CACHE_TTL_MS: '0', LAKELINE_DEMO_DATA: '0' });
  org = await cli<Org>('orgs', 'create', '--name', 'Acme', '--plan', 'pro', '--payment-method');
});

afterAll(async () => {
  await stack?.stop();
});

// The cases are independent (each makes its own keys), so they run concurrently: each one mostly
// waits for CLI processes to start.
describe.concurrent('lakeline against a running local stack', () => {
  it('Should create a key that works through HTTP, list it without secrets, and revoke it so that it stops working', async () => {
    // Prepare
    const key = await cli<VisibleApiKey & { token: string }>('keys', 'create', '--org', org.orgId, '--name', 'airflow');
    const auth = { authorization: `Bearer ${key.token}` };
    // Act
    const before = await get(EVENTS_QUERY, auth);
    const listed = await runLakeline(['keys', 'list', '--org', org.orgId, '--json', '--home', stack.home]);
    const revoked = await cli<VisibleApiKey>('keys', 'revoke', key.keyId);
    const after = await get(EVENTS_QUERY, auth);
    // Assess
    expect(key).toMatchObject({ orgId: org.orgId, name: 'airflow', token: expect.stringMatching(/^ll_[0-9a-f]{16}_[0-9a-f]{64}$/) });
    expect(key).not.toHaveProperty('secretHash');
    expect(before.status).toBe(200);
    const mine = (JSON.parse(listed.stdout) as VisibleApiKey[]).find((k) => k.keyId === key.keyId);
    expect(mine).toEqual({ keyId: key.keyId, orgId: org.orgId, name: 'airflow', scope: 'full', createdAt: key.createdAt, lastUsedAt: expect.any(String) });
    expect(listed.stdout).not.toContain(key.token.split('_')[2]);
    expect(listed.stdout).not.toContain('secretHash');
    expect(revoked).toMatchObject({ keyId: key.keyId, revokedAt: expect.any(String) });
    expect(after.status).toBe(401);
    expect(await after.json()).toEqual({ error: 'Unauthorized' });
  });

  it('Should print a key token once, on its own line, in text mode, and never print it again', async () => {
    // Act
    const created = await runLakeline(['keys', 'create', '--org', org.orgId, '--name', 'texty', '--home', stack.home]);
    const token = created.stdout.trim().split('\n').at(-1) as string;
    const listed = await runLakeline(['keys', 'list', '--org', org.orgId, '--home', stack.home]);
    // Assess
    expect(created.code).toBe(0);
    expect(token).toMatch(/^ll_[0-9a-f]{16}_[0-9a-f]{64}$/);
    expect((await get(EVENTS_QUERY, { authorization: `Bearer ${token}` })).status).toBe(200);
    expect(listed.stdout).toMatch(/^KEY ID\s+NAME\s+SCOPE\s+STATUS\s+CREATED\s+LAST USED\n/);
    expect(listed.stdout).toMatch(new RegExp(`${token.split('_')[1]}\\s+texty\\s+full\\s+active`));
    expect(listed.stdout).not.toContain(token.split('_')[2]);
  });

  it('Should create a session whose Cookie header works on the events endpoint and not on ingestion', async () => {
    // Act
    const session = await cli<{ header: string; cookie: string; expiresAt: string }>('sessions', 'create', '--org', org.orgId, '--ttl', '600');
    const [name, value] = [session.header.slice(0, session.header.indexOf(':')), session.header.slice(session.header.indexOf(':') + 1).trim()];
    const events = await get(EVENTS_QUERY, { [name]: value });
    const lineage = await postLineage({ [name]: value });
    // Assess
    expect(name).toBe('Cookie');
    expect(value).toBe(`lakeline_session=${session.cookie}`);
    expect(Date.parse(session.expiresAt) - Date.now()).toBeGreaterThan(590_000);
    expect(events.status).toBe(200);
    expect(lineage.status).toBe(401);
  });

  it('Should update an org and show the change in the list', async () => {
    // Prepare
    const other = await cli<Org>('orgs', 'create', '--name', 'Shrinking', '--plan', 'enterprise', '--payment-method');
    // Act
    const updated = await cli<Org>('orgs', 'update', other.orgId, '--plan', 'free', '--payment-method', 'false', '--credit-limit', '12.5');
    const listed = await cli<Org[]>('orgs', 'list');
    // Assess
    expect(updated).toEqual({ ...other, plan: 'free', paymentMethod: false, creditLimitUsd: 12.5 });
    expect(listed.find((o) => o.orgId === other.orgId)).toEqual(updated);
  });

  it('Should exit 1 naming the org when it does not exist', async () => {
    // Act
    const run = await runLakeline(['keys', 'create', '--org', 'no-such-org', '--home', stack.home]);
    // Assess
    expect(run).toEqual({ code: 1, stdout: '', stderr: 'lakeline: organization no-such-org does not exist\n' });
  });

  it('Should exit 2 with a usage message through the bin shim', async () => {
    // Act
    const run = await runLakeline(['orgs', 'create', '--plan', 'gold']);
    // Assess
    expect(run).toEqual({ code: 2, stdout: '', stderr: 'lakeline: --name is required\nRun `lakeline orgs create --help` for usage.\n' });
  });

  it('Should print help and exit 0', async () => {
    // Act
    const run = await runLakeline(['--help']);
    // Assess
    expect(run.code).toBe(0);
    for (const command of ['orgs create', 'orgs list', 'orgs update', 'keys create', 'keys list', 'keys revoke', 'sessions create', 'demo load']) expect(run.stdout).toContain(command);
  });
});

describe('lakeline demo load', () => {
  it("Should write the eight TPC-H tables into the org's lake, where the tables API lists and describes them", async () => {
    // Prepare
    const buyer = await cli<Org>('orgs', 'create', '--name', 'Demo buyer', '--plan', 'pro');
    const key = await cli<{ token: string }>('keys', 'create', '--org', buyer.orgId);
    const auth = { authorization: `Bearer ${key.token}` };
    // Act
    const loaded = await cli<{ tables: Record<string, number> }>('demo', 'load', '--org', buyer.orgId, '--scale', '0.001', '--namespace', 'tpch_tiny');
    const listed = await get('/api/v1/tables?namespace=tpch_tiny', auth);
    const nation = await get('/api/v1/tables/tpch_tiny/nation', auth);
    const othersView = await get('/api/v1/tables?namespace=tpch_tiny', { authorization: `Bearer ${stack.apiKey}` });
    // Assess
    expect(Object.keys(loaded.tables).sort()).toEqual(['customer', 'lineitem', 'nation', 'orders', 'part', 'partsupp', 'region', 'supplier']);
    expect(loaded.tables.nation).toBe(25);
    expect(((await listed.json()) as { name: string }[]).map((t) => t.name).sort()).toEqual(Object.keys(loaded.tables).sort());
    expect(await nation.json()).toMatchObject({ namespace: 'tpch_tiny', name: 'nation', record_count: '25' });
    // Another org (the stack's demo org) does not see them.
    expect(await othersView.json()).toEqual([]);
  }, 120_000);
});

describe('lakeline without a running stack', () => {
  it('Should start the local store itself, even when local.json names a dead endpoint, and leave data the stack then serves', async () => {
    // Prepare: a home whose last stack died without cleaning up local.json.
    const home = tempHome('cli-offline');
    writeFileSync(path.join(home, 'local.json'), JSON.stringify({ baseUrl: 'http://127.0.0.1:1', apiKey: 'x', orgId: 'x', dynamodbEndpoint: 'http://127.0.0.1:1' }));
    const org = await lakelineJson<Org>(['orgs', 'create', '--name', 'Offline', '--home', home]);
    const key = await lakelineJson<{ token: string }>(['keys', 'create', '--org', org.orgId], { LAKELINE_HOME: home });
    // Act: the store was released when the CLI exited, so a stack can open it.
    const offline = await startStackProcess(home, 0, { LAKELINE_DEMO_DATA: '0' });
    try {
      const response = await fetch(`${offline.baseUrl}${EVENTS_QUERY}`, { headers: { authorization: `Bearer ${key.token}` } });
      // Assess
      expect(response.status).toBe(200);
    } finally {
      await offline.stop();
    }
  });
});
