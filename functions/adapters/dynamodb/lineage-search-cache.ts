/**
 * @module lineage-search-cache
 * The per-process index of an org's job and dataset names, for substring search (which DynamoDB
 * cannot do). Loaded once per process from the `search` GSI, then kept fresh incrementally: every
 * job head and dataset name item carries its searchable fields plus a stamp (`gss`: the time they
 * last changed, then the id), so each request asks each shard only for stamps after the last sync
 * (minus an overlap that covers GSI lag and clocks a little apart) — usually an empty answer.
 */
import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SearchEntry } from '#domain/lineage-graph/records';
import { SEARCH_SHARDS } from './lineage-items.ts';

/** Options of {@link LineageSearchCache}. */
export interface SearchCacheOptions {
  /** How far before the last sync a refresh looks again. @default 10 s */
  readonly overlapMs?: number;
  /** Requests closer together than this share one refresh. @default 200 ms */
  readonly minIntervalMs?: number;
  /** The clock. @default Date.now */
  readonly now?: () => number;
}

interface ScopeState {
  readonly entries: Map<string, SearchEntry>;
  list: readonly SearchEntry[];
  /** Start time (ms) of the last sync that completed. */
  syncedAt: number;
  refreshing: Promise<void> | undefined;
}

/** The search index name of {@link LINEAGE_TABLE}. */
export const SEARCH_INDEX = 'search';

/** The stamp an item gets when its searchable fields change: ISO time with milliseconds, then the id. */
export const searchStamp = (nowMs: number, id: string): string => `${new Date(nowMs).toISOString()}#${id}`;

/** Per-process cache of every searchable name, per org generation. */
export class LineageSearchCache {
  private readonly scopes = new Map<string, ScopeState>();
  private readonly overlapMs: number;
  private readonly minIntervalMs: number;
  private readonly now: () => number;

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    options: SearchCacheOptions = {},
  ) {
    this.overlapMs = options.overlapMs ?? 10_000;
    this.minIntervalMs = options.minIntervalMs ?? 200;
    this.now = options.now ?? Date.now;
  }

  /** Every searchable name of a generation, fresh as of this call (the list is shared: do not mutate). */
  async entries(scope: string): Promise<readonly SearchEntry[]> {
    let state = this.scopes.get(scope);
    if (!state) {
      state = { entries: new Map(), list: [], syncedAt: Number.NEGATIVE_INFINITY, refreshing: undefined };
      this.scopes.set(scope, state);
    }
    if (this.now() - state.syncedAt >= this.minIntervalMs) {
      state.refreshing ??= this.refresh(scope, state).finally(() => {
        (state as ScopeState).refreshing = undefined;
      });
      await state.refreshing;
    }
    return state.list;
  }

  /** Forgets a generation (after a rebuild switched readers away from it). */
  drop(scope: string): void {
    this.scopes.delete(scope);
  }

  private async refresh(scope: string, state: ScopeState): Promise<void> {
    const started = this.now();
    const since = Number.isFinite(state.syncedAt) ? new Date(state.syncedAt - this.overlapMs).toISOString() : undefined;
    const pages = await Promise.all(Array.from({ length: SEARCH_SHARDS }, (_, shard) => this.readShard(`${scope}#S#${shard}`, since)));
    let changed = false;
    for (const items of pages) {
      for (const item of items) {
        const entry = toEntry(scope, item);
        if (!entry) continue;
        const known = state.entries.get(entry.id);
        if (known && sameEntry(known, entry)) continue;
        state.entries.set(entry.id, entry);
        changed = true;
      }
    }
    if (changed) state.list = [...state.entries.values()];
    state.syncedAt = started;
  }

  private async readShard(partition: string, since: string | undefined): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: SEARCH_INDEX,
          KeyConditionExpression: since === undefined ? 'gsp = :p' : 'gsp = :p AND gss > :s',
          ExpressionAttributeValues: since === undefined ? { ':p': partition } : { ':p': partition, ':s': since },
          ExclusiveStartKey: start,
        }),
      );
      items.push(...((out.Items ?? []) as Record<string, unknown>[]));
      start = out.LastEvaluatedKey;
    } while (start);
    return items;
  }
}

const sameEntry = (a: SearchEntry, b: SearchEntry): boolean =>
  a.updatedAtMinute === b.updatedAtMinute && a.name === b.name && a.namespace === b.namespace && a.canonical?.namespace === b.canonical?.namespace && a.canonical?.name === b.canonical?.name;

/** A search entry from an index item (`pk` is `<scope>#J#<id>` or `<scope>#D#<id>`). */
function toEntry(scope: string, item: Record<string, unknown>): SearchEntry | undefined {
  const pk = String(item.pk);
  const rest = pk.slice(scope.length + 1);
  const type = rest.startsWith('J#') ? 'JOB' : rest.startsWith('D#') ? 'DATASET' : undefined;
  if (type === undefined || typeof item.sn !== 'string' || typeof item.sm !== 'string') return undefined;
  const alias = typeof item.sa === 'string' ? item.sa.split('\u0000') : undefined;
  return {
    type,
    id: rest.slice(2),
    namespace: item.sn,
    name: item.sm,
    updatedAtMinute: typeof item.su === 'string' ? item.su : '',
    ...(alias && alias.length === 2 ? { canonical: { namespace: alias[0] as string, name: alias[1] as string } } : {}),
  };
}
