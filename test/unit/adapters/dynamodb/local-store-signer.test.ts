/**
 * The local store's signer (adapters/dynamodb/clients.ts): a SigV4-shaped Authorization header and
 * the request's date, which is all dynalite checks, with no signature computed.
 */
import { describe, expect, it } from 'vitest';
import { LocalStoreSigner } from '#adapters/dynamodb/clients';

describe('LocalStoreSigner', () => {
  it('Should stamp the signing date and a well-formed SigV4 header with a zero signature', async () => {
    // Prepare
    const request = { headers: { host: '127.0.0.1:8000', 'content-type': 'application/x-amz-json-1.0' } as Record<string, string> };
    // Act
    const signed = await new LocalStoreSigner().sign(request, { signingDate: new Date('2026-11-27T10:43:01.123Z') });
    // Assess
    expect(signed.headers['x-amz-date']).toBe('20261127T104301Z');
    expect(signed.headers.authorization).toBe(`AWS4-HMAC-SHA256 Credential=local/20261127/local/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=${'0'.repeat(64)}`);
    expect(signed.headers.host).toBe('127.0.0.1:8000');
  });

  it('Should date a request now when the SDK gives no signing date', async () => {
    // Act
    const before = Date.now();
    const signed = await new LocalStoreSigner().sign({ headers: {} as Record<string, string> });
    // Assess
    const stamped = signed.headers['x-amz-date'] as string;
    const at = Date.UTC(Number(stamped.slice(0, 4)), Number(stamped.slice(4, 6)) - 1, Number(stamped.slice(6, 8)), Number(stamped.slice(9, 11)), Number(stamped.slice(11, 13)), Number(stamped.slice(13, 15)));
    expect(Math.abs(at - before)).toBeLessThan(2_000);
  });
});
