/**
 * @module adapters/transient-errors
 * Which infrastructure errors mean "try again later" (a store outage, throttling, a timeout): the
 * adapters retry them, and raise what is left as the domain's {@link TransientError} at their
 * ports ({@link guardPorts}), which the HTTP layer answers with 503. The SDKs' error shapes are
 * known here only, so neither the use cases nor the HTTP layer depend on an adapter.
 */
import { DomainError, TransientError } from '#domain/errors';

const TRANSIENT_NAMES: readonly string[] = ['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded', 'InternalServerError', 'ServiceUnavailable', 'TimeoutError'];
const TRANSIENT_CODES: readonly string[] = ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH'];

/** Whether an infrastructure error means "try again later" (store outage, throttling, timeouts). */
export const isTransientInfrastructureError = (err: unknown): boolean => {
  if (err instanceof TransientError) return true;
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { name?: string; code?: string; $retryable?: unknown; $metadata?: { httpStatusCode?: number } };
  return e.$retryable !== undefined || TRANSIENT_NAMES.includes(e.name ?? '') || TRANSIENT_CODES.includes(e.code ?? '') || (e.$metadata?.httpStatusCode ?? 0) >= 500;
};

/** A transient infrastructure error as the domain's {@link TransientError}; anything else as it is. */
export const asTransient = (err: unknown): unknown =>
  !(err instanceof DomainError) && !(err instanceof TransientError) && isTransientInfrastructureError(err) ? new TransientError(err) : err;

const rethrow = (err: unknown): never => {
  throw asTransient(err);
};

const isThenable = (value: unknown): value is PromiseLike<unknown> & { catch(onRejected: (err: unknown) => unknown): unknown } =>
  typeof value === 'object' && value !== null && typeof (value as { catch?: unknown }).catch === 'function';

/** `method` of `target`, its failures (thrown or rejected) raised through {@link asTransient}. */
const guardMethod =
  (target: object, method: (...args: unknown[]) => unknown) =>
  (...args: unknown[]): unknown => {
    try {
      const result = method.apply(target, args);
      return isThenable(result) ? result.catch(rethrow) : result;
    } catch (err) {
      return rethrow(err);
    }
  };

const guarded = new WeakMap<object, object>();

/**
 * The ports of a group (the composition's `PlatformPorts`, `LakePorts` …) as their users see them:
 * every method of the group and of each port in it raises a transient infrastructure failure as a
 * {@link TransientError}. Members are read when used (getters that throw keep throwing), and each
 * port and method is wrapped once, so identities stay stable.
 */
export const guardPorts = <T extends object>(group: T): T => {
  const known = guarded.get(group);
  if (known) return known as T;
  const methods = new Map<PropertyKey, { readonly original: unknown; readonly wrapped: unknown }>();
  const proxy = new Proxy(group, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value === 'function') {
        const cached = methods.get(key);
        if (cached?.original === value) return cached.wrapped;
        const wrapped = guardMethod(target, value as (...args: unknown[]) => unknown);
        methods.set(key, { original: value, wrapped });
        return wrapped;
      }
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) return guardPorts(value);
      return value;
    },
  });
  guarded.set(group, proxy);
  return proxy;
};
