/**
 * @module notifications/retry-policy
 * When a failed delivery is tried again (ADR 0054): exponential backoff from 1 s, doubling, capped
 * at 15 minutes, with "equal jitter" (half the delay fixed, half random) so receivers coming back
 * are not hit by every sender at once; 12 attempts in all (about 47 minutes at most, 24 at least),
 * then the delivery is FAILED and the next notice of its alert goes.
 */

/** Attempts of one delivery, the first included. */
export const MAX_ATTEMPTS = 12;
/** The wait after the first failed attempt. */
export const BASE_DELAY_MS = 1_000;
/** The longest wait between two attempts. */
export const MAX_DELAY_MS = 15 * 60_000;
/** How long one attempt waits for the endpoint's answer. */
export const ATTEMPT_TIMEOUT_MS = 10_000;

/** The wait before the attempt after attempt `attempt` (1-based) failed. */
export const retryDelayMs = (attempt: number, random: () => number = Math.random): number => {
  const full = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.max(0, attempt - 1));
  return Math.round(full / 2 + random() * (full / 2));
};
