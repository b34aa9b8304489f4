// The Events item layout: keys, shards, body encodings (plain, gzip, blob) and their round trip.
import { describe, expect, it } from 'vitest';
import { COMPRESS_MIN_BYTES, MAX_INLINE_ITEM_BYTES, SHARD_COUNT, decodeEvent, encodeEvent, shardOf } from '#adapters/dynamodb/event-item';
import { prepareEvent, toPublicEvent } from '#domain/lineage/derive';
import type { EventRecord } from '#domain/lineage/ports';
import { example } from '../../domain/lineage/examples.ts';

const ORG = '9d8a7a6e-0000-4000-8000-000000000001';
const NOW = new Date('2024-05-01T12:00:00Z');

const recordOf = (text: string): EventRecord => {
  const prepared = prepareEvent(JSON.parse(text), Buffer.byteLength(text), NOW);
  if (!prepared.ok) throw new Error(prepared.error);
  return { event: prepared.event, rawText: text };
};

/** An event padded with a facet until its text is at least `bytes` long. */
const padded = (bytes: number, random = false): string => {
  const json = example('marquez/event_simple.json').json as { run: { facets?: Record<string, unknown> } };
  let filler = '';
  if (random) {
    // Hex of a simple PRNG: gzip saves only about half of it.
    let x = 1;
    while (filler.length < bytes) filler += ((x = (x * 48_271) % 2_147_483_647) >>> 0).toString(16).padStart(8, '0');
  } else filler = 'x'.repeat(bytes);
  json.run.facets = { ...json.run.facets, padding: { _producer: 'https://example.com/p', _schemaURL: 'https://example.com/s', text: filler } };
  return JSON.stringify(json);
};

describe('encodeEvent', () => {
  it('Should key the item by org and id, and every index by org, shard, state, run, time and size', () => {
    // Prepare
    const record = recordOf(example('marquez/event_full.json').text);
    const { event } = record;

    // Act
    const { item, blob } = encodeEvent(ORG, record);

    // Assess
    const shard = shardOf(event.id);
    expect(blob).toBeUndefined();
    expect(item).toMatchObject({
      pk: `${ORG}#${event.id}`,
      shardKey: `${ORG}#${shard}`,
      timeKey: `${event.eventTimeKey}#${event.id}`,
      sizeKey: `${String(event.event_size_in_bytes).padStart(12, '0')}#${event.eventTimeKey}#${event.id}`,
      stateKey: `${ORG}#${event.run_state}#${shard}`,
      runKey: `${ORG}#${event.run_id}`,
      eventTime: event.eventTimeKey,
      sizeBytes: event.event_size_in_bytes,
      runState: event.run_state,
      integrationLc: event.integrationFolded,
      jobLc: event.jobNameFolded,
      namespaceLc: event.jobNamespaceFolded,
    });
  });

  it('Should leave the run key and empty names out, so those indexes and filters skip the event', () => {
    // Prepare
    const record = recordOf(example('client/serde_example_dataset_event.json').text);

    // Act
    const { item } = encodeEvent(ORG, record);

    // Assess
    expect(item).not.toHaveProperty('runKey');
    expect(item).not.toHaveProperty('jobLc');
    expect(item).not.toHaveProperty('namespaceLc');
  });

  it('Should keep a small body as plain text and compress a larger one', () => {
    // Prepare
    const small = recordOf(example('marquez/event_required_only.json').text);
    const large = recordOf(example('marquez/event_large.json').text);

    // Act
    const plain = encodeEvent(ORG, small).item;
    const compressed = encodeEvent(ORG, large).item;

    // Assess
    expect(small.rawText.length).toBeLessThan(COMPRESS_MIN_BYTES);
    expect(plain.raw).toBe(small.rawText);
    expect(compressed.raw).toBeUndefined();
    expect((compressed.rawGz as Buffer).length).toBeLessThan(large.rawText.length / 2);
  });

  it('Should move a body that does not fit an item to a blob keyed by org, event and text', () => {
    // Prepare
    const record = recordOf(padded(3 * MAX_INLINE_ITEM_BYTES, true));

    // Act
    const { item, blob } = encodeEvent(ORG, record);

    // Assess
    expect(blob?.key).toMatch(new RegExp(`^events/${ORG}/${record.event.id}/[0-9a-f]{32}\\.json\\.gz$`));
    expect(item.blob).toBe(blob?.key);
    expect(item).not.toHaveProperty('doc');
    expect(item).not.toHaveProperty('rawGz');
    expect(JSON.stringify(item).length).toBeLessThan(2_000);
  });

  it('Should keep a large but compressible body inline, compressed', () => {
    // Prepare
    const record = recordOf(padded(2 * 1024 * 1024));

    // Act
    const { item, blob } = encodeEvent(ORG, record);

    // Assess
    expect(blob).toBeUndefined();
    expect((item.rawGz as Buffer).length).toBeLessThan(MAX_INLINE_ITEM_BYTES);
  });

  it('Should spread ids evenly over the shards', () => {
    // Prepare
    const counts = new Array<number>(SHARD_COUNT).fill(0);
    const base = example('marquez/event_simple.json').json;

    // Act
    for (let i = 0; i < 4_000; i++) {
      const record = recordOf(JSON.stringify({ ...base, eventTime: `2024-01-01T00:00:${String(i % 60).padStart(2, '0')}.${String(i).padStart(6, '0')}Z` }));
      counts[shardOf(record.event.id)] = (counts[shardOf(record.event.id)] ?? 0) + 1;
    }

    // Assess: each shard within 20% of the mean.
    for (const count of counts) expect(Math.abs(count - 500)).toBeLessThan(100);
  });
});

