// The node-type classification covers the installed parser exactly: every variant of its AST
// `Expression` union is forbidden, allowed or structural, once, and no classified name is stale.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALLOWED_NODE_TYPES, FORBIDDEN_NODE_TYPES, STRUCTURAL_NODE_TYPES } from '#domain/sql/node-types';

/** Variant names of `declare type Expression = {...} | {...}` in the parser's type declarations. */
function parserVariants(): string[] {
  const dts = readFileSync(new URL('../../../../node_modules/@polyglot-sql/sdk/dist/index.d.ts', import.meta.url), 'utf8');
  const start = dts.indexOf('declare type Expression = {');
  const end = dts.indexOf('\n};', start);
  expect(start).toBeGreaterThan(0);
  return [...dts.slice(start, end).matchAll(/^ {4}"([a-z0-9_]+)": /gm)].map((m) => m[1] as string);
}

describe('parser node types', () => {
  const variants = parserVariants();
  const classified = [...STRUCTURAL_NODE_TYPES, ...FORBIDDEN_NODE_TYPES.keys(), ...ALLOWED_NODE_TYPES];

  it('reads the variants of the installed parser', () => {
    expect(variants.length).toBeGreaterThan(900);
    expect(variants).toContain('select');
    expect(variants).toContain('read_parquet');
  });

  it('classifies every variant', () => {
    expect(variants.filter((v) => !classified.includes(v))).toEqual([]);
  });

  it('classifies each variant once and only variants that exist', () => {
    expect(classified.length).toBe(new Set(classified).size);
    expect(classified.filter((v) => !variants.includes(v))).toEqual([]);
  });

  it('forbids statements, DDL, file access and script constructs', () => {
    for (const type of ['set_statement', 'copy', 'attach', 'install', 'pragma', 'command', 'raw', 'create_view', 'drop_table', 'query_transform', 'location_property', 'read_c_s_v', 'read_parquet', 'describe']) {
      expect(FORBIDDEN_NODE_TYPES.has(type), type).toBe(true);
    }
  });
});
