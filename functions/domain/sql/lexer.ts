/**
 * @module sql/lexer
 * The firewall's own tokenizer: a second reading of the text, independent of the parser, that follows
 * each engine's lexical rules (strings, quoted identifiers, comments). It splits statements, finds
 * the leading keywords and the names called as functions, and builds the normalized text. Where the
 * engines' lexical rules are ambiguous (nested block comments, Spark's `${...}` substitution, NUL
 * characters) it refuses rather than guess.
 */
import { ForbiddenSqlError } from './errors.ts';
import type { SqlDialect } from './types.ts';

/** A token outside comments and whitespace. */
export interface Token {
  /** `word`: unquoted identifier or keyword; `quoted`: quoted identifier; `string`: any string literal. */
  kind: 'word' | 'quoted' | 'string' | 'number' | 'param' | 'punct';
  /** The token's source text. */
  text: string;
  /** For `word`: ASCII-lower-cased text; for `quoted`: the unquoted name; otherwise the text. */
  value: string;
  /** Offset (UTF-16) of the token's first character. */
  start: number;
}

/** Lexical rules of one engine. */
interface LexRules {
  /** `"..."` is a string literal (Spark), not a quoted identifier. */
  doubleQuoteIsString: boolean;
  /** Backslash escapes the next character in plain string literals (Spark). */
  backslashEscapes: boolean;
  /** `E'...'` strings with backslash escapes (DuckDB, polars' sqlparser). */
  escapeStrings: boolean;
  /** `r'...'` raw strings, no escapes (Spark). */
  rawStrings: boolean;
  /** `$$...$$` and `$tag$...$tag$` strings (DuckDB, polars). */
  dollarStrings: boolean;
  /** `` `name` `` quoted identifiers (Spark, polars). */
  backtickIdentifiers: boolean;
}

const RULES: Record<SqlDialect, LexRules> = {
  duckdb: { doubleQuoteIsString: false, backslashEscapes: false, escapeStrings: true, rawStrings: false, dollarStrings: true, backtickIdentifiers: false },
  polars: { doubleQuoteIsString: false, backslashEscapes: false, escapeStrings: true, rawStrings: false, dollarStrings: true, backtickIdentifiers: true },
  spark: { doubleQuoteIsString: true, backslashEscapes: true, escapeStrings: false, rawStrings: true, dollarStrings: false, backtickIdentifiers: true },
  trino: { doubleQuoteIsString: false, backslashEscapes: false, escapeStrings: false, rawStrings: false, dollarStrings: false, backtickIdentifiers: false },
};

const WORD_START = /[\p{L}_]/u;
const WORD_PART = /[\p{L}\p{N}_$]/u;
const DIGIT = /[0-9]/;
const DOLLAR_TAG = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/;

/** ASCII-only lower case: the engines fold identifiers this way, and non-ASCII lookalikes stay distinct. */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/** The lexed text: its statements (tokens, separators excluded). */
export interface LexResult {
  /** Non-empty statements, in order; each a list of tokens without the `;` separator. */
  statements: Token[][];
}

/**
 * Splits `sql` into tokens and statements by the rules of `dialect`.
 *
 * @throws ForbiddenSqlError on unterminated strings, identifiers or comments, nested block comments,
 *   NUL characters and (Spark) `${` variable substitution anywhere in the text.
 */
