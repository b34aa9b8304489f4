/**
 * The local store's dynalite tuning (local/dynalite-tuning.cjs): table descriptions served from
 * memory, dropped on every write of their key, never shared between callers, never kept from a
 * read that raced a write; and the native response checksum equal to buffer-crc32's.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const { cacheTableDescriptions, nativeResponseChecksum, TABLE_PREFIX } = require('../../../local/dynalite-tuning.cjs') as {
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
