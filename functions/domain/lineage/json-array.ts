/**
 * @module json-array
 * Finds the text of each element of a top-level JSON array, so a batch stores each event's JSON
 * exactly as the producer wrote it (and sizes it as received) instead of a re-serialization.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * The source text of each element of a JSON array, without surrounding whitespace.
 *
 * The text must already be known to be valid JSON (the caller has parsed it): this is a boundary
 * scanner, not a parser. It tracks only strings (so brackets and commas inside them are skipped)
 * and nesting depth, and jumps from quote to quote with `indexOf`, so a 10 MB batch is scanned in
 * milliseconds.
 *
 * @param text - valid JSON text
 * @returns one slice per element, or `undefined` when the top-level value is not an array
 * @example splitJsonArray(' [ {"a": [1, 2]} , "x,]" ] ') // ['{"a": [1, 2]}', '"x,]"']
 */
export function splitJsonArray(text: string): string[] | undefined {
  let i = skipWhitespace(text, 0);
  if (text.charCodeAt(i) !== OPEN_BRACKET) return undefined;
  i += 1;
  const elements: string[] = [];
  let depth = 0;
  let elementStart = -1;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      if (elementStart < 0) elementStart = i;
      i = closingQuote(text, i);
      continue;
    }
    if (depth === 0 && (c === COMMA || c === CLOSE_BRACKET)) {
      if (elementStart >= 0) elements.push(text.slice(elementStart, trimEnd(text, i)));
      elementStart = -1;
      if (c === CLOSE_BRACKET) return elements;
      continue;
    }
    if (elementStart < 0 && !isWhitespace(c)) elementStart = i;
    if (c === OPEN_BRACE || c === OPEN_BRACKET) depth += 1;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth -= 1;
  }
  // Unterminated array: the text was not valid JSON after all.
  return undefined;
}

/** Index of the quote closing the string that opens at `open`. */
function closingQuote(text: string, open: number): number {
  let at = open;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at < 0) return text.length;
    // The quote is escaped when an odd number of backslashes precedes it.
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return at;
  }
}

function isWhitespace(c: number): boolean {
  // JSON's four whitespace characters: space, tab, line feed, carriage return.
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function skipWhitespace(text: string, from: number): number {
  let i = from;
  while (i < text.length && isWhitespace(text.charCodeAt(i))) i += 1;
  return i;
}

function trimEnd(text: string, end: number): number {
  let e = end;
  while (e > 0 && isWhitespace(text.charCodeAt(e - 1))) e -= 1;
  return e;
}
