/**
 * @module sorted-merge
 * Merges several sorted, paged streams (one per index partition) into one sorted prefix, reading
 * each stream only as far as the merge needs. This is how the sharded indexes are listed: the
 * first `offset + limit` entries of the merged order, with as few and as small Query pages as the
 * data allows.
 */

/** One page of a source. */
export interface SourcePage<T> {
  readonly items: readonly T[];
  /** Whether the source has nothing after this page. */
  readonly done: boolean;
  /** Entries examined for this page (DynamoDB's ScannedCount): `items` are what the filter kept. */
  readonly examined: number;
}

/**
 * A sorted stream, read page by page. Each call returns the next page (at most `limit` entries
 * examined; a filtered source may return fewer items, even none, while not done).
 */
export type PagedSource<T> = (limit: number) => Promise<SourcePage<T>>;

/** How big the pages requested from each source are. */
export interface PageSizing {
  /** Entries asked for in a source's first page. */
  readonly first: number;
  /** Largest page asked for. */
  readonly max: number;
}

/**
 * Largest page asked of one source. Merge entries are one sort key (~60 bytes), so this stays far
 * below DynamoDB's 1 MB per Query page while a deep offset needs few round trips.
 */
export const MAX_SOURCE_PAGE = 5_000;

/** First-page size that covers `wanted` entries spread evenly over `sources` streams, with slack. */
export const evenSizing = (wanted: number, sources: number, filtered: boolean): PageSizing => {
  const share = Math.ceil((wanted * 1.25) / Math.max(1, sources)) + 4;
  // With filters, many entries of a page may be dropped; start larger so one round often suffices.
  return { first: Math.min(MAX_SOURCE_PAGE, filtered ? Math.max(share, 80) : share), max: MAX_SOURCE_PAGE };
};

/**
 * Size of a source's next page: its share of what is still wanted, divided by the fraction of
 * examined entries the filter has kept so far (measured over all sources), with 50% slack. So a
 * selective filter asks for big pages at once, and an unfiltered stream asks for just enough.
 */
const nextPageSize = (remaining: number, activeSources: number, kept: number, examined: number, max: number): number => {
  const keptRatio = examined > 0 ? Math.max(kept / examined, 1 / max) : 1;
  const share = remaining / Math.max(1, activeSources);
  return Math.min(max, Math.ceil((share / keptRatio) * 1.5) + 8);
};

interface Cursor<T> {
  readonly source: PagedSource<T>;
  buffer: readonly T[];
  at: number;
  done: boolean;
  pageSize: number;
}

/**
 * The first `count` items of the merged order of `sources`.
 *
 * Every source must yield items in `compare` order, and no two items may compare equal (ties are
 * broken inside the keys), which makes the merged order total and therefore stable between pages.
 * An item is emitted only when every source that may still have items has one buffered, so a
 * source that runs dry is refilled (all such sources in parallel) before the merge goes on.
 */
export async function mergeSorted<T>(sources: readonly PagedSource<T>[], compare: (a: T, b: T) => number, count: number, sizing: PageSizing): Promise<T[]> {
  const cursors: Cursor<T>[] = sources.map((source) => ({ source, buffer: [], at: 0, done: false, pageSize: sizing.first }));
  const out: T[] = [];
  let kept = 0;
  let examined = 0;
  while (out.length < count) {
    const empty = cursors.filter((c) => !c.done && c.at >= c.buffer.length);
    if (empty.length > 0) {
      const pages = await Promise.all(empty.map((c) => c.source(c.pageSize)));
      pages.forEach((page, i) => {
        const c = empty[i] as Cursor<T>;
        c.buffer = page.items;
        c.at = 0;
        c.done = page.done;
        kept += page.items.length;
        examined += page.examined;
      });
      const active = cursors.filter((c) => !c.done).length;
      for (const c of empty) c.pageSize = nextPageSize(count - out.length, active, kept, examined, sizing.max);
      continue;
    }
    let best: Cursor<T> | undefined;
    for (const c of cursors) {
      if (c.at >= c.buffer.length) continue;
      if (best === undefined || compare(c.buffer[c.at] as T, best.buffer[best.at] as T) < 0) best = c;
    }
    if (best === undefined) break;
    out.push(best.buffer[best.at] as T);
    best.at += 1;
  }
  return out;
}