describe('decodeEvent', () => {
  it.each([['marquez/event_required_only.json'], ['marquez/event_unicode.json'], ['marquez/event_large.json']])('Should give back the stored event of %s exactly', (name) => {
    // Prepare
    const record = recordOf(example(name).text);

    // Act
    const decoded = decodeEvent(encodeEvent(ORG, record).item);

    // Assess
    expect(decoded).toEqual(toPublicEvent(record.event));
    expect(Object.keys(decoded)).toEqual(Object.keys(toPublicEvent(record.event)));
  });

  it('Should give back a blob-held event whole from its blob', () => {
    // Prepare
    const record = recordOf(padded(3 * MAX_INLINE_ITEM_BYTES, true));
    const { item, blob } = encodeEvent(ORG, record);

    // Act
    const decoded = decodeEvent(item, blob?.body);

    // Assess
    expect(decoded).toEqual(toPublicEvent(record.event));
  });

  it('Should refuse to decode a blob-held event without its blob', () => {
    // Prepare
    const { item } = encodeEvent(ORG, recordOf(padded(3 * MAX_INLINE_ITEM_BYTES, true)));

    // Act & Assess
    expect(() => decodeEvent(item)).toThrow(/blob body was not supplied/);
  });

  it('Should write event_raw back with the numbers as sent (0.0, 1.0, 1e3, -0.0) when asked for an answer, and as numbers otherwise', () => {
    // Prepare
    const json = example('marquez/event_simple.json').json as { run: { facets?: Record<string, unknown> } };
    json.run.facets = { ...json.run.facets, stats: { _producer: 'https://example.com/p', _schemaURL: 'https://example.com/s', zero: 1, one: 2, thousand: 3, neg: 4, plain: 5 } };
    const text = JSON.stringify(json).replace('"zero":1', '"zero":0.0').replace('"one":2', '"one":1.0').replace('"thousand":3', '"thousand":1e3').replace('"neg":4', '"neg":-0.0').replace('"plain":5', '"plain":0.25');
    const { item } = encodeEvent(ORG, recordOf(text));

    // Act
    const answered = decodeEvent(item, undefined, 'as-sent');
    const parsed = decodeEvent(item);

    // Assess
    expect(JSON.stringify(answered.event_raw)).toBe(text);
    expect((parsed.event_raw as { run: { facets: { stats: Record<string, unknown> } } }).run.facets.stats).toMatchObject({ zero: 0, one: 1, thousand: 1000, plain: 0.25 });
  });
});
