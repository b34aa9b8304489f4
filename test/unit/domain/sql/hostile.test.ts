// The hostile corpus: every statement is refused in every dialect it lists, with a message that names
// the construct; and each of the firewall's two readings (lexer, parser) refuses on its own.
import { describe, expect, it } from 'vitest';
import { ValidationError } from '#domain/errors';
import { analyzeSql } from '#domain/sql/analyze';
import { ForbiddenSqlError } from '#domain/sql/errors';
import { checkParsed, checkTokens } from '#domain/sql/analyze';
import { HOSTILE_CORPUS } from './hostile-corpus.ts';
import { orgOptions } from './org-catalog.ts';

const CASES = HOSTILE_CORPUS.flatMap((entry) => entry.dialects.map((dialect) => ({ ...entry, dialect })));

/** Entries refused by the lexer alone, by design: the ambiguity is lexical, the parser reads one side of it. */
const LEXICAL_ONLY = new Set(['nested block comment', 'spark variable substitution', 'spark substitution in comment', 'zero-width space']);

function refusal(act: () => unknown): ForbiddenSqlError | undefined {
  try {
    act();
    return undefined;
  } catch (error) {
    if (error instanceof ForbiddenSqlError) return error;
    throw error;
  }
}

describe('hostile corpus', () => {
  it('holds at least 40 distinct statements, each with a construct and a dialect', () => {
    expect(HOSTILE_CORPUS.length).toBeGreaterThanOrEqual(40);
    expect(new Set(HOSTILE_CORPUS.map((e) => e.id)).size).toBe(HOSTILE_CORPUS.length);
    for (const entry of HOSTILE_CORPUS) {
      expect(entry.construct).not.toBe('');
      expect(entry.dialects.length).toBeGreaterThan(0);
    }
  });

  it.each(CASES)('$dialect: refuses $id, naming "$construct"', ({ sql, construct, dialect }) => {
    // Act
    const error = refusal(() => analyzeSql(sql, orgOptions(dialect)));

    // Assess
    expect(error, 'statement was allowed').toBeInstanceOf(ForbiddenSqlError);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error?.message.startsWith('SQL not allowed: ')).toBe(true);
    expect(error?.message).toContain(construct);
    expect(error?.construct).toBe(error?.message.slice('SQL not allowed: '.length));
  });

  it.each(CASES.filter((c) => !LEXICAL_ONLY.has(c.id)))('$dialect: the parser reading alone refuses $id', ({ sql, dialect }) => {
    expect(refusal(() => checkParsed(sql, orgOptions(dialect)))).toBeInstanceOf(ForbiddenSqlError);
  });

  it.each(CASES.filter((c) => LEXICAL_ONLY.has(c.id)))('$dialect: the lexer reading refuses $id that the parser would read one way', ({ sql, construct, dialect }) => {
    expect(refusal(() => checkTokens(sql, dialect))?.message).toContain(construct);
  });
});
