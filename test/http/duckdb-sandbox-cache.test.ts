/**
 * The cache of idle locked sandboxes (`functions/adapters/duckdb/sandbox-cache.ts`): one idle
 * sandbox per key, taken by one query at a time, least recently used ones evicted beyond capacity,
 * idle ones closed after their time, and keys that differ in owner, size or any table's metadata.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SandboxCache } from '#adapters/duckdb/sandbox-cache';

class Sandbox {
  disposed = false;
  constructor(readonly id: string) {}
  dispose(): void {
    this.disposed = true;
  }
}

const table = (name: string, metadataLocation: string) => ({ name: { namespace: 'ns', table: name }, metadataLocation });

describe('SandboxCache', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('Should hand an idle sandbox to one taker only', () => {
    // Prepare
    const cache = new SandboxCache<Sandbox>(4, 60_000);
    const sandbox = new Sandbox('a');
    cache.give('k', sandbox);
    // Act
    const first = cache.take('k');
    const second = cache.take('k');
    // Assess
    expect(first).toBe(sandbox);
    expect(second).toBeUndefined();
    expect(sandbox.disposed).toBe(false);
  });

  it('Should close the least recently given sandbox beyond its capacity', () => {
    // Prepare
    const cache = new SandboxCache<Sandbox>(2, 60_000);
    const [a, b, c] = [new Sandbox('a'), new Sandbox('b'), new Sandbox('c')];
    // Act
    cache.give('a', a);
    cache.give('b', b);
    cache.give('c', c);
    // Assess
    expect(a.disposed).toBe(true);
    expect([b.disposed, c.disposed]).toEqual([false, false]);
    expect(cache.size).toBe(2);
  });

  it('Should close a sandbox left idle past its time', () => {
    // Prepare
    vi.useFakeTimers();
    const cache = new SandboxCache<Sandbox>(4, 1_000);
    const sandbox = new Sandbox('a');
    cache.give('k', sandbox);
    // Act
    vi.advanceTimersByTime(1_001);
    // Assess
    expect(sandbox.disposed).toBe(true);
    expect(cache.take('k')).toBeUndefined();
  });

  it('Should keep one idle sandbox per key, closing the one it replaces', () => {
    // Prepare
    const cache = new SandboxCache<Sandbox>(4, 60_000);
    const [old, fresh] = [new Sandbox('old'), new Sandbox('new')];
    // Act
    cache.give('k', old);
    cache.give('k', fresh);
    // Assess
    expect(old.disposed).toBe(true);
    expect(cache.take('k')).toBe(fresh);
  });

  it('Should key by owner, size and every table with its metadata file, in any order', () => {
    // Prepare
    const tables = [table('a', 'file:///a/1.json'), table('b', 'file:///b/1.json')];
    // Act
    const key = SandboxCache.keyOf('org-1', '2t', tables);
    // Assess
    expect(SandboxCache.keyOf('org-1', '2t', [...tables].reverse())).toBe(key);
    expect(SandboxCache.keyOf('org-2', '2t', tables)).not.toBe(key);
    expect(SandboxCache.keyOf('org-1', '4t', tables)).not.toBe(key);
    expect(SandboxCache.keyOf('org-1', '2t', [tables[0] as ReturnType<typeof table>, table('b', 'file:///b/2.json')])).not.toBe(key);
    expect(SandboxCache.keyOf('org-1', '2t', [tables[0] as ReturnType<typeof table>])).not.toBe(key);
  });
});