export function lexSql(sql: string, dialect: SqlDialect): LexResult {
  const rules = RULES[dialect];
  if (sql.includes('\u0000')) throw new ForbiddenSqlError('NUL character in the statement');
  // Spark substitutes ${env:X}, ${system:X}, ${spark.conf} in the raw text before it parses, even
  // inside strings and comments, so the text must not contain it anywhere.
  if (dialect === 'spark' && sql.includes('${')) throw new ForbiddenSqlError('variable substitution ${...}');

  const statements: Token[][] = [];
  let current: Token[] = [];
  const n = sql.length;
  let i = 0;

  const push = (kind: Token['kind'], start: number, end: number, value?: string): void => {
    const text = sql.slice(start, end);
    current.push({ kind, text, value: value ?? (kind === 'word' ? asciiLower(text) : text), start });
  };

  /** Index just past a string literal whose opening quote is at `open`. */
  const endOfString = (open: number, quote: string, backslash: boolean, doubling: boolean): number => {
    let j = open + 1;
    while (j < n) {
      const c = sql[j];
      if (backslash && c === '\\') {
        j += 2;
        continue;
      }
      if (c === quote) {
        if (doubling && sql[j + 1] === quote) {
          j += 2;
          continue;
        }
        return j + 1;
      }
      j++;
    }
    throw new ForbiddenSqlError('unterminated string literal');
  };

  /** Index just past a quoted identifier (`"..."` or `` `...` ``, the quote doubled inside). */
  const endOfQuoted = (open: number, quote: string): number => {
    let j = open + 1;
    while (j < n) {
      if (sql[j] === quote) {
        if (sql[j + 1] === quote) {
          j += 2;
          continue;
        }
        return j + 1;
      }
      j++;
    }
    throw new ForbiddenSqlError('unterminated quoted identifier');
  };

  while (i < n) {
    const c = sql[i] as string;
    const next = sql[i + 1];
    if (c === ' ' || c === '\n' || c === '\t' || c === '\r' || c === '\f' || c === '\v') {
      i++;
      continue;
    }
    if (c === '-' && next === '-') {
      while (i < n && sql[i] !== '\n' && sql[i] !== '\r') i++;
      continue;
    }
    if (c === '/' && next === '*') {
      // DuckDB, Spark and polars nest block comments, Trino does not: a comment opener inside a
      // comment means different text to different readers, so it is refused.
      let j = i + 2;
      for (;;) {
        if (j >= n) throw new ForbiddenSqlError('unterminated block comment');
        if (sql[j] === '*' && sql[j + 1] === '/') break;
        if (sql[j] === '/' && sql[j + 1] === '*') throw new ForbiddenSqlError('nested block comment');
        j++;
      }
      i = j + 2;
      continue;
    }
    if (c === ';') {
      if (current.length > 0) statements.push(current);
      current = [];
      i++;
      continue;
    }
    if (c === "'") {
      const end = endOfString(i, "'", rules.backslashEscapes, true);
      push('string', i, end);
      i = end;
      continue;
    }
    if (c === '"') {
      if (rules.doubleQuoteIsString) {
        const end = endOfString(i, '"', rules.backslashEscapes, true);
        push('string', i, end);
        i = end;
      } else {
        const end = endOfQuoted(i, '"');
        push('quoted', i, end, sql.slice(i + 1, end - 1).replaceAll('""', '"'));
        i = end;
      }
      continue;
    }
    if (c === '`' && rules.backtickIdentifiers) {
      const end = endOfQuoted(i, '`');
      push('quoted', i, end, sql.slice(i + 1, end - 1).replaceAll('``', '`'));
      i = end;
      continue;
    }
    if (c === '$') {
      if (rules.dollarStrings) {
        const tag = DOLLAR_TAG.exec(sql.slice(i, i + 66));
        if (tag) {
          const close = sql.indexOf(tag[0], i + tag[0].length);
          if (close < 0) throw new ForbiddenSqlError('unterminated dollar-quoted string');
          push('string', i, close + tag[0].length);
          i = close + tag[0].length;
          continue;
        }
      }
      if (next !== undefined && DIGIT.test(next)) {
        let j = i + 1;
        while (j < n && DIGIT.test(sql[j] as string)) j++;
        push('param', i, j);
        i = j;
        continue;
      }
      push('punct', i, i + 1);
      i++;
      continue;
    }
    if (WORD_START.test(c)) {
      let j = i + 1;
      while (j < n && WORD_PART.test(sql[j] as string)) j++;
      const word = sql.slice(i, j);
      const quote = sql[j];
      // Prefixed string literals whose prefix changes where the string ends.
      if ((word === 'E' || word === 'e') && rules.escapeStrings && quote === "'") {
        const end = endOfString(j, "'", true, true);
        push('string', i, end);
        i = end;
        continue;
      }
      if ((word === 'r' || word === 'R') && rules.rawStrings && (quote === "'" || quote === '"')) {
        const end = endOfString(j, quote, false, false);
        push('string', i, end);
        i = end;
        continue;
      }
      push('word', i, j);
      i = j;
      continue;
    }
    if (DIGIT.test(c) || (c === '.' && next !== undefined && DIGIT.test(next))) {
      let j = i + 1;
      while (j < n && /[0-9A-Za-z_.]/.test(sql[j] as string)) {
        // Exponent sign: 1e+5, 1E-3.
        if ((sql[j] === 'e' || sql[j] === 'E') && (sql[j + 1] === '+' || sql[j + 1] === '-')) j++;
        j++;
      }
      push('number', i, j);
      i = j;
      continue;
    }
    // Outside quotes and comments only ASCII punctuation is code. Unicode spaces, lookalike
    // punctuation (fullwidth semicolon), format and bidi characters are read differently by the
    // engines and the parser, so they are refused; Unicode letters stay allowed in identifiers.
    const code = sql.codePointAt(i) as number;
    if (code > 0x7f) {
      throw new ForbiddenSqlError(`character U+${code.toString(16).toUpperCase().padStart(4, '0')} outside quotes`);
    }
    push('punct', i, i + 1);
    i++;
  }
  if (current.length > 0) statements.push(current);
  return { statements };
}

/**
 * The canonical text of one statement for the job-name hash: tokens joined by single spaces, words
 * ASCII-lower-cased, string literals, quoted identifiers and numbers as written.
 */
export function normalizeTokens(tokens: readonly Token[]): string {
  return tokens.map((t) => (t.kind === 'word' ? t.value : t.text)).join(' ');
}

/**
 * Names written as calls: a word or quoted identifier followed by `(`, qualified names joined with
 * dots (`x.read_csv`). Lower-cased (ASCII) for comparison with the deny lists.
 */
export function calledNames(tokens: readonly Token[]): string[] {
  const names: string[] = [];
  for (let k = 0; k < tokens.length - 1; k++) {
    const t = tokens[k] as Token;
    if ((t.kind !== 'word' && t.kind !== 'quoted') || tokens[k + 1]?.text !== '(') continue;
    const parts = [asciiLower(t.value)];
    let m = k - 1;
    while (m >= 1 && tokens[m]?.text === '.' && (tokens[m - 1]?.kind === 'word' || tokens[m - 1]?.kind === 'quoted')) {
      parts.unshift(asciiLower((tokens[m - 1] as Token).value));
      m -= 2;
    }
    names.push(parts.join('.'));
  }
  return names;
}
