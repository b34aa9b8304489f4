/**
 * @module lineage-graph/feed-subscriber
 * The lineage model as a subscriber of the event feed (ADR 0045): each batch of an org's stored
 * events is applied to its model (`apply.ts`); merges are idempotent, so re-delivery is harmless.
 */
import type { FeedSubscriber } from '../feed/ports.ts';
import { applyEventsToLineageModel, type ApplySummary } from './apply.ts';
import type { LineageModelStore } from './ports.ts';

/** The subscriber's name (its queue, its watermark, `lakeline feed replay --subscriber lineage-model`). */
export const LINEAGE_MODEL_SUBSCRIBER = 'lineage-model';

/** The lineage model's subscriber; `onApplied` hears each batch's summary (the AWS consumer logs it). */
export const lineageModelSubscriber = (store: () => LineageModelStore, onApplied?: (orgId: string, summary: ApplySummary) => void): FeedSubscriber => ({
  name: LINEAGE_MODEL_SUBSCRIBER,
  handle: async (orgId, events) => {
    const summary = await applyEventsToLineageModel(store(), orgId, events);
    onApplied?.(orgId, summary);
  },
});
