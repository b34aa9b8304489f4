/**
 * @module lineage-tables/feed-subscriber
 * The lineage lake tables as a subscriber of the event feed (ADR 0045, ADR 0056): each batch of an
 * org's stored events becomes rows of `lineage.run_events` in as few commits as the lake writer's
 * request limit allows (never a commit per event). Exactly once rests on the store: each commit
 * records its highest mark in the snapshot summary and skips rows already there, so a batch the
 * feed delivers again after a crash adds nothing.
 */
import type { FeedSubscriber } from '../feed/ports.ts';
import type { ExportOutcome, LineageTablesStore } from './ports.ts';
import { runEventRow, type RunEventRow } from './rows.ts';

/** The subscriber's name (its queue, its watermark, `lakeline feed replay --subscriber lineage-tables`). */
export const LINEAGE_TABLES_SUBSCRIBER = 'lineage-tables';

/**
 * Bytes of rows per lake writer request: under a Lambda invocation's 6 MB request payload with
 * room for the JSON around them (a larger batch is split, each part its own commit, in order).
 */
export const MAX_REQUEST_BYTES = 4 * 1024 * 1024;

/**
 * How the feed should batch for this subscriber: every batch is an Iceberg commit (and a file per
 * day it touches), so events gather for up to 10 s before one — well inside the 60 s in which an
 * acknowledged event is a row — and a burst is taken 5,000 at a time. The local queue takes these
 * as its options; in AWS the queue's batching window does the same (`lib/lineage-tables.ts`).
 */
export const LINEAGE_TABLES_BATCHING = { quietDelayMs: 10_000, busyMaxLagMs: 15_000, batchSize: 5_000 } as const;

/** Splits rows, in order, into parts of at most `maxBytes` of JSON (a single larger row goes alone). */
export const requestParts = (rows: readonly RunEventRow[], maxBytes = MAX_REQUEST_BYTES): RunEventRow[][] => {
  const parts: RunEventRow[][] = [];
  let current: RunEventRow[] = [];
  let size = 0;
  for (const row of rows) {
    const bytes = Buffer.byteLength(JSON.stringify(row));
    if (current.length > 0 && size + bytes > maxBytes) {
      parts.push(current);
      current = [];
      size = 0;
    }
    current.push(row);
    size += bytes;
  }
  if (current.length > 0) parts.push(current);
  return parts;
};

/** The lineage tables' subscriber; `onExported` hears each commit's outcome (the profile logs it). */
export const lineageTablesSubscriber = (store: () => LineageTablesStore, onExported?: (orgId: string, outcome: ExportOutcome) => void): FeedSubscriber => ({
  name: LINEAGE_TABLES_SUBSCRIBER,
  handle: async (orgId, events) => {
    // Stored order: the marks rise part by part, so each commit's mark covers everything before it.
    const rows = events.map(runEventRow).sort((a, b) => (a.mark < b.mark ? -1 : a.mark > b.mark ? 1 : 0));
    for (const part of requestParts(rows)) {
      const outcome = await store().export(orgId, part, (part[part.length - 1] as RunEventRow).mark);
      onExported?.(orgId, outcome);
    }
  },
});
