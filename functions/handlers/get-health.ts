/**
 * @module get-health
 * `GET /api/v1/health`: the caller's organization in the event feed — each subscriber's lag behind
 * the org's newest stored event (ADR 0045). Always 200; `status` says whether a subscriber lags.
 */
import { feed } from '#composition/index';
import { mayWrite } from '#domain/auth/principal';
import { feedLag } from '#domain/feed/lag';
import { GetHealth } from '#shared/contracts';
import { httpHandler } from '#composition/http';

/** A subscriber this far behind (or with none of the org's events applied) makes the answer `lagging`. */
const LAGGING_MS = 60_000;

/** Lambda entry point. */
export const handler = httpHandler(GetHealth, async ({ principal }) => {
  const lag = await feedLag(feed().directory, principal.orgId);
  const lagging = lag.subscribers.some((s) => s.lagMs === null || s.lagMs > LAGGING_MS);
  return { statusCode: 200, body: { keyScope: mayWrite(principal) ? ('full' as const) : ('read' as const), status: lagging ? ('lagging' as const) : ('ok' as const), feed: lag } };
});
