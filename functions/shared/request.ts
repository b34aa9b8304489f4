/**
 * @module request
 * Reading HTTP API v2 requests: the JSON body (plain, base64, or gzip-encoded), with a byte cap
 * that also bounds decompression so a small gzip bomb cannot exhaust memory. What was sent is what
 * is read, or the request is refused: a content type other than JSON is a 415, bytes that are not
 * UTF-8 and JSON that cannot be stored faithfully (see `domain/strict-json.ts`) are a 400.
 */
import { TextDecoder } from 'node:util';
import { gunzipSync } from 'node:zlib';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from '#domain/errors';
import { parseStrictJson } from '#domain/strict-json';

/** A decoded JSON body and the byte length of its raw (uncompressed) JSON text. */
export interface JsonBody {
  readonly value: unknown;
  readonly bytes: number;
  readonly text: string;
}

/** The body's JSON text, not yet parsed, and its UTF-8 byte length. */
export interface JsonText {
  readonly text: string;
  readonly bytes: number;
}

type RequestParts = Pick<APIGatewayProxyEventV2, 'headers' | 'body' | 'isBase64Encoded'>;

/** Header lookup that ignores case (HTTP API lower-cases names, but local callers may not). */
export const header = (event: Pick<APIGatewayProxyEventV2, 'headers'>, name: string): string | undefined => {
  const wanted = name.toLowerCase();
  for (const [k, v] of Object.entries(event.headers ?? {})) if (k.toLowerCase() === wanted) return v;
  return undefined;
};

/**
 * Checks the body's Content-Type: JSON (`application/json`, or a `+json` type) in UTF-8, or none
 * at all (clients that omit it send JSON; curl's `-d` default, form encoding, is refused).
 * @throws {UnsupportedMediaTypeError} (415) naming the type
 */
export const checkJsonContentType = (event: Pick<APIGatewayProxyEventV2, 'headers'>): void => {
  const type = header(event, 'content-type');
  if (type === undefined || type.trim() === '') return;
  const [mediaType = '', ...params] = type.split(';').map((p) => p.trim().toLowerCase());
  if (mediaType !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(mediaType)) {
    throw new UnsupportedMediaTypeError(`Content-Type: ${mediaType} is not supported; send the body as JSON with Content-Type: application/json`);
  }
  const charset = params.find((p) => p.startsWith('charset='))?.slice('charset='.length).replace(/^"|"$/g, '');
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new UnsupportedMediaTypeError(`Content-Type: charset=${charset} is not supported; send UTF-8`);
  }
};

/** The raw body bytes, decompressed when `Content-Encoding: gzip`. */
export const bodyBytes = (event: RequestParts, maxBytes: number): Buffer => {
  if (event.body === undefined || event.body === null || event.body === '') throw new ValidationError('body: is required');
  const wire = Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
  const encoding = (header(event, 'content-encoding') ?? 'identity').trim().toLowerCase();
  if (encoding === 'identity' || encoding === '') {
    if (wire.length > maxBytes) throw new PayloadTooLargeError(`body: larger than ${maxBytes} bytes`);
    return wire;
  }
  if (encoding !== 'gzip') throw new ValidationError(`Content-Encoding: ${encoding} is not supported (use gzip or none)`);
  try {
    return gunzipSync(wire, { maxOutputLength: maxBytes });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new PayloadTooLargeError(`body: larger than ${maxBytes} bytes once decompressed`);
    throw new ValidationError('body: is not valid gzip data');
  }
};

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The body as JSON text (not parsed) and its UTF-8 byte length, after the content type check. A
 * plain-text body with no content encoding (what API Gateway passes for JSON) is used as it is:
 * encoding it to bytes and decoding it again would cost two passes over up to 10 MB on every
 * ingest request and change nothing. Bytes (base64 or gzip bodies) are decoded strictly.
 * @throws {UnsupportedMediaTypeError} (415), {@link PayloadTooLargeError} (413), {@link ValidationError} (400)
 */
export const jsonText = (event: RequestParts, maxBytes: number): JsonText => {
  checkJsonContentType(event);
  const encoding = (header(event, 'content-encoding') ?? 'identity').trim().toLowerCase();
  const plain = typeof event.body === 'string' && event.body !== '' && !event.isBase64Encoded && (encoding === 'identity' || encoding === '');
  if (!plain) {
    const bytes = bodyBytes(event, maxBytes);
    let text: string;
    try {
      text = strictUtf8.decode(bytes);
    } catch {
      throw new ValidationError(`body: is not valid UTF-8 (first bad byte at offset ${firstInvalidUtf8(bytes)}); send UTF-8 text`);
    }
    return { text, bytes: bytes.length };
  }
  const text = event.body as string;
  // Only a direct invoker can put a lone surrogate here; a UTF-8 store would keep U+FFFD instead.
  if (!text.isWellFormed()) throw new ValidationError('body: contains a lone surrogate, which is not valid Unicode; send UTF-8 text');
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > maxBytes) throw new PayloadTooLargeError(`body: larger than ${maxBytes} bytes`);
  return { text, bytes };
};

/** Reads and parses the JSON body strictly (see the module note). */
export const jsonBody = (event: RequestParts, maxBytes: number): JsonBody => {
  const { text, bytes } = jsonText(event, maxBytes);
  return { value: parseStrictJson(text), bytes, text };
};

/**
 * Offset of the first byte of the first sequence that is not UTF-8 (RFC 3629: no overlong forms,
 * no surrogates, nothing above U+10FFFF); only called on the error path.
 */
export const firstInvalidUtf8 = (bytes: Uint8Array): number => {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] as number;
    if (lead < 0x80) {
      i += 1;
      continue;
    }
    const trailing = lead >= 0xc2 && lead <= 0xdf ? 1 : lead >= 0xe0 && lead <= 0xef ? 2 : lead >= 0xf0 && lead <= 0xf4 ? 3 : 0;
    if (trailing === 0 || i + trailing >= bytes.length) return i;
    const second = bytes[i + 1] as number;
    // The second byte's range excludes overlong forms (E0, F0), surrogates (ED) and > U+10FFFF (F4).
    const [low, high] = lead === 0xe0 ? [0xa0, 0xbf] : lead === 0xed ? [0x80, 0x9f] : lead === 0xf0 ? [0x90, 0xbf] : lead === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    if (second < low || second > high) return i;
    for (let k = 2; k <= trailing; k++) if (((bytes[i + k] as number) & 0xc0) !== 0x80) return i;
    i += trailing + 1;
  }
  return bytes.length;
};
