/**
 * @module alerts/feed-subscriber
 * Alert evaluation as a subscriber of the event feed (ADR 0045), named `alerts`: each batch of an
 * org's stored events is evaluated (`evaluate.ts`); evaluation skips events it has seen and each
 * change is idempotent, so a redelivered batch raises nothing twice.
 */
import type { FeedSubscriber } from '../feed/ports.ts';
import type { AlertDeps } from './deps.ts';
import { evaluateBatch } from './evaluate.ts';

/** The subscriber's name (its queue, its watermark, `lakeline feed replay --subscriber alerts`). */
export const ALERTS_SUBSCRIBER = 'alerts';

/** The alerts subscriber. */
export const alertsSubscriber = (deps: () => AlertDeps): FeedSubscriber => ({
  name: ALERTS_SUBSCRIBER,
  handle: (orgId, events) => evaluateBatch(deps(), orgId, events),
});
