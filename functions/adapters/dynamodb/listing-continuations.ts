/**
 * @module listing-continuations
 * Where the previous page of a listing ended, so that the next page (`offset` + the events the
 * previous page returned) starts from there instead of merging the window from its first entry
 * again. Offset paging over the sharded indexes otherwise reads `offset + limit` index entries per
 * page: page 1,000 of 30 would read 30,000, and a client paging through a window would read a
 * quadratic number of entries in all.
 *
 * A continuation is the sort key of the last entry a page returned. Sort keys are unique and the
 * merged order is total, so for unchanged data the continued page is exactly the page a full merge
 * gives; when events arrived in the window meanwhile, it is the page that follows what the client
 * last saw (no event shown twice or skipped because others were inserted before it). Continuations
 * live in the process (the local stack; a warm Lambda), expire after a few minutes, and a page with
 * none is computed by the full merge, so nothing depends on finding one.
 */

/** How long a continuation stays usable. */
export const CONTINUATION_TTL_MS = 5 * 60_000;
/** Continuations kept per process (oldest dropped first). */
export const MAX_CONTINUATIONS = 5_000;

/** Remembers where pages of listings ended. */
export class ListingContinuations {
  private readonly entries = new Map<string, { readonly sortKey: string; readonly expiresAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * The sort key after which the page at `offset` of `listing` starts, if a previous page ended there.
   * @param listing - a canonical description of the listing without its offset and limit
   */
  find(listing: string, offset: number): string | undefined {
    const key = `${offset}|${listing}`;
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.sortKey;
  }

  /** Records that the page of `listing` ending before `offset` ended with `sortKey`. */
  remember(listing: string, offset: number, sortKey: string): void {
    const key = `${offset}|${listing}`;
    this.entries.delete(key);
    this.entries.set(key, { sortKey, expiresAt: this.now() + CONTINUATION_TTL_MS });
    while (this.entries.size > MAX_CONTINUATIONS) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }
}
