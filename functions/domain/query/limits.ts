/**
 * @module query/limits
 * The limits of a query answered within its request (the legacy endpoint, the routed endpoint's
 * interactive runs), and the contract's duration text.
 */

/** Limits of one request. */
export interface QueryLimits {
  /** Time for everything the request runs (engine runs and the autosave write), in ms. */
  readonly timeoutMs: number;
  /** Largest inline result, in bytes of JSON. */
  readonly maxResultBytes: number;
}

/**
 * API Gateway gives a request 29 s; the rest covers the gateway, the lineage writes and the
 * response. Lambda's response limit is 6 MB, so results stop at 5 MB of JSON.
 */
export const DEFAULT_LIMITS: QueryLimits = { timeoutMs: 25_000, maxResultBytes: 5 * 1024 * 1024 };

/** The contract's duration text. */
export const formatMs = (ms: number): string => `${Math.max(0, Math.round(ms))}ms`;
