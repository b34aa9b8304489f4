/**
 * Request body decoding (shared/request.ts): plain, base64 and gzip bodies, the byte cap before
 * and after decompression (gzip bombs), and JSON errors.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from '#domain/errors';
import { bodyBytes, header, jsonBody } from '#shared/request';

type BodyEvent = Parameters<typeof jsonBody>[0];

const LIMIT = 1024;
const plain = (body: string, headers: Record<string, string> = {}): BodyEvent => ({ headers, body, isBase64Encoded: false });
const base64 = (bytes: Buffer, headers: Record<string, string> = {}): BodyEvent => ({ headers, body: bytes.toString('base64'), isBase64Encoded: true });
const gzipped = (text: string, headerName = 'content-encoding', value = 'gzip'): BodyEvent => base64(gzipSync(Buffer.from(text)), { [headerName]: value });

describe('header', () => {
  it('Should find a header whatever the case of its name', () => {
    // Act
    const value = header({ headers: { 'Content-Encoding': 'gzip' } }, 'content-encoding');
    // Assess
    expect(value).toBe('gzip');
  });

  it('Should answer undefined when the header or the headers are missing', () => {
    // Act / Assess
    expect(header({ headers: {} }, 'x')).toBeUndefined();
    expect(header({ headers: undefined as unknown as Record<string, string> }, 'x')).toBeUndefined();
  });
});

describe('jsonBody', () => {
  it('Should parse a plain JSON body and report its byte length', () => {
    // Act
    const body = jsonBody(plain('{"name":"é"}'), LIMIT);
    // Assess
    expect(body).toEqual({ value: { name: 'é' }, bytes: 13, text: '{"name":"é"}' });
  });

  it('Should parse a base64-encoded body (the gateway encodes non-text bodies)', () => {
    // Act
    const body = jsonBody(base64(Buffer.from('[1,2]')), LIMIT);
    // Assess
    expect(body.value).toEqual([1, 2]);
  });

  it.each([
    ['lower case', 'content-encoding', 'gzip'],
    ['mixed-case header and value', 'Content-Encoding', 'GZip'],
    ['padded value', 'content-encoding', ' gzip '],
  ])('Should decompress a gzip body (%s) and report the uncompressed length', (_case, name, value) => {
    // Prepare
    const text = JSON.stringify({ eventType: 'START', padding: 'x'.repeat(500) });
    // Act
    const body = jsonBody(gzipped(text, name, value), LIMIT);
    // Assess
    expect(body.value).toEqual(JSON.parse(text));
    expect(body.bytes).toBe(Buffer.byteLength(text));
  });

  it('Should treat Content-Encoding identity as no encoding', () => {
    // Act
    const body = jsonBody(plain('{}', { 'content-encoding': 'identity' }), LIMIT);
    // Assess
    expect(body.value).toEqual({});
  });

  it('Should count the limit in UTF-8 bytes, not characters, for a plain body', () => {
    // Prepare: LIMIT / 2 two-byte characters plus quotes is just over the limit.
    const text = `"${'é'.repeat(LIMIT / 2)}"`;
    // Act
    const read = () => jsonBody(plain(text), LIMIT);
    // Assess
    expect(read).toThrow(PayloadTooLargeError);
  });

  it('Should refuse a lone surrogate in a plain body rather than store U+FFFD', () => {
    // Act
    const read = () => jsonBody(plain('{"s":"a\ud800b"}'), LIMIT);
    // Assess
    expect(read).toThrow(ValidationError);
    expect(read).toThrow('body: contains a lone surrogate, which is not valid Unicode; send UTF-8 text');
  });

  it('Should accept a body of exactly the limit', () => {
    // Prepare
    const text = `"${'x'.repeat(LIMIT - 2)}"`;
    // Act
    const body = jsonBody(plain(text), LIMIT);
    // Assess
    expect(body.bytes).toBe(LIMIT);
  });

  it('Should refuse a plain body one byte over the limit with 413', () => {
    // Prepare
    const text = `"${'x'.repeat(LIMIT - 1)}"`;
    // Act
    const read = () => jsonBody(plain(text), LIMIT);
    // Assess
    expect(read).toThrow(PayloadTooLargeError);
    expect(read).toThrow(`body: larger than ${LIMIT} bytes`);
  });

  it('Should refuse a gzip bomb with 413 without inflating it whole', () => {
    // Prepare: 64 MB of zeros compress to about 64 KB.
    const bomb = base64(gzipSync(Buffer.alloc(64 * 1024 * 1024)), { 'content-encoding': 'gzip' });
    // Act
    const read = () => bodyBytes(bomb, LIMIT);
    // Assess
    expect(read).toThrow(PayloadTooLargeError);
    expect(read).toThrow('once decompressed');
  });

  it('Should refuse a small gzip body that inflates past the limit with 413', () => {
    // Prepare
    const text = JSON.stringify({ padding: 'x'.repeat(LIMIT) });
    // Act
    const read = () => jsonBody(gzipped(text), LIMIT);
    // Assess
    expect(read).toThrow(PayloadTooLargeError);
  });

  it.each([
    ['not gzip at all', base64(Buffer.from('{"a":1}'), { 'content-encoding': 'gzip' })],
    ['truncated gzip', base64(gzipSync(Buffer.from('{"a":1}')).subarray(0, 12), { 'content-encoding': 'gzip' })],
  ])('Should refuse %s with 400', (_case, event) => {
    // Act
    const read = () => jsonBody(event, LIMIT);
    // Assess
    expect(read).toThrow(ValidationError);
    expect(read).toThrow('body: is not valid gzip data');
  });

  it.each(['br', 'deflate', 'compress'])('Should refuse Content-Encoding %s with 400 naming it', (encoding) => {
    // Act
    const read = () => jsonBody(plain('{}', { 'content-encoding': encoding }), LIMIT);
    // Assess
    expect(read).toThrow(ValidationError);
    expect(read).toThrow(`Content-Encoding: ${encoding} is not supported`);
  });

  it.each([
    ['missing', { headers: {}, isBase64Encoded: false } as BodyEvent],
    ['empty', plain('')],
  ])('Should refuse a %s body with 400', (_case, event) => {
    // Act
    const read = () => jsonBody(event, LIMIT);
    // Assess
    expect(read).toThrow(ValidationError);
    expect(read).toThrow('body: is required');
  });

  it.each([
    ['truncated JSON', '{"a":'],
    ['trailing garbage', '{"a":1} x'],
    ['single quotes', "{'a':1}"],
    ['plain text', 'hello'],
  ])('Should refuse %s with 400 saying the body is not JSON', (_case, text) => {
    // Act
    const read = () => jsonBody(plain(text), LIMIT);
    // Assess
    expect(read).toThrow(ValidationError);
    expect(read).toThrow(/^body: must be valid JSON/);
  });
});

describe('jsonBody: what was sent is what is read, or a 4xx', () => {
  it.each([
    ['an overlong encoding', Buffer.from([0x7b, 0x22, 0x73, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d]), 6],
    ['a stray continuation byte', Buffer.concat([Buffer.from('{"s":"ab'), Buffer.from([0x80]), Buffer.from('"}')]), 8],
    ['a truncated sequence', Buffer.concat([Buffer.from('{"s":"'), Buffer.from([0xe2, 0x82]), Buffer.from('"}')]), 6],
    ['an encoded surrogate', Buffer.concat([Buffer.from('{"s":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]), 6],
  ])('Should refuse bytes with %s, naming where they go wrong', (_name, bytes, offset) => {
    // Act
    const read = () => jsonBody(base64(bytes, { 'content-type': 'application/json' }), LIMIT);
    // Assess
    expect(read).toThrow(ValidationError);
    expect(read).toThrow(`body: is not valid UTF-8 (first bad byte at offset ${offset}); send UTF-8 text`);
  });

  it('Should read valid UTF-8 bytes exactly, emoji included', () => {
    const body = jsonBody(base64(Buffer.from('{"s":"é😀"}'), {}), LIMIT);
    expect(body.value).toEqual({ s: 'é😀' });
  });

  it.each([
    ['{"n": 1e999}', 'body.n: is a number too large to represent (it would be stored as null); send it as a string'],
    ['{"a": [0, -1e400]}', 'body.a[1]: is a number too large to represent (it would be stored as null); send it as a string'],
    ['{"s": "x\\ud800"}', 'body.s: contains a lone surrogate (\\ud800), which is not valid Unicode'],
    ['{"k\\udfff": 1}', 'body: has a key with a lone surrogate (\\udfff), which is not valid Unicode'],
  ])('Should refuse %s, naming the field', (text, message) => {
    // Act
    const read = () => jsonBody(plain(text), LIMIT);
    // Assess
    expect(read).toThrow(message);
  });

  it('Should accept a surrogate pair written as escapes', () => {
    expect(jsonBody(plain('{"s": "\\ud83d\\ude00"}'), LIMIT).value).toEqual({ s: '😀' });
  });

  it.each([['text/plain'], ['application/x-www-form-urlencoded'], ['multipart/form-data; boundary=x'], ['application/json; charset=iso-8859-1']])('Should refuse Content-Type %s with 415', (type) => {
    // Act
    const read = () => jsonBody(plain('{}', { 'Content-Type': type }), LIMIT);
    // Assess
    expect(read).toThrow(UnsupportedMediaTypeError);
  });

  it.each([[undefined], ['application/json'], ['Application/JSON; charset=UTF-8'], ['application/vnd.openlineage+json']])('Should read Content-Type %s as JSON', (type) => {
    expect(jsonBody(plain('{}', type === undefined ? {} : { 'content-type': type }), LIMIT).value).toEqual({});
  });
});
