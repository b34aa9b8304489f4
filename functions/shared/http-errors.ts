/**
 * @module http-errors
 * The one mapping from errors to HTTP responses. Domain errors carry their status; anything else
 * is unexpected and becomes a bare 500 whose details stay in the log. The body shape depends on
 * the endpoint, because the contract gives each its own (see `ErrorStyle` in routes.ts). A
 * {@link TransientError} (an outage the adapters met) is a 503 the caller may retry.
 */
import {
  CapabilityError,
  ConflictError,
  DomainError,
  ExecutionError,
  ForbiddenError,
  NotFoundError,
  NotImplementedError,
  PayloadTooLargeError,
  PaymentRequiredError,
  ServiceUnavailableError,
  TransientError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '#domain/errors';
import type { ErrorStyle } from './routes.ts';

/** A response before serialization. */
export interface HttpResult {
  readonly statusCode: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

const STATUS: ReadonlyArray<[new (...args: never[]) => DomainError, number]> = [
  [ValidationError, 400],
  [CapabilityError, 400],
  [UnauthorizedError, 401],
  [PaymentRequiredError, 402],
  [ForbiddenError, 403],
  [NotFoundError, 404],
  [ConflictError, 409],
  [PayloadTooLargeError, 413],
  [UnsupportedMediaTypeError, 415],
  [ExecutionError, 500],
  [NotImplementedError, 501],
  [ServiceUnavailableError, 503],
];

/** HTTP status of a domain error. */
export const statusOf = (err: DomainError): number => STATUS.find(([cls]) => err instanceof cls)?.[1] ?? 500;

/** Turns any thrown value into the response of an endpoint with the given error style. */
export const errorResponse = (err: unknown, style: ErrorStyle): HttpResult => {
  // The adapters raise every passing infrastructure failure as a TransientError at their ports.
  if (err instanceof TransientError) {
    return errorResponse(new ServiceUnavailableError('A backing store is unavailable; retry later.'), style);
  }
  if (!(err instanceof DomainError)) {
    return { statusCode: 500, body: style === 'routed' ? { success: false, error: 'Internal error' } : { status: 500 } };
  }
  const statusCode = statusOf(err);
  if (err instanceof UnauthorizedError) {
    return { statusCode, body: style === 'routed' ? { success: false, error: 'Unauthorized' } : { error: 'Unauthorized' } };
  }
  if (style === 'routed') return { statusCode, body: { success: false, error: err.message } };
  if (statusCode === 500) return { statusCode, body: { status: 500 } };
  if (style === 'polars') return { statusCode, body: { error: err.message, details: err.details ?? err.message } };
  return { statusCode, body: { error: err.message } };
};
