/**
 * The Authorizer use case against in-memory stores and a controlled clock: which credentials
 * pass, the per-container key cache and its TTL, revocation, last-used bookkeeping.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { generateApiKey } from '#domain/core/api-key';
import { Authorizer, KEY_CACHE_TTL_MS, MAX_CACHED_KEYS, TOUCH_INTERVAL_MS, type AuthorizerDeps } from '#domain/auth/authorize';
import { createSessionToken, SESSION_COOKIE } from '#domain/core/session';
import { createKey, createOrg } from '#domain/orgs/manage';
import { MemoryKeyStore, MemoryOrgStore } from '../../helpers/memory-stores.ts';

const SECRET = 's'.repeat(64);

let orgs: MemoryOrgStore;
let keys: MemoryKeyStore;
let nowMs: number;
let orgId: string;
let token: string;
let keyId: string;

const authorizer = (deps: Partial<AuthorizerDeps> = {}): Authorizer =>
  new Authorizer({ keys, orgs, sessionSecret: SECRET, now: () => new Date(nowMs), ...deps });
const bearer = (t: string) => ({ authorization: `Bearer ${t}`, cookies: [], sessionAllowed: true });
const session = (cookie: string, sessionAllowed = true) => ({ cookies: [`${SESSION_COOKIE}=${cookie}`], sessionAllowed });

beforeEach(async () => {
  orgs = new MemoryOrgStore();
  keys = new MemoryKeyStore();
  nowMs = Date.parse('2030-01-01T00:00:00Z');
  const org = await createOrg(orgs, { name: 'Acme' });
  orgId = org.orgId;
  ({ token, record: { keyId } } = await createKey(orgs, keys, orgId, 'ci'));
  keys.calls.get = 0;
});

describe('Authorizer with an API key', () => {
  it('Should accept a valid key and name its org and key id', async () => {
    // Act
    const decision = await authorizer().authorize(bearer(token));
    // Assess
    expect(decision).toEqual({ ok: true, principal: { orgId, authKind: 'key', keyId } });
  });

  it.each([
    ['lower-case scheme', (t: string) => `bearer ${t}`],
    ['upper-case scheme', (t: string) => `BEARER ${t}`],
    ['extra spaces', (t: string) => `  Bearer   ${t}  `],
  ])('Should accept the Bearer scheme written differently (%s)', async (_case, header) => {
    // Act
    const decision = await authorizer().authorize({ authorization: header(token), cookies: [], sessionAllowed: false });
    // Assess
    expect(decision.ok).toBe(true);
  });

  it.each([
    ['no credentials', { cookies: [], sessionAllowed: true }, 'no credentials'],
    ['empty header', { authorization: '', cookies: [], sessionAllowed: true }, 'no credentials'],
    ['Basic scheme', { authorization: 'Basic dXNlcjpwYXNz', cookies: [], sessionAllowed: true }, 'malformed Authorization header'],
    ['Bearer without token', { authorization: 'Bearer', cookies: [], sessionAllowed: true }, 'malformed Authorization header'],
    ['token without scheme', { authorization: 'll_x', cookies: [], sessionAllowed: true }, 'malformed Authorization header'],
    ['malformed key', bearer('not-a-key'), 'malformed API key'],
    ['unknown key', bearer(generateApiKey().token), 'unknown API key'],
  ])('Should refuse %s', async (_case, request, reason) => {
    // Act
    const decision = await authorizer().authorize(request);
    // Assess
    expect(decision).toEqual({ ok: false, reason });
  });

  it('Should refuse a known key id with the wrong secret', async () => {
    // Prepare
    const wrong = `ll_${keyId}_${generateApiKey().secret}`;
    // Act
    const decision = await authorizer().authorize(bearer(wrong));
    // Assess
    expect(decision).toEqual({ ok: false, reason: 'wrong API key secret' });
  });

  it('Should refuse a revoked key', async () => {
    // Prepare
    await keys.revoke(keyId, new Date(nowMs).toISOString());
    // Act
    const decision = await authorizer().authorize(bearer(token));
    // Assess
    expect(decision).toEqual({ ok: false, reason: 'revoked API key' });
  });

  it('Should refuse a key whose org no longer exists', async () => {
    // Prepare
    orgs.delete(orgId);
    // Act
    const decision = await authorizer().authorize(bearer(token));
    // Assess
    expect(decision).toEqual({ ok: false, reason: 'API key of unknown organization' });
  });

  it('Should not fall back to a valid session cookie when the bearer token is bad', async () => {
    // Prepare
    const cookie = createSessionToken(orgId, SECRET, new Date(nowMs));
    // Act
    const decision = await authorizer().authorize({ authorization: 'Bearer nope', cookies: [`${SESSION_COOKIE}=${cookie}`], sessionAllowed: true });
    // Assess
    expect(decision).toEqual({ ok: false, reason: 'malformed API key' });
  });
});

describe('Authorizer key cache', () => {
  it('Should read a key from the store once per TTL, however many requests use it', async () => {
    // Prepare
    const auth = authorizer();
    // Act
    for (let i = 0; i < 5; i++) await auth.authorize(bearer(token));
    nowMs += KEY_CACHE_TTL_MS - 1;
    await auth.authorize(bearer(token));
    // Assess
    expect(keys.calls.get).toBe(1);
  });

  it('Should read the key again once the TTL has passed', async () => {
    // Prepare
    const auth = authorizer();
    await auth.authorize(bearer(token));
    // Act
    nowMs += KEY_CACHE_TTL_MS;
    await auth.authorize(bearer(token));
    // Assess
    expect(keys.calls.get).toBe(2);
  });

  it('Should keep accepting a revoked key until the TTL passes, then refuse it', async () => {
    // Prepare
    const auth = authorizer();
    await auth.authorize(bearer(token));
    await keys.revoke(keyId, new Date(nowMs).toISOString());
    // Act
    const cached = await auth.authorize(bearer(token));
    nowMs += KEY_CACHE_TTL_MS;
    const refreshed = await auth.authorize(bearer(token));
    // Assess
    expect(cached.ok).toBe(true);
    expect(refreshed).toEqual({ ok: false, reason: 'revoked API key' });
  });

  it('Should see a revocation on the next request when the TTL is configured as 0', async () => {
    // Prepare
    const auth = authorizer({ keyCacheTtlMs: 0 });
    await auth.authorize(bearer(token));
    await keys.revoke(keyId, new Date(nowMs).toISOString());
    // Act
    const decision = await auth.authorize(bearer(token));
    // Assess
    expect(decision).toEqual({ ok: false, reason: 'revoked API key' });
  });

  it('Should see a revocation at once after clearCache', async () => {
    // Prepare
    const auth = authorizer();
    await auth.authorize(bearer(token));
    await keys.revoke(keyId, new Date(nowMs).toISOString());
    // Act
    auth.clearCache();
    const decision = await auth.authorize(bearer(token));
    // Assess
    expect(decision.ok).toBe(false);
  });

  it('Should cache an unknown key id too, so repeating a bad key costs one read per TTL', async () => {
    // Prepare
    const auth = authorizer();
    const unknown = generateApiKey().token;
    // Act
    for (let i = 0; i < 5; i++) await auth.authorize(bearer(unknown));
    // Assess
    expect(keys.calls.get).toBe(1);
  });

  it('Should refuse a wrong secret even while the key is cached', async () => {
    // Prepare
    const auth = authorizer();
    await auth.authorize(bearer(token));
    // Act
    const decision = await auth.authorize(bearer(`ll_${keyId}_${generateApiKey().secret}`));
    // Assess
    expect(decision).toEqual({ ok: false, reason: 'wrong API key secret' });
    expect(keys.calls.get).toBe(1);
  });

  it(`Should hold at most ${MAX_CACHED_KEYS} keys, evicting the stalest`, async () => {
    // Prepare: the real key first, then enough unknown ids to push it out.
    const auth = authorizer();
    await auth.authorize(bearer(token));
    for (let i = 0; i < MAX_CACHED_KEYS; i++) await auth.authorize(bearer(`ll_${i.toString(16).padStart(16, '0')}_${'0'.repeat(64)}`));
    const readsBefore = keys.calls.get ?? 0;
    // Act
    await auth.authorize(bearer(token));
    // Assess: the real key had to be read again.
    expect(keys.calls.get).toBe(readsBefore + 1);
  });

  it('Should refuse a negative TTL at construction', () => {
    // Act
    const build = () => authorizer({ keyCacheTtlMs: -1 });
    // Assess
    expect(build).toThrow(/non-negative/);
  });
});

describe('Authorizer last-used time', () => {
  it('Should record the last-used time on first use', async () => {
    // Act
    await authorizer().authorize(bearer(token));
    // Assess
    expect(keys.keys.get(keyId)?.lastUsedAt).toBe(new Date(nowMs).toISOString());
  });

  it('Should write the last-used time at most once per interval', async () => {
    // Prepare
    const auth = authorizer({ keyCacheTtlMs: 0 });
    // Act
    for (let i = 0; i < 10; i++) {
      await auth.authorize(bearer(token));
      nowMs += TOUCH_INTERVAL_MS / 10 - 1;
    }
    nowMs += 100;
    await auth.authorize(bearer(token));
    // Assess
    expect(keys.calls.touch).toBe(2);
  });

  it('Should not write the last-used time for refused requests', async () => {
    // Act
    await authorizer().authorize(bearer(`ll_${keyId}_${generateApiKey().secret}`));
    // Assess
    expect(keys.calls.touch ?? 0).toBe(0);
  });

  it('Should still accept the key when writing the last-used time fails, and retry the write next time', async () => {
    // Prepare
    const auth = authorizer();
    keys.touchError = new Error('ProvisionedThroughputExceededException');
    // Act
    const first = await auth.authorize(bearer(token));
    keys.touchError = undefined;
    await auth.authorize(bearer(token));
    // Assess
    expect(first.ok).toBe(true);
    expect(keys.calls.touch).toBe(2);
    expect(keys.keys.get(keyId)?.lastUsedAt).toBeDefined();
  });
});

describe('Authorizer with a session cookie', () => {
  it('Should accept a valid session where sessions are allowed', async () => {
    // Prepare
    const cookie = createSessionToken(orgId, SECRET, new Date(nowMs), 60);
    // Act
    const decision = await authorizer().authorize(session(cookie));
    // Assess
    expect(decision).toEqual({ ok: true, principal: { orgId, authKind: 'session' } });
  });

  it('Should refuse a valid session where only API keys are accepted', async () => {
    // Prepare
    const cookie = createSessionToken(orgId, SECRET, new Date(nowMs), 60);
    // Act
    const decision = await authorizer().authorize(session(cookie, false));
    // Assess
    expect(decision).toEqual({ ok: false, reason: 'session credentials are not accepted on this endpoint' });
  });

  it('Should refuse an expired session', async () => {
    // Prepare
    const cookie = createSessionToken(orgId, SECRET, new Date(nowMs - 120_000), 60);
    // Act
    const decision = await authorizer().authorize(session(cookie));
    // Assess
    expect(decision).toEqual({ ok: false, reason: 'session expired' });
  });

  it('Should refuse a session signed with another secret', async () => {
    // Prepare
    const cookie = createSessionToken(orgId, 'x'.repeat(64), new Date(nowMs), 60);
    // Act
    const decision = await authorizer().authorize(session(cookie));
    // Assess
    expect(decision).toEqual({ ok: false, reason: 'bad session signature' });
  });

  it('Should refuse a session of an org that does not exist', async () => {
    // Prepare
    const cookie = createSessionToken('no-such-org', SECRET, new Date(nowMs), 60);
    // Act
    const decision = await authorizer().authorize(session(cookie));
    // Assess
    expect(decision).toEqual({ ok: false, reason: 'session for unknown organization' });
  });
});
