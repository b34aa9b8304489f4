/**
 * @module lineage-graph/tags
 * The org's tag list (Marquez's `GET /api/v1/tags`): every tag name an OpenLineage `tags` facet
 * has carried, on a job, a dataset or a column. Tags come only from events (ADR 0042): the list
 * grows as events name new tags and nothing removes one, as Marquez's own tag list.
 */
import { allTagNamesOf } from './views.ts';
import type { ModelEvent } from './merge.ts';
import type { LineageModelReads, LineageModelWriter, Page } from './ports.ts';

type Json = Record<string, unknown>;
const asRecord = (value: unknown): Json | undefined => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined);
const facetsOf = (holder: unknown): unknown => asRecord(asRecord(holder)?.facets)?.tags;

/** Tag names an event's `tags` facets carry: its job's, its datasets' and their columns'. */
export function tagNamesOfEvent(event: ModelEvent): string[] {
  const raw = asRecord(event.event_raw) ?? {};
  const holders = [raw.job, raw.dataset, ...(Array.isArray(raw.inputs) ? raw.inputs : []), ...(Array.isArray(raw.outputs) ? raw.outputs : [])];
  return holders.flatMap((holder) => allTagNamesOf(facetsOf(holder)));
}

/**
 * Lists the batch's tag names that are not listed yet. A batch without `tags` facets (most) costs
 * nothing; one with them, a batched read and a write of the new names.
 */
export async function mergeTags(model: LineageModelWriter, events: readonly ModelEvent[]): Promise<void> {
  const names = [...new Set(events.flatMap(tagNamesOfEvent))];
  if (names.length === 0) return;
  const known = await model.getTags(names);
  const added = names.filter((n) => !known.has(n));
  if (added.length > 0) await model.putTags(added);
}

/** A tag as Marquez shows it: tags from OpenLineage carry no description. */
export interface TagView {
  readonly name: string;
  readonly description: string | null;
}

/** `{tags, totalCount}`. */
export interface TagsView {
  readonly tags: readonly TagView[];
  readonly totalCount: number;
}

/** The org's tags by name. */
export async function listTags(store: LineageModelReads, orgId: string, page: Page): Promise<TagsView> {
  const model = await store.model(orgId);
  const { tags, total } = await model.listTags(page);
  return { tags: tags.map((name) => ({ name, description: null })), totalCount: total };
}
