/**
 * Configuration of the authorizer's key cache (LAKELINE_AUTH_CACHE_TTL_MS): read once, validated
 * at load so a typo fails the cold start instead of silently keeping the default.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '#composition/config';
import { AUTH_CACHE_TTL_ENV, DYNAMODB_ENDPOINT_ENV, PROFILE_ENV } from '#composition/env-names';

const local = { [PROFILE_ENV]: 'local', [DYNAMODB_ENDPOINT_ENV]: 'http://127.0.0.1:1' };

describe('loadConfig: authorizer key cache TTL', () => {
  it("Should leave the TTL unset when the variable is absent or empty (the authorizer's default applies)", () => {
    // Act
    const absent = loadConfig(local);
    const empty = loadConfig({ ...local, [AUTH_CACHE_TTL_ENV]: '' });
    // Assess
    expect(absent.authCacheTtlMs).toBeUndefined();
    expect(empty.authCacheTtlMs).toBeUndefined();
  });

  it.each([
    ['local', local],
    ['aws', { [PROFILE_ENV]: 'aws' }],
  ])('Should read the TTL in the %s profile, 0 included', (_profile, env) => {
    // Act
    const zero = loadConfig({ ...env, [AUTH_CACHE_TTL_ENV]: '0' });
    const five = loadConfig({ ...env, [AUTH_CACHE_TTL_ENV]: '5000' });
    // Assess
    expect(zero.authCacheTtlMs).toBe(0);
    expect(five.authCacheTtlMs).toBe(5000);
  });

  it.each(['-1', '1.5', '30s', ' 10', '1e3', 'Infinity', '99999999999999999999'])('Should refuse %j', (value) => {
    // Act
    const load = () => loadConfig({ ...local, [AUTH_CACHE_TTL_ENV]: value });
    // Assess
    expect(load).toThrow(`configuration: ${AUTH_CACHE_TTL_ENV} must be a whole number of milliseconds`);
  });
});
