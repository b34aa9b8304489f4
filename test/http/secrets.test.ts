/**
 * Secrets are never logged or returned: a local stack of its own at log level `debug` serves
 * requests with a valid key, a wrong secret, a revoked key, a session cookie and a forged cookie,
 * on every kind of route, including refusals and errors; nothing it writes to its logs after start-up
 * (the start-up banner prints the demo key by design) and no response body contains an API key
 * secret, a whole token, a session cookie or the session signing secret.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lakelineJson } from '../helpers/cli.ts';
import { startStackProcess, tempHome, type StackProcess } from '../helpers/local-stack-process.ts';

let stack: StackProcess;
let logs = '';

beforeAll(async () => {
  stack = await startStackProcess(tempHome('secrets'), 0, { LAKELINE_LOG_LEVEL: 'debug', LAKELINE_DEMO_DATA: '0', LAKELINE_AUTH_CACHE_TTL_MS: '0' });
  stack.child.stdout?.on('data', (d: Buffer) => (logs += d.toString()));
  stack.child.stderr?.on('data', (d: Buffer) => (logs += d.toString()));
});

afterAll(async () => {
  await stack?.stop();
});

describe('secrets in logs and answers', () => {
  it('Should never write a key secret, a token, a session cookie or the signing secret to the logs or into a response', async () => {
    // Prepare: a second key to revoke, a session cookie, and a forged one.
    const cli = <T>(...args: string[]) => lakelineJson<T>([...args, '--home', stack.home]);
    const revoked = await cli<{ keyId: string; token: string }>('keys', 'create', '--org', stack.orgId, '--name', 'to-revoke');
    await cli('keys', 'revoke', revoked.keyId);
    const session = await cli<{ cookie: string; header: string }>('sessions', 'create', '--org', stack.orgId);
    const signingSecret = readFileSync(path.join(stack.home, 'session-secret'), 'utf8').trim();
    const [, keyId, keySecret] = stack.apiKey.split('_') as [string, string, string];
    const wrongSecret = `ll_${keyId}_${'0'.repeat(64)}`;
    const forgedCookie = `${session.cookie.slice(0, -4)}AAAA`;
    const requests: [string, string, Record<string, string>, string?][] = [
      ['GET', '/api/v1/events?start=0&end=4102444800', { authorization: `Bearer ${stack.apiKey}` }],
      ['GET', '/api/v1/events?start=zero', { authorization: `Bearer ${stack.apiKey}` }],
      ['POST', '/api/v1/lineage', { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' }, '{"eventType":"START"}'],
      ['POST', '/api/v1/lineage', { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' }, '{not json'],
      ['POST', '/api/v1/warehouse/query', { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' }, '{"query":"select * from read_csv(\'/etc/passwd\')"}'],
      ['GET', '/api/v1/tables', { authorization: `Bearer ${wrongSecret}` }],
      ['GET', '/api/v1/tables', { authorization: `Bearer ${revoked.token}` }],
      ['GET', '/api/v1/tables', { authorization: `Basic ${Buffer.from(`x:${stack.apiKey}`).toString('base64')}` }],
      ['GET', '/api/v1/events?start=0&end=4102444800', { cookie: session.header.replace(/^Cookie: /, '') }],
      ['GET', '/api/v1/events?start=0&end=4102444800', { cookie: `lakeline_session=${forgedCookie}` }],
      ['GET', '/api/v1/tables', { cookie: session.header.replace(/^Cookie: /, '') }],
      ['GET', '/api/v1/runs/not-a-run', { authorization: `Bearer ${stack.apiKey}` }],
    ];

    // Act
    const bodies: string[] = [];
    for (const [method, url, headers, body] of requests) {
      const answer = await fetch(`${stack.baseUrl}${url}`, { method, headers, ...(body ? { body } : {}) });
      bodies.push(`${answer.status} ${JSON.stringify(Object.fromEntries(answer.headers))} ${await answer.text()}`);
    }
    // Let the last log lines arrive.
    await new Promise((resolve) => setTimeout(resolve, 200));

    // Assess: the stack did log (debug), so the absence below means something.
    expect(logs.length).toBeGreaterThan(0);
    const secrets = { keySecret, token: stack.apiKey, revokedSecret: revoked.token.split('_')[2] as string, wrongSecret: wrongSecret.split('_')[2] as string, cookie: session.cookie, forgedCookie, signingSecret };
    for (const [name, secret] of Object.entries(secrets)) {
      expect(logs.includes(secret), `${name} in the logs`).toBe(false);
      for (const body of bodies) expect(body.includes(secret), `${name} in a response: ${body.slice(0, 120)}`).toBe(false);
    }
  }, 60_000);
});
