// The logger replaces credential-like fields wherever they sit in what is logged, so a careless
// `logger.warn('…', { headers })` cannot leak a key or a cookie.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { logger } from '#shared/observability';

let written: string[];

beforeEach(() => {
  written = [];
  const capture = ((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  }) as typeof process.stdout.write;
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('logger', () => {
  it('Should redact credential fields at any depth and keep the rest', () => {
    // Act
    logger.warn('request failed', {
      headers: { Authorization: 'Bearer ll_0123456789abcdef_s3cr3t', Cookie: 'lakeline_session=abc.def', 'content-type': 'application/json' },
      nested: [{ apiKey: 'k1', api_key: 'k2', sessionSecret: 'x', token: 't', password: 'p', name: 'kept' }],
      routeKey: 'GET /api/v1/tables',
    });

    // Assess
    const line = JSON.parse(written.join('')) as Record<string, unknown>;
    expect(line).toMatchObject({
      level: 'warn',
      message: 'request failed',
      routeKey: 'GET /api/v1/tables',
      headers: { Authorization: '[redacted]', Cookie: '[redacted]', 'content-type': 'application/json' },
      nested: [{ apiKey: '[redacted]', api_key: '[redacted]', sessionSecret: '[redacted]', token: '[redacted]', password: '[redacted]', name: 'kept' }],
    });
    expect(written.join('')).not.toMatch(/s3cr3t|abc\.def|"k1"|"k2"/);
  });

  it('Should log an error by name, message and stack', () => {
    // Act
    logger.error('boom', { error: new Error('disk full') });

    // Assess
    expect(JSON.parse(written.join(''))).toMatchObject({ error: { name: 'Error', message: 'disk full', stack: expect.stringContaining('disk full') } });
  });
});
