// canonicalJson and eventId: content-addressed ids that ignore key order and formatting.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalJsonBySerializer, eventId, MAX_CANONICAL_DEPTH } from '#domain/lineage/event-id';
import { schemaVersion } from '#domain/lineage/schema-url';
import { foldForSearch } from '#domain/lineage/search-fold';
import { MAX_NESTING_DEPTH } from '#domain/lineage/validate';
import { loadExamples } from './examples.ts';

describe('canonicalJson', () => {
  it('sorts keys at every level and drops whitespace', () => {
    expect(canonicalJson({ b: [1, { d: 1, c: 'x' }], a: null })).toBe('{"a":null,"b":[1,{"c":"x","d":1}]}');
  });

  it('keeps array order', () => {
    expect(canonicalJson([3, 1, 2])).toBe('[3,1,2]');
  });

  it('writes scalars as JSON.stringify does', () => {
    expect(canonicalJson({ s: 'é"\n🕷', n: 1e21, f: 0.1, t: true, z: -0 })).toBe('{"f":0.1,"n":1e+21,"s":"é\\"\\n🕷","t":true,"z":0}');
  });

  it('sorts keys by UTF-16 code units, as RFC 8785 does', () => {
    expect(canonicalJson({ é: 1, z: 2, Z: 3, '10': 4, '9': 5 })).toBe('{"10":4,"9":5,"Z":3,"z":2,"é":1}');
  });

  it('matches JSON.stringify on an already sorted document', () => {
    const doc = { a: [1, 'two', { b: null, c: [true, false] }], d: { e: { f: 'g' } } };
    expect(canonicalJson(doc)).toBe(JSON.stringify(doc));
  });

  it('serializes the deepest nesting validateEvent accepts', () => {
    // Prepare
    const deep: unknown = JSON.parse(`${'['.repeat(MAX_NESTING_DEPTH)}${']'.repeat(MAX_NESTING_DEPTH)}`);
    // Act
    const text = canonicalJson(deep);
    // Assess
    expect(text).toHaveLength(2 * MAX_NESTING_DEPTH);
  });

  it('throws a RangeError, not a stack overflow, on absurd nesting', () => {
    const deep: unknown = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(() => canonicalJson(deep)).toThrow(`document nests deeper than ${MAX_CANONICAL_DEPTH} levels`);
  });
});

describe('canonicalJson fast path (sorted copy + JSON.stringify)', () => {
  it.each(loadExamples().map((e) => [e.name, e.text] as const))('writes the same bytes as the serializer for %s', (_name, text) => {
    const value: unknown = JSON.parse(text);
    expect(canonicalJson(value)).toBe(canonicalJsonBySerializer(value));
  });

  it.each([
    ['integer-like keys anywhere (the serializer takes over)', '{"z":{"b":1,"10":2,"9":3},"a":[{"y":1,"x":2}]}'],
    ['an integer-like key at the top', '{"2":1,"1":2,"b":3}'],
    ['digit-led keys that are not array indexes', '{"01":1,"1a":2,"1.5":3,"-1":4,"0":5}'],
    ['a parsed "__proto__" key', '{"__proto__":{"b":1,"a":2},"a":1}'],
    ['a "toJSON" member', '{"toJSON":"x","a":{"toJSON":{"k":1}}}'],
    ['unicode and astral keys', '{"é":1,"z":2,"Z":3,"🕷":4,"\uffff":5,"\ud83d":6}'],
    ['already sorted, shared untouched', '{"a":[1,{"b":2,"c":[3,{"d":4}]}],"e":null}'],
    ['arrays of arrays with objects', '[[{"b":1,"a":2}],[],[[{"d":[{"f":1,"e":2}]}]]]'],
    ['scalars', '"x"'],
    ['numbers', '{"n":1e21,"m":-0,"f":0.1,"i":12345678901234567890}'],
  ])('writes the same bytes as the serializer: %s', (_name, text) => {
    const value: unknown = JSON.parse(text);
    expect(canonicalJson(value)).toBe(canonicalJsonBySerializer(value));
  });

  it('sorts the members of a parsed "__proto__" object, never setting a prototype', () => {
    expect(canonicalJson(JSON.parse('{"b":0,"__proto__":{"y":1,"x":2}}'))).toBe('{"__proto__":{"x":2,"y":1},"b":0}');
  });

  it('leaves the input untouched', () => {
    const value = JSON.parse('{"b":{"d":1,"c":2},"a":[{"f":1,"e":2}]}') as unknown;
    const before = JSON.stringify(value);
    canonicalJson(value);
    expect(JSON.stringify(value)).toBe(before);
  });
});

describe('eventId', () => {
  it('is a version-8 RFC 9562 UUID', () => {
    expect(eventId({ a: 1 })).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('ignores key order', () => {
    expect(eventId({ a: 1, b: { c: 2, d: 3 } })).toBe(eventId({ b: { d: 3, c: 2 }, a: 1 }));
  });

  it('distinguishes values', () => {
    expect(eventId({ a: 1 })).not.toBe(eventId({ a: '1' }));
  });

  it('is the SHA-256 of the domain tag and canonical form, with version and variant bits set', () => {
    // Prepare
    const digest = createHash('sha256').update('lakeline/openlineage-event/v1\n{"a":1}').digest('hex');
    // Act
    const id = eventId({ a: 1 }).replaceAll('-', '');
    // Assess
    expect(id.slice(0, 12)).toBe(digest.slice(0, 12));
    expect(id[12]).toBe('8');
    expect(id.slice(13, 16)).toBe(digest.slice(13, 16));
    expect(id.slice(17, 32)).toBe(digest.slice(17, 32));
  });
});

describe('schemaVersion', () => {
  it.each([
    ['https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent', '2-0-2'],
    ['https://openlineage.io/spec/1-0-5/OpenLineage.json#/definitions/RunEvent', '1-0-5'],
    ['https://openlineage.io/spec/2-8-9/OpenLineage.json#/definitions/DatasetEvent', '2-8-9'],
    ['https://openlineage.io/spec/1-0-0/OpenLineage.json', '1-0-0'],
    ['https://openlineage.io/spec/12-10-100/OpenLineage.json?x=1#/$defs/JobEvent', '12-10-100'],
    ['http://test.schema.url', ''],
    ['https://openlineage.io/spec/OpenLineage.json#/$defs/RunEvent/2-0-2', ''],
    [undefined, ''],
    [42, ''],
  ])('reads %j as %j', (url, version) => {
    expect(schemaVersion(url)).toBe(version);
  });
});

describe('foldForSearch', () => {
  it('lower-cases and composes', () => {
    expect(foldForSearch('E\u0301TL_Job')).toBe('étl_job');
  });
});
