/**
 * The one mapping from errors to responses (shared/http-errors.ts), for every error class and
 * every error style the contract gives an endpoint: `{error}`/`{status: 500}` (plain),
 * `{success: false, error}` (routed) and `{error, details}` (polars).
 */
import { describe, expect, it } from 'vitest';
import {
  CapabilityError,
  ConflictError,
  type DomainError,
  ExecutionError,
  ForbiddenError,
  NotFoundError,
  NotImplementedError,
  PayloadTooLargeError,
  PaymentRequiredError,
  ServiceUnavailableError,
  TransientError,
  UnauthorizedError,
  ValidationError,
} from '#domain/errors';
import { errorResponse, statusOf } from '#shared/http-errors';
import type { ErrorStyle } from '#shared/routes';

const STYLES: readonly ErrorStyle[] = ['plain', 'routed', 'polars'];

/** Every caller-visible error class with its status. */
const CLIENT_ERRORS: readonly [string, (m: string) => DomainError, number][] = [
  ['ValidationError', (m) => new ValidationError(m), 400],
  ['CapabilityError', (m) => new CapabilityError(m), 400],
  ['PaymentRequiredError', (m) => new PaymentRequiredError(m), 402],
  ['ForbiddenError', (m) => new ForbiddenError(m), 403],
  ['NotFoundError', (m) => new NotFoundError(m), 404],
  ['ConflictError', (m) => new ConflictError(m), 409],
  ['PayloadTooLargeError', (m) => new PayloadTooLargeError(m), 413],
  ['NotImplementedError', (m) => new NotImplementedError(m), 501],
  ['ServiceUnavailableError', (m) => new ServiceUnavailableError(m), 503],
];

const expectedBody = (style: ErrorStyle, message: string, details = message): unknown =>
  style === 'routed' ? { success: false, error: message } : style === 'polars' ? { error: message, details } : { error: message };

describe('statusOf', () => {
  it.each(CLIENT_ERRORS)('Should map %s to its status', (_name, build, status) => {
    // Act
    const mapped = statusOf(build('x'));
    // Assess
    expect(mapped).toBe(status);
  });

  it('Should map UnauthorizedError to 401 and ExecutionError to 500', () => {
    // Act / Assess
    expect(statusOf(new UnauthorizedError())).toBe(401);
    expect(statusOf(new ExecutionError('boom'))).toBe(500);
  });
});

describe('errorResponse', () => {
  const cases = CLIENT_ERRORS.flatMap(([name, build, status]) => STYLES.map((style) => [name, style, build, status] as const));

  it.each(cases)('Should answer %s in the %s style with its status and message', (_name, style, build, status) => {
    // Act
    const response = errorResponse(build('field: is wrong'), style);
    // Assess
    expect(response).toEqual({ statusCode: status, body: expectedBody(style, 'field: is wrong') });
  });

  it('Should carry explicit details in the polars style only', () => {
    // Prepare
    const err = new ValidationError('script failed', { details: 'line 3: NameError' });
    // Act
    const bodies = STYLES.map((style) => errorResponse(err, style).body);
    // Assess
    expect(bodies).toEqual([{ error: 'script failed' }, { success: false, error: 'script failed' }, { error: 'script failed', details: 'line 3: NameError' }]);
  });

  it.each([
    ['plain', { error: 'Unauthorized' }],
    ['routed', { success: false, error: 'Unauthorized' }],
    ['polars', { error: 'Unauthorized' }],
  ] as const)("Should answer 401 in the %s style with exactly the contract's body, never the reason", (style, body) => {
    // Act
    const response = errorResponse(new UnauthorizedError('revoked API key'), style);
    // Assess
    expect(response).toEqual({ statusCode: 401, body });
  });

  it.each([
    ['plain', { status: 500 }],
    ['routed', { success: false, error: 'the query failed: division by zero' }],
    ['polars', { status: 500 }],
  ] as const)('Should answer an execution failure in the %s style as the contract says', (style, body) => {
    // Act
    const response = errorResponse(new ExecutionError('the query failed: division by zero'), style);
    // Assess
    expect(response).toEqual({ statusCode: 500, body });
  });

  it.each([
    ['plain', { status: 500 }],
    ['routed', { success: false, error: 'Internal error' }],
    ['polars', { status: 500 }],
  ] as const)('Should answer an unexpected error in the %s style with a bare 500 that leaks nothing', (style, body) => {
    // Act
    const response = errorResponse(new TypeError('cannot read properties of undefined (password=hunter2)'), style);
    // Assess
    expect(response).toEqual({ statusCode: 500, body });
    expect(JSON.stringify(response)).not.toContain('hunter2');
  });

  it.each([
    ['a string', 'boom'],
    ['undefined', undefined],
    ['null', null],
  ])('Should answer a thrown non-error (%s) with a bare 500', (_case, thrown) => {
    // Act
    const response = errorResponse(thrown, 'plain');
    // Assess
    expect(response).toEqual({ statusCode: 500, body: { status: 500 } });
  });

  it.each(STYLES)('Should answer a store outage in the %s style with a retryable 503 that names no internals', (style) => {
    // Prepare: the adapters raise an outage at their ports as a TransientError (see guardPorts).
    const outage = new TransientError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED' }));
    // Act
    const response = errorResponse(outage, style);
    // Assess
    expect(response).toEqual({ statusCode: 503, body: expectedBody(style, 'A backing store is unavailable; retry later.') });
  });
});
