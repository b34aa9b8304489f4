/**
 * Session cookies: `<base64url(claims)>.<base64url(HMAC-SHA256)>`, signed, expiring, and found
 * among the request's cookies.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSessionToken, DEFAULT_SESSION_TTL_SECONDS, findSessionCookie, SESSION_COOKIE, verifySessionToken } from '#domain/core/session';

const SECRET = 'a'.repeat(64);
const NOW = new Date('2030-01-01T00:00:00Z');
const ORG = '11111111-2222-4333-8444-555555555555';

const at = (secondsFromNow: number): Date => new Date(NOW.getTime() + secondsFromNow * 1000);
const payloadOf = (token: string): Record<string, unknown> => JSON.parse(Buffer.from(token.split('.')[0] as string, 'base64url').toString());

describe('createSessionToken and verifySessionToken', () => {
  it('Should verify a fresh token and return its org and expiry', () => {
    // Prepare
    const token = createSessionToken(ORG, SECRET, NOW, 60);
    // Act
    const verdict = verifySessionToken(token, SECRET, NOW);
    // Assess
    expect(verdict).toEqual({ ok: true, claims: { orgId: ORG, exp: NOW.getTime() / 1000 + 60 } });
  });

  it('Should default to an eight-hour lifetime', () => {
    // Act
    const token = createSessionToken(ORG, SECRET, NOW);
    // Assess
    expect(payloadOf(token).exp).toBe(NOW.getTime() / 1000 + DEFAULT_SESSION_TTL_SECONDS);
    expect(DEFAULT_SESSION_TTL_SECONDS).toBe(8 * 3600);
  });

  it('Should accept a token up to the second before it expires, and refuse it from then on', () => {
    // Prepare
    const token = createSessionToken(ORG, SECRET, NOW, 60);
    // Act
    const before = verifySessionToken(token, SECRET, at(59.999));
    const atExpiry = verifySessionToken(token, SECRET, at(60));
    const after = verifySessionToken(token, SECRET, at(3600));
    // Assess
    expect(before.ok).toBe(true);
    expect(atExpiry).toEqual({ ok: false, reason: 'session expired' });
    expect(after).toEqual({ ok: false, reason: 'session expired' });
  });

  it('Should refuse a token signed with another secret', () => {
    // Prepare
    const token = createSessionToken(ORG, 'b'.repeat(64), NOW, 60);
    // Act
    const verdict = verifySessionToken(token, SECRET, NOW);
    // Assess
    expect(verdict).toEqual({ ok: false, reason: 'bad session signature' });
  });

  it('Should refuse a token whose claims were changed (another org, a later expiry)', () => {
    // Prepare
    const [, signature] = createSessionToken(ORG, SECRET, NOW, 60).split('.');
    const forged = (claims: object) => `${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
    // Act
    const otherOrg = verifySessionToken(forged({ orgId: 'someone-else', exp: NOW.getTime() / 1000 + 60 }), SECRET, NOW);
    const longer = verifySessionToken(forged({ orgId: ORG, exp: NOW.getTime() / 1000 + 10 ** 9 }), SECRET, NOW);
    // Assess
    expect(otherOrg).toEqual({ ok: false, reason: 'bad session signature' });
    expect(longer).toEqual({ ok: false, reason: 'bad session signature' });
  });

  it('Should refuse a token whose signature was changed by one character', () => {
    // Prepare
    const token = createSessionToken(ORG, SECRET, NOW, 60);
    const last = token.at(-1) === 'A' ? 'B' : 'A';
    // Act
    const verdict = verifySessionToken(`${token.slice(0, -1)}${last}`, SECRET, NOW);
    // Assess
    expect(verdict.ok).toBe(false);
  });

  it.each([
    ['empty', ''],
    ['no dot', 'abc'],
    ['leading dot', '.abc'],
    ['empty signature', 'abc.'],
    ['an API key', `ll_${'a'.repeat(16)}_${'b'.repeat(64)}`],
  ])('Should refuse a malformed token (%s)', (_case, token) => {
    // Act
    const verdict = verifySessionToken(token, SECRET, NOW);
    // Assess
    expect(verdict.ok).toBe(false);
  });

  it.each([
    ['not JSON', Buffer.from('not json').toString('base64url')],
    ['no orgId', Buffer.from(JSON.stringify({ exp: 2e9 })).toString('base64url')],
    ['fractional exp', Buffer.from(JSON.stringify({ orgId: ORG, exp: 2e9 + 0.5 })).toString('base64url')],
    ['exp as text', Buffer.from(JSON.stringify({ orgId: ORG, exp: '2000000000' })).toString('base64url')],
  ])('Should refuse correctly signed claims of the wrong shape (%s)', (_case, payload) => {
    // Prepare: sign the bad payload with the right secret, so only its shape is wrong.
    const token = `${payload}.${createHmac('sha256', SECRET).update(payload).digest('base64url')}`;
    // Act
    const verdict = verifySessionToken(token, SECRET, NOW);
    // Assess
    expect(verdict).toEqual({ ok: false, reason: 'malformed session' });
  });
});

describe('findSessionCookie', () => {
  it('Should find the session among other cookies in one header', () => {
    // Act
    const value = findSessionCookie([`theme=dark; ${SESSION_COOKIE}=abc.def; other=1`]);
    // Assess
    expect(value).toBe('abc.def');
  });

  it('Should find the session among cookies passed one per entry, as HTTP API does', () => {
    // Act
    const value = findSessionCookie(['theme=dark', `${SESSION_COOKIE}=abc.def`]);
    // Assess
    expect(value).toBe('abc.def');
  });

  it('Should keep = signs inside the value', () => {
    // Act
    const value = findSessionCookie([`${SESSION_COOKIE}=a=b.c==`]);
    // Assess
    expect(value).toBe('a=b.c==');
  });

  it.each([
    ['no cookies', []],
    ['other cookies only', ['theme=dark; lang=en']],
    ['a cookie whose name only starts with it', [`${SESSION_COOKIE}x=abc`]],
    ['a cookie whose name only ends with it', [`x${SESSION_COOKIE}=abc`]],
  ])('Should find nothing when there is no session cookie (%s)', (_case, cookies) => {
    // Act
    const value = findSessionCookie(cookies);
    // Assess
    expect(value).toBeUndefined();
  });
});
