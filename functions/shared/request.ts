/**
 * @module request
 * Reading HTTP API v2 requests: the JSON body (plain, base64, or gzip-encoded), with a byte cap
 * that also bounds decompression so a small gzip bomb cannot exhaust memory.
 */
import { gunzipSync } from 'node:zlib';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { PayloadTooLargeError, ValidationError } from '#domain/errors';

/** A decoded JSON body and the byte length of its raw (uncompressed) JSON text. */
export interface JsonBody {
  readonly value: unknown;
  readonly bytes: number;
  readonly text: string;
}

/** Header lookup that ignores case (HTTP API lower-cases names, but local callers may not). */
export const header = (event: Pick<APIGatewayProxyEventV2, 'headers'>, name: string): string | undefined => {
  const wanted = name.toLowerCase();
  for (const [k, v] of Object.entries(event.headers ?? {})) if (k.toLowerCase() === wanted) return v;
  return undefined;
};

/** The raw body bytes, decompressed when `Content-Encoding: gzip`. */
export const bodyBytes = (event: Pick<APIGatewayProxyEventV2, 'headers' | 'body' | 'isBase64Encoded'>, maxBytes: number): Buffer => {
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

/** Parses the body as JSON. */
export const jsonBody = (event: Pick<APIGatewayProxyEventV2, 'headers' | 'body' | 'isBase64Encoded'>, maxBytes: number): JsonBody => {
  const text = bodyText(event, maxBytes);
  try {
    return { value: JSON.parse(text.text), bytes: text.bytes, text: text.text };
  } catch (err) {
    throw new ValidationError(`body: must be valid JSON (${(err as Error).message})`);
  }
};

/**
 * The body as text and its UTF-8 byte length. A plain-text body with no content encoding (what
 * API Gateway passes for JSON) is used as it is: encoding it to bytes and decoding it again would
 * cost two passes over up to 10 MB on every ingest request and change nothing.
 */
const bodyText = (event: Pick<APIGatewayProxyEventV2, 'headers' | 'body' | 'isBase64Encoded'>, maxBytes: number): { text: string; bytes: number } => {
  const encoding = (header(event, 'content-encoding') ?? 'identity').trim().toLowerCase();
  const plain = typeof event.body === 'string' && event.body !== '' && !event.isBase64Encoded && (encoding === 'identity' || encoding === '');
  if (!plain) {
    const bytes = bodyBytes(event, maxBytes);
    return { text: bytes.toString('utf8'), bytes: bytes.length };
  }
  // As a UTF-8 round trip would: a lone surrogate (only a direct invoker can send one) becomes U+FFFD.
  const text = (event.body as string).isWellFormed() ? (event.body as string) : (event.body as string).toWellFormed();
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > maxBytes) throw new PayloadTooLargeError(`body: larger than ${maxBytes} bytes`);
  return { text, bytes };
};
