/**
 * @module lineage-graph/search
 * Search (`GET /api/v1/search`, Marquez's shape): case-insensitive substring over job and dataset
 * names, symlink aliases included (a dataset found by an alias is answered under its resolved
 * name, once). Substring search is not a DynamoDB access path, so the store hands over every
 * searchable name of the org (from a per-process index it keeps fresh incrementally) and the
 * matching happens here; the page's exact `updatedAt` is then read from the records.
 */
import { foldForSearch } from '../lineage/search-fold.ts';
import { datasetIdOf, datasetNodeId, jobNodeId, type QualifiedName } from './ids.ts';
import type { LineageModelReader, LineageModelReads } from './ports.ts';
import type { SearchEntry } from './records.ts';

/** A search request, validated (see `params.ts`). */
export interface SearchQuery {
  readonly q: string;
  readonly filter?: 'DATASET' | 'JOB';
  readonly sort: 'NAME' | 'UPDATED_AT';
  /** Only results in this namespace (exact). */
  readonly namespace?: string;
  readonly limit: number;
  readonly offset: number;
}

/** Marquez's `SearchResult`. */
export interface SearchResultView {
  readonly type: 'DATASET' | 'JOB';
  readonly name: string;
  readonly updatedAt: string;
  readonly namespace: string;
  readonly nodeId: string;
}

/** `{totalCount, results}`. */
export interface SearchResultsView {
  readonly totalCount: number;
  readonly results: readonly SearchResultView[];
}

/** A result before its exact time is read: the resolved name and the ids of the names it stands for. */
interface Candidate {
  readonly type: 'DATASET' | 'JOB';
  readonly name: QualifiedName;
  readonly ids: readonly string[];
  readonly updatedAtMinute: string;
}

/** Dataset groups by resolved-name id: the ids of their names and their latest minute. */
type Groups = ReadonlyMap<string, { readonly name: QualifiedName; readonly ids: string[]; minute: string }>;

// Folding (NFC + lower case) is the costly part of a search over 25,000 names; entries are
// immutable and a store hands out the same objects while they do not change, so each is folded once.
const folded = new WeakMap<SearchEntry, string>();
const foldedName = (entry: SearchEntry): string => {
  let value = folded.get(entry);
  if (value === undefined) folded.set(entry, (value = foldForSearch(entry.name)));
  return value;
};

const groupsOfList = new WeakMap<readonly SearchEntry[], Groups>();

const groupsOf = (entries: readonly SearchEntry[]): Groups => {
  const known = groupsOfList.get(entries);
  if (known) return known;
  const groups = new Map<string, { name: QualifiedName; ids: string[]; minute: string }>();
  for (const e of entries) {
    if (e.type !== 'DATASET') continue;
    const name = e.canonical ?? { namespace: e.namespace, name: e.name };
    const id = datasetIdOf(name);
    const group = groups.get(id) ?? { name, ids: [], minute: '' };
    group.ids.push(e.id);
    if (e.updatedAtMinute > group.minute) group.minute = e.updatedAtMinute;
    groups.set(id, group);
  }
  groupsOfList.set(entries, groups);
  return groups;
};

const byName = (a: Candidate, b: Candidate): number =>
  a.name.name < b.name.name ? -1 : a.name.name > b.name.name ? 1 : a.name.namespace < b.name.namespace ? -1 : a.name.namespace > b.name.namespace ? 1 : a.type < b.type ? -1 : a.type > b.type ? 1 : 0;

/** Most candidates whose exact times are read to order a page by time. */
const MAX_EXACT_CANDIDATES = 200;

/** Searches an organization's job and dataset names. */
export async function searchLineage(store: LineageModelReads, orgId: string, query: SearchQuery): Promise<SearchResultsView> {
  const model = await store.model(orgId);
  const entries = await model.searchEntries();
  const groups = groupsOf(entries);
  const needle = foldForSearch(query.q);
  const matches = new Map<string, Candidate>();
  for (const e of entries) {
    if (!foldedName(e).includes(needle)) continue;
    if (query.filter !== undefined && e.type !== query.filter) continue;
    if (e.type === 'JOB') {
      if (query.namespace === undefined || e.namespace === query.namespace) matches.set(`j${e.id}`, { type: 'JOB', name: e, ids: [e.id], updatedAtMinute: e.updatedAtMinute });
      continue;
    }
    const name = e.canonical ?? e;
    if (query.namespace !== undefined && name.namespace !== query.namespace) continue;
    const groupId = datasetIdOf(name);
    const group = groups.get(groupId);
    if (group && !matches.has(`d${groupId}`)) matches.set(`d${groupId}`, { type: 'DATASET', name: group.name, ids: group.ids, updatedAtMinute: group.minute });
  }
  const all = [...matches.values()];
  let page: Array<Candidate & { updatedAt: string }>;
  if (query.sort === 'NAME') {
    const slice = all.sort(byName).slice(query.offset, query.offset + query.limit);
    page = await withExactTimes(model, slice);
  } else {
    // Minutes order the candidates; every one in the last minute the page reaches may still move
    // within it, so those are read exactly and ordered again.
    all.sort((a, b) => (a.updatedAtMinute > b.updatedAtMinute ? -1 : a.updatedAtMinute < b.updatedAtMinute ? 1 : byName(a, b)));
    const reach = all[Math.min(all.length, query.offset + query.limit) - 1]?.updatedAtMinute ?? '';
    const exact = all.filter((c, i) => i < query.offset + query.limit || c.updatedAtMinute >= reach).slice(0, Math.max(MAX_EXACT_CANDIDATES, query.offset + query.limit));
    const timed = await withExactTimes(model, exact);
    timed.sort((a, b) => (a.updatedAt > b.updatedAt ? -1 : a.updatedAt < b.updatedAt ? 1 : byName(a, b)));
    page = timed.slice(query.offset, query.offset + query.limit);
  }
  return {
    totalCount: all.length,
    results: page.map((c) => ({
      type: c.type,
      name: c.name.name,
      updatedAt: c.updatedAt,
      namespace: c.name.namespace,
      nodeId: c.type === 'JOB' ? jobNodeId(c.name) : datasetNodeId(c.name),
    })),
  };
}

/** Reads the exact latest event time of each candidate (the latest of a dataset's names). */
async function withExactTimes(model: LineageModelReader, candidates: readonly Candidate[]): Promise<Array<Candidate & { updatedAt: string }>> {
  const jobIds = candidates.filter((c) => c.type === 'JOB').flatMap((c) => c.ids);
  const datasetIds = candidates.filter((c) => c.type === 'DATASET').flatMap((c) => c.ids);
  const [jobs, datasets] = await Promise.all([jobIds.length ? model.getJobLinks(jobIds) : new Map(), datasetIds.length ? model.getDatasets(datasetIds) : new Map()]);
  return candidates.map((c) => {
    const times = c.type === 'JOB' ? c.ids.map((id) => jobs.get(id)?.updatedAt ?? '') : c.ids.map((id) => datasets.get(id)?.value.updatedAt || datasets.get(id)?.value.createdAt || '');
    return { ...c, updatedAt: times.reduce((a, b) => (b > a ? b : a), '') || c.updatedAtMinute };
  });
}
