/**
 * API keys: the `ll_<keyId>_<secret>` format, the stored hash, and the constant-time comparison.
 */
import * as crypto from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API_KEY_PREFIX, generateApiKey, hashSecret, parseApiKey, secretMatches } from '#domain/core/api-key';

// Wrap timingSafeEqual so the tests can see that the comparison goes through it.
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof crypto>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

afterEach(() => {
  vi.mocked(crypto.timingSafeEqual).mockClear();
});

describe('generateApiKey', () => {
  it('Should produce ll_<16 hex>_<64 hex> whose parts are the key id and secret', () => {
    // Act
    const key = generateApiKey();
    // Assess
    expect(key.token).toMatch(/^ll_[a-f0-9]{16}_[a-f0-9]{64}$/);
    expect(key.token).toBe(`${API_KEY_PREFIX}_${key.keyId}_${key.secret}`);
  });

  it('Should produce a different key id and secret every time', () => {
    // Act
    const keys = Array.from({ length: 50 }, generateApiKey);
    // Assess
    expect(new Set(keys.map((k) => k.keyId)).size).toBe(50);
    expect(new Set(keys.map((k) => k.secret)).size).toBe(50);
  });
});

describe('parseApiKey', () => {
  it('Should split a generated token back into its key id and secret', () => {
    // Prepare
    const key = generateApiKey();
    // Act
    const parsed = parseApiKey(key.token);
    // Assess
    expect(parsed).toEqual({ keyId: key.keyId, secret: key.secret });
  });

  const valid = generateApiKey();
  it.each([
    ['empty', ''],
    ['no prefix', `${valid.keyId}_${valid.secret}`],
    ['other prefix', `lk_${valid.keyId}_${valid.secret}`],
    ['upper-case prefix', `LL_${valid.keyId}_${valid.secret}`],
    ['short key id', `ll_${valid.keyId.slice(1)}_${valid.secret}`],
    ['upper-case hex', `ll_${valid.keyId.toUpperCase()}_${valid.secret}`],
    ['short secret', `ll_${valid.keyId}_${valid.secret.slice(1)}`],
    ['long secret', `ll_${valid.keyId}_${valid.secret}0`],
    ['non-hex secret', `ll_${valid.keyId}_${'g'.repeat(64)}`],
    ['extra part', `ll_${valid.keyId}_${valid.secret}_x`],
    ['surrounding space', ` ${valid.token}`],
    ['a JWT', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc'],
  ])('Should refuse a malformed token (%s)', (_case, token) => {
    // Act
    const parsed = parseApiKey(token);
    // Assess
    expect(parsed).toBeUndefined();
  });
});

describe('hashSecret', () => {
  it('Should store the SHA-256 of the secret as hex, never the secret', () => {
    // Prepare
    const { secret } = generateApiKey();
    // Act
    const hash = hashSecret(secret);
    // Assess
    expect(hash).toBe(crypto.createHash('sha256').update(secret).digest('hex'));
    expect(hash).not.toContain(secret);
  });
});

describe('secretMatches', () => {
  it('Should accept the secret whose hash is stored', () => {
    // Prepare
    const { secret } = generateApiKey();
    // Act
    const matches = secretMatches(secret, hashSecret(secret));
    // Assess
    expect(matches).toBe(true);
  });

  it('Should refuse another secret', () => {
    // Prepare
    const stored = hashSecret(generateApiKey().secret);
    // Act
    const matches = secretMatches(generateApiKey().secret, stored);
    // Assess
    expect(matches).toBe(false);
  });

  it('Should compare the two hashes with timingSafeEqual over equal-length buffers', () => {
    // Prepare
    const { secret } = generateApiKey();
    const stored = hashSecret(generateApiKey().secret);
    // Act
    secretMatches(secret, stored);
    // Assess
    const compare = vi.mocked(crypto.timingSafeEqual);
    expect(compare).toHaveBeenCalledTimes(1);
    const [a, b] = compare.mock.calls[0] as [Buffer, Buffer];
    expect(a.length).toBe(32);
    expect(b.length).toBe(32);
  });

  it.each([
    ['empty', ''],
    ['truncated', hashSecret('x').slice(0, 32)],
    ['not hex', 'z'.repeat(64)],
  ])('Should refuse, without throwing, a corrupt stored hash (%s)', (_case, stored) => {
    // Act
    const matches = secretMatches(generateApiKey().secret, stored);
    // Assess
    expect(matches).toBe(false);
  });
});
