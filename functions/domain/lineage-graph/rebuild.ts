/**
 * @module lineage-graph/rebuild
 * Recomputes an organization's lineage model from its stored events (`lakeline lineage rebuild`).
 * The model is derived data: the rebuild fills a new generation from every stored event while
 * readers keep using the current one, and consumers write each new batch to both (so an event
 * stored during the rebuild is in the result), then switches readers over and drops the old
 * generation. Since every merge is order-independent, the result equals what incremental
 * maintenance gave.
 */
import { applyEventsToModel } from './apply.ts';
import type { LineageModelWrites, StoredEventSource } from './ports.ts';

/** What a rebuild did. */
export interface RebuildSummary {
  readonly generation: number;
  readonly events: number;
  readonly batches: number;
}

/**
 * Rebuilds one organization's model. A second rebuild started while one runs takes over (the
 * first one's commit then fails); running it again after a failure starts afresh.
 *
 * @param onBatch - called after each batch, for progress output
 * @throws when the store or the event source fails; the current model is left as it was
 */
export async function rebuildLineageModel(
  store: LineageModelWrites,
  source: StoredEventSource,
  orgId: string,
  onBatch?: (progress: { events: number; batches: number }) => void,
): Promise<RebuildSummary> {
  const { generation, model } = await store.beginRebuild(orgId);
  let events = 0;
  let batches = 0;
  for await (const batch of source.events(orgId)) {
    await applyEventsToModel(model, batch);
    events += batch.length;
    batches += 1;
    onBatch?.({ events, batches });
  }
  await store.commitRebuild(orgId, generation);
  return { generation, events, batches };
}
