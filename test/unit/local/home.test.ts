/**
 * The local state directory (local/home.ts): `local.json` for scripts and the session signing
 * secret, both owner-readable only, the secret created once and then reused.
 */
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readLocalInfo, resolveHome, sessionSecretFor, writeLocalInfo } from '#local/home';

const fresh = (): string => mkdtempSync(path.join(tmpdir(), 'lakeline-home-'));
const savedHome = process.env.LAKELINE_HOME;

afterEach(() => {
  if (savedHome === undefined) delete process.env.LAKELINE_HOME;
  else process.env.LAKELINE_HOME = savedHome;
});

describe('resolveHome', () => {
  it('Should prefer the explicit directory, then LAKELINE_HOME, then ./.lakeline, always absolute', () => {
    // Prepare
    process.env.LAKELINE_HOME = '/tmp/from-env';
    // Act
    const explicit = resolveHome('relative/dir');
    const fromEnv = resolveHome();
    delete process.env.LAKELINE_HOME;
    const fallback = resolveHome();
    // Assess
    expect(explicit).toBe(path.resolve('relative/dir'));
    expect(fromEnv).toBe('/tmp/from-env');
    expect(fallback).toBe(path.resolve('.lakeline'));
  });
});

describe('local.json', () => {
  it('Should answer undefined before the stack ever ran', () => {
    // Act / Assess
    expect(readLocalInfo(fresh())).toBeUndefined();
  });

  it('Should round-trip the connection details, readable by the owner only', () => {
    // Prepare
    const home = path.join(fresh(), 'nested');
    const info = { baseUrl: 'http://127.0.0.1:8080', apiKey: 'll_x_y', orgId: 'o' };
    // Act
    writeLocalInfo(home, info);
    // Assess
    expect(readLocalInfo(home)).toEqual(info);
    expect(statSync(path.join(home, 'local.json')).mode & 0o777).toBe(0o600);
  });
});

describe('sessionSecretFor', () => {
  it('Should create a 256-bit secret once and return the same one afterwards', () => {
    // Prepare
    const home = fresh();
    // Act
    const first = sessionSecretFor(home);
    const second = sessionSecretFor(home);
    // Assess
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(second).toBe(first);
    expect(readFileSync(path.join(home, 'session-secret'), 'utf8')).toBe(first);
    expect(statSync(path.join(home, 'session-secret')).mode & 0o777).toBe(0o600);
  });

  it('Should give each home its own secret', () => {
    // Act / Assess
    expect(sessionSecretFor(fresh())).not.toBe(sessionSecretFor(fresh()));
  });
});
