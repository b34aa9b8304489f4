/**
 * The local store's dynalite tuning (local/dynalite-tuning.cjs): table descriptions served from
 * memory, dropped on every write of their key, never shared between callers, never kept from a
 * read that raced a write; the native response checksum equal to buffer-crc32's; and expressions
 * parsed once per text and name map, each request getting its own copy and its names marked used.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const { cacheExpressionParses, cacheTableDescriptions, nativeResponseChecksum, TABLE_PREFIX } = require('../../../local/dynalite-tuning.cjs') as {
  cacheExpressionParses: (parsers: { parse: (...args: never[]) => unknown }[]) => { parses: () => number; hits: () => number };
  cacheTableDescriptions: (Level: unknown) => { reads: () => number; hits: () => number };
  nativeResponseChecksum: (crc32: { unsigned: (b: Buffer | string) => number }) => void;
  TABLE_PREFIX: string;
};

type Op = { type: 'put' | 'del'; key: string; value?: unknown };

/** A LevelDB stand-in with the promise API dynalite calls, counting the reads that reach it. */
const fakeLevelClass = () => {
  class FakeLevel {
    readonly data = new Map<string, string>();
    storeReads = 0;
    /** When set, a read waits for it (to interleave a write). */
    gate: Promise<void> | undefined;
    async get(key: string): Promise<unknown> {
      this.storeReads++;
      const text = this.data.get(key);
      if (this.gate) await this.gate;
      return text === undefined ? undefined : JSON.parse(text);
    }
    async put(key: string, value: unknown): Promise<void> {
      this.data.set(key, JSON.stringify(value));
    }
    async del(key: string): Promise<void> {
      this.data.delete(key);
    }
    batch(ops?: Op[]): Promise<void> | { put(key: string, value: unknown): unknown; write(): Promise<void> } {
      if (ops === undefined) {
        const queued: Op[] = [];
        const chained = {
          put: (key: string, value: unknown) => (queued.push({ type: 'put', key, value }), chained),
          write: async () => this.apply(queued),
        };
        return chained;
      }
      return Promise.resolve(this.apply(ops));
    }
    private apply(ops: Op[]): void {
      for (const op of ops) if (op.type === 'put') this.data.set(op.key, JSON.stringify(op.value));
      else this.data.delete(op.key);
    }
  }
  return FakeLevel;
};

const TABLE = `${TABLE_PREFIX}Events`;
const description = (indexes: string[]) => ({ TableName: 'Events', TableStatus: 'ACTIVE', GlobalSecondaryIndexes: indexes.map((IndexName) => ({ IndexName })) });

describe('cacheTableDescriptions', () => {
  it('Should read a table description from LevelDB once, and give every caller its own copy', async () => {
    // Prepare
    const Level = fakeLevelClass();
    const counters = cacheTableDescriptions(Level);
    const db = new Level();
    await db.put(TABLE, description(['byTime']));
    // Act
    const first = (await db.get(TABLE)) as ReturnType<typeof description>;
    first.GlobalSecondaryIndexes.push({ IndexName: 'changed by a caller' });
    const second = await db.get(TABLE);
    const third = await db.get(TABLE);
    // Assess
    expect(second).toEqual(description(['byTime']));
    expect(third).toEqual(description(['byTime']));
    expect(db.storeReads).toBe(1);
    expect(counters.hits()).toBeGreaterThanOrEqual(2);
  });

  it('Should pass item keys straight through to LevelDB', async () => {
    // Prepare
    const Level = fakeLevelClass();
    cacheTableDescriptions(Level);
    const db = new Level();
    await db.put('item-Events~k1', { a: 1 });
    // Act
    await db.get('item-Events~k1');
    await db.put('item-Events~k1', { a: 2 });
    const read = await db.get('item-Events~k1');
    // Assess
    expect(read).toEqual({ a: 2 });
    expect(db.storeReads).toBe(2);
  });

  it('Should drop a description when it is put, deleted or written in a batch', async () => {
    // Prepare
    const Level = fakeLevelClass();
    cacheTableDescriptions(Level);
    const db = new Level();
    await db.put(TABLE, description(['byTime']));
    await db.get(TABLE);
    // Act + Assess: each kind of write is seen by the next read
    await db.put(TABLE, description(['byTime', 'byJob']));
    expect(await db.get(TABLE)).toEqual(description(['byTime', 'byJob']));
    await db.batch([{ type: 'put', key: TABLE, value: description(['byRun']) }]);
    expect(await db.get(TABLE)).toEqual(description(['byRun']));
    const chained = db.batch() as { put(key: string, value: unknown): unknown; write(): Promise<void> };
    chained.put(TABLE, description(['byJob']));
    await chained.write();
    expect(await db.get(TABLE)).toEqual(description(['byJob']));
    await db.del(TABLE);
    expect(await db.get(TABLE)).toBeUndefined();
  });

  it('Should not keep what a read returned when a write of the key overlapped it', async () => {
    // Prepare
    const Level = fakeLevelClass();
    cacheTableDescriptions(Level);
    const db = new Level();
    await db.put(TABLE, description(['old']));
    let release: () => void = () => undefined;
    db.gate = new Promise((resolve) => (release = resolve));
    // Act: the read saw the old description, then the write landed before the read finished
    const racing = db.get(TABLE);
    await db.put(TABLE, description(['new']));
    release();
    const raced = await racing;
    db.gate = undefined;
    const after = await db.get(TABLE);
    // Assess
    expect(raced).toEqual(description(['old']));
    expect(after).toEqual(description(['new']));
  });
});

