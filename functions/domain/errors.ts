/**
 * @module errors
 * The one error hierarchy of the domain. Every error the service means to show a caller extends
 * {@link DomainError}; `shared/http-errors.ts` maps each class to an HTTP status. Anything else is
 * an unexpected failure and reaches callers only as a bare 500.
 */

/** Base of every error a caller may see. */
export abstract class DomainError extends Error {
  /** Optional extra detail for callers (the polars endpoint's `details`). */
  readonly details?: string;

  constructor(message: string, options?: { details?: string; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    if (options?.details !== undefined) this.details = options.details;
  }
}

/** The request is malformed or names something invalid (400). */
export class ValidationError extends DomainError {}

/** The pinned engine or deployment cannot run this request (400, never rerouted). */
export class CapabilityError extends DomainError {}

/** No valid credentials (401). The message is always the contract's `Unauthorized`. */
export class UnauthorizedError extends DomainError {
  constructor(reason = 'Unauthorized') {
    super('Unauthorized', { details: reason });
  }
}

/** Metered compute needs a payment method on file (402). */
export class PaymentRequiredError extends DomainError {}

/** The plan does not allow this request (403). */
export class ForbiddenError extends DomainError {}

/** The thing asked for does not exist for this caller (404). */
export class NotFoundError extends DomainError {}

/** The request conflicts with the current state (409). */
export class ConflictError extends DomainError {}

/** The request body is larger than the endpoint accepts (413). */
export class PayloadTooLargeError extends DomainError {}

/** The request body's content type is not one the endpoint reads (415). */
export class UnsupportedMediaTypeError extends DomainError {}

/** The capability behind this route is not built in this version (501). */
export class NotImplementedError extends DomainError {}

/** A dependency (store, engine) is unavailable; the caller may retry (503). */
export class ServiceUnavailableError extends DomainError {}

/** Query execution failed inside an engine (500 with the engine's message on the routed endpoint). */
export class ExecutionError extends DomainError {}

/**
 * Infrastructure failed in a way that passes (an outage, throttling, a timeout): adapters raise it
 * at their ports in place of their SDK's error, which rides along as `cause`, so nothing above the
 * adapters needs to know an SDK's error shapes. It is deliberately not a {@link DomainError}: use
 * cases treat it as any unexpected failure (its message is the infrastructure's own, for logs and
 * run records), and only the HTTP layer answers it, with a 503 whose text names no internals.
 */
export class TransientError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'TransientError';
  }
}
