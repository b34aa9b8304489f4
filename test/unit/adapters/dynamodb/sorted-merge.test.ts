// mergeSorted: the merged order of sharded, paged, filtered streams, read only as far as needed.
import { describe, expect, it } from 'vitest';
import { evenSizing, mergeSorted, type PagedSource } from '#adapters/dynamodb/sorted-merge';

/** A paged source over a sorted list, with an optional filter, that counts what it examined. */
const sourceOf = (items: readonly number[], keep: (n: number) => boolean = () => true) => {
  let at = 0;
  const stats = { examined: 0, pages: 0 };
  const source: PagedSource<number> = async (limit) => {
    const page = items.slice(at, at + limit);
    at += page.length;
    stats.examined += page.length;
    stats.pages += 1;
    return { items: page.filter(keep), done: at >= items.length, examined: page.length };
  };
  return { source, stats };
};

const ascending = (a: number, b: number) => a - b;

/** Deterministic pseudo-random numbers. */
const seededRandom = (seed: number) => () => {
  // mulberry32: 32-bit integer arithmetic throughout (a float LCG such as seed * 1103515245 loses
  // precision past 2^53 and collapses into a short cycle).
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
};

describe('mergeSorted', () => {
  it('Should return the first N of the merged order of all sources', async () => {
    // Prepare
    const random = seededRandom(3);
    const all = Array.from({ length: 500 }, (_, i) => i * 1_000 + Math.floor(random() * 999));
    const shards: number[][] = Array.from({ length: 8 }, () => []);
    for (const n of all) shards[Math.floor(random() * 8)]?.push(n);

    for (const count of [0, 1, 7, 30, 499, 500, 800]) {
      // Act
      const merged = await mergeSorted(
        shards.map((s) => sourceOf(s).source),
        ascending,
        count,
        evenSizing(count, 8, false),
      );

      // Assess
      expect(merged).toEqual(all.slice(0, count));
    }
  });

  it('Should read little more than it returns when the data is spread evenly', async () => {
    // Prepare
    const shards = Array.from({ length: 8 }, (_, s) => Array.from({ length: 1_000 }, (_, i) => i * 8 + s));
    const sources = shards.map((s) => sourceOf(s));

    // Act
    const merged = await mergeSorted(
      sources.map((s) => s.source),
      ascending,
      30,
      evenSizing(30, 8, false),
    );

    // Assess
    expect(merged).toEqual(Array.from({ length: 30 }, (_, i) => i));
    const examined = sources.reduce((sum, s) => sum + s.stats.examined, 0);
    expect(examined).toBeLessThanOrEqual(8 * evenSizing(30, 8, false).first);
    expect(sources.every((s) => s.stats.pages === 1)).toBe(true);
  });

  it('Should keep refilling a filtered source whose pages come back empty, sizing pages by what the filter keeps', async () => {
    // Prepare: only multiples of 97 survive the filter, all in one source.
    const sparse = sourceOf(Array.from({ length: 5_000 }, (_, i) => i), (n) => n % 97 === 0);
    const dense = sourceOf([], () => true);

    // Act
    const merged = await mergeSorted([sparse.source, dense.source], ascending, 10, { first: 16, max: 1_000 });

    // Assess
    expect(merged).toEqual(Array.from({ length: 10 }, (_, i) => i * 97));
    expect(sparse.stats.pages).toBeLessThanOrEqual(3);
  });

  it('Should read about what a selective filter needs, not orders of magnitude more', async () => {
    // Prepare: 8 shards, 1 entry in 12 kept, 30 wanted: about 360 entries must be examined.
    const random = seededRandom(11);
    const shards: number[][] = Array.from({ length: 8 }, () => []);
    for (let n = 0; n < 40_000; n++) shards[Math.floor(random() * 8)]?.push(n);
    const sources = shards.map((s) => sourceOf(s, (n) => n % 12 === 0));

    // Act
    const merged = await mergeSorted(
      sources.map((s) => s.source),
      ascending,
      30,
      evenSizing(30, 8, true),
    );

    // Assess
    expect(merged).toEqual(Array.from({ length: 30 }, (_, i) => i * 12));
    const examined = sources.reduce((sum, s) => sum + s.stats.examined, 0);
    expect(examined).toBeLessThan(1_500);
  });

  it('Should stop when every source is exhausted before N items', async () => {
    // Act
    const merged = await mergeSorted([sourceOf([1, 4]).source, sourceOf([2, 3]).source], ascending, 10, { first: 1, max: 1 });

    // Assess
    expect(merged).toEqual([1, 2, 3, 4]);
  });

  it('Should merge in descending order with a reversed comparison', async () => {
    // Act
    const merged = await mergeSorted([sourceOf([9, 5, 1]).source, sourceOf([8, 2]).source], (a, b) => b - a, 4, evenSizing(4, 2, false));

    // Assess
    expect(merged).toEqual([9, 8, 5, 2]);
  });
});
