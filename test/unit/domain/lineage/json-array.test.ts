// splitJsonArray: the text of each batch element, exactly as sent.
import { describe, expect, it } from 'vitest';
import { splitJsonArray } from '#domain/lineage/json-array';
import { seededRandom } from '../../../adapters/lineage-fixtures.ts';
import { loadExamples } from './examples.ts';

describe('splitJsonArray', () => {
  it('Should return each element verbatim, without the whitespace around it', () => {
    // Prepare
    const text = ' [ {"a": [1, 2]} ,\n\t"x,]" , 3 ,null,{ } ]\n';

    // Act
    const parts = splitJsonArray(text);

    // Assess
    expect(parts).toEqual(['{"a": [1, 2]}', '"x,]"', '3', 'null', '{ }']);
  });

  it('Should not be fooled by brackets, braces, commas and escaped quotes inside strings', () => {
    // Prepare
    const tricky = [{ s: 'a"],[{\\' }, { s: '\\"' }, ['"', '\\\\"]'], { '}': '{', ',': ']' }];
    const text = JSON.stringify(tricky, null, 2);

    // Act
    const parts = splitJsonArray(text);

    // Assess
    expect(parts?.map((p) => JSON.parse(p))).toEqual(tricky);
  });

  it('Should return an empty list for an empty array', () => {
    // Act & Assess
    expect(splitJsonArray('[]')).toEqual([]);
    expect(splitJsonArray(' [ \n ] ')).toEqual([]);
  });

  it.each([['{}'], ['"[1]"'], ['3'], ['null'], ['  {"a": [1]}']])('Should return undefined when the top-level value %s is not an array', (text) => {
    // Act & Assess
    expect(splitJsonArray(text)).toBeUndefined();
  });

  it('Should split a batch of every example event into slices that parse to the same events', () => {
    // Prepare
    const examples = loadExamples();
    const text = `[${examples.map((e) => e.text).join(',\r\n')}]`;

    // Act
    const parts = splitJsonArray(text);

    // Assess
    expect(parts).toHaveLength(examples.length);
    parts?.forEach((part, i) => expect(part).toBe((examples[i]?.text ?? '').trim()));
  });

  it('Should agree with JSON.parse on randomly generated arrays', () => {
    // Prepare
    const random = seededRandom(7);
    const alphabet = ['a', '"', '\\', '[', ']', '{', '}', ',', ' ', 'é', '😀', '\n'];
    const value = (depth: number): unknown => {
      const r = random();
      if (depth > 3 || r < 0.3) return Array.from({ length: Math.floor(random() * 6) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      if (r < 0.45) return Math.floor(random() * 1e6) / 7;
      if (r < 0.7) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, (_, i) => [`${value(9)}${i}`, value(depth + 1)]));
    };

    for (let round = 0; round < 200; round++) {
      const array = Array.from({ length: Math.floor(random() * 5) }, () => value(0));
      const text = JSON.stringify(array, null, round % 2 === 0 ? undefined : 1);

      // Act
      const parts = splitJsonArray(text);

      // Assess
      expect(parts?.map((p) => JSON.parse(p) as unknown)).toEqual(array);
    }
  });
});
