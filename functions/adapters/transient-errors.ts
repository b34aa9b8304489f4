/**
 * @module adapters/transient-errors
 * Which infrastructure errors mean "try again later" (a store outage, throttling, a timeout): the
 * adapters retry them, and the HTTP layer (`shared/http-errors.ts`) answers them with 503. It
 * lives with the adapters, whose SDKs raise these errors, so no adapter depends on the HTTP layer.
 */

const TRANSIENT_NAMES: readonly string[] = ['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded', 'InternalServerError', 'ServiceUnavailable', 'TimeoutError'];
const TRANSIENT_CODES: readonly string[] = ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH'];

/** Whether an infrastructure error means "try again later" (store outage, throttling, timeouts). */
export const isTransientInfrastructureError = (err: unknown): boolean => {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { name?: string; code?: string; $retryable?: unknown; $metadata?: { httpStatusCode?: number } };
  return e.$retryable !== undefined || TRANSIENT_NAMES.includes(e.name ?? '') || TRANSIENT_CODES.includes(e.code ?? '') || (e.$metadata?.httpStatusCode ?? 0) >= 500;
};