describe('nativeResponseChecksum', () => {
  it("Should compute the same CRC-32 as buffer-crc32 for strings (UTF-8) and buffers", () => {
    // Prepare
    const original = require('buffer-crc32') as { unsigned: (b: Buffer | string) => number };
    const inputs = ['', '{"Items":[]}', 'héllo wörld ✓'.repeat(500), Buffer.from([0, 1, 2, 255, 254])];
    const expected = inputs.map((input) => original.unsigned(input));
    const patched = { unsigned: original.unsigned };
    // Act
    nativeResponseChecksum(patched);
    // Assess
    expect(patched.unsigned).not.toBe(original.unsigned);
    expect(inputs.map((input) => patched.unsigned(input))).toEqual(expected);
  });
});

describe('cacheExpressionParses', () => {
  const dynaliteDb = path.join(path.dirname(require.resolve('dynalite')), 'db');
  /** A fresh copy of one of dynalite's parser modules (the cache wraps the module object it is given). */
  const freshParser = (name: string): { parse: (text: string, options: { context: Record<string, unknown> }) => unknown } => {
    const file = require.resolve(path.join(dynaliteDb, name));
    const real = require(file) as { parse: (text: string, options: { context: Record<string, unknown> }) => unknown };
    return { parse: real.parse };
  };
  const db = require(dynaliteDb) as { compare: unknown };
  const contextOf = (names?: Record<string, string>, values?: Record<string, unknown>) => ({
    attrNames: names,
    attrVals: values,
    unusedAttrNames: Object.fromEntries(Object.keys(names ?? {}).map((n) => [n, true])),
    unusedAttrVals: Object.fromEntries(Object.keys(values ?? {}).map((n) => [n, true])),
    isReserved: () => false,
    compare: db.compare,
  });

  it('Should parse an expression once and give every request an equal, separate result', () => {
    // Prepare
    const cached = freshParser('conditionParser');
    const counters = cacheExpressionParses([cached]);
    const plain = freshParser('conditionParser');

    // Act
    const first = cached.parse('attribute_not_exists(pk)', { context: contextOf() });
    const second = cached.parse('attribute_not_exists(pk)', { context: contextOf() });

    // Assess
    expect(second).toEqual(plain.parse('attribute_not_exists(pk)', { context: contextOf() }));
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    expect(counters.parses()).toBe(1);
    expect(counters.hits()).toBe(1);
  });

  it('Should strike the names a cached expression uses from the unused names, and keep the others', () => {
    // Prepare
    const cached = freshParser('projectionParser');
    cacheExpressionParses([cached]);
    cached.parse('#p0, #p1', { context: contextOf({ '#p0': 'pk', '#p1': 'doc' }) });
    const context = contextOf({ '#p0': 'pk', '#p1': 'doc', '#other': 'raw' });
    const repeat = contextOf({ '#p0': 'pk', '#p1': 'doc' });

    // Act
    cached.parse('#p0, #p1', { context: repeat });
    cached.parse('#p0, #p1', { context });

    // Assess
    expect(Object.keys(repeat.unusedAttrNames)).toEqual([]);
    expect(Object.keys(context.unusedAttrNames)).toEqual(['#other']);
  });

  it('Should parse again an expression whose names map to other attributes', () => {
    // Prepare
    const cached = freshParser('projectionParser');
    const counters = cacheExpressionParses([cached]);
    const plain = freshParser('projectionParser');

    // Act
    cached.parse('#p0', { context: contextOf({ '#p0': 'pk' }) });
    const other = cached.parse('#p0', { context: contextOf({ '#p0': 'doc' }) });

    // Assess
    expect(other).toEqual(plain.parse('#p0', { context: contextOf({ '#p0': 'doc' }) }));
    expect(counters.parses()).toBe(2);
  });

  it('Should parse every time an expression with values, whose result carries them', () => {
    // Prepare
    const cached = freshParser('updateParser');
    const counters = cacheExpressionParses([cached]);

    // Act
    const a = cached.parse('SET #n = :v', { context: contextOf({ '#n': 'count' }, { ':v': { N: '1' } }) });
    const b = cached.parse('SET #n = :v', { context: contextOf({ '#n': 'count' }, { ':v': { N: '2' } }) });

    // Assess
    expect(JSON.stringify(a)).toContain('"1"');
    expect(JSON.stringify(b)).toContain('"2"');
    expect(counters.parses()).toBe(0);
    expect(counters.hits()).toBe(0);
  });

  it('Should throw a syntax error on every request, never keep it', () => {
    // Prepare
    const cached = freshParser('conditionParser');
    cacheExpressionParses([cached]);

    // Act / Assess
    expect(() => cached.parse('attribute_not_exists(', { context: contextOf() })).toThrow();
    expect(() => cached.parse('attribute_not_exists(', { context: contextOf() })).toThrow();
  });
});
