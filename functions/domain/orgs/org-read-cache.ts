/**
 * @module orgs/org-read-cache
 * A warm container's short memory of org records, for an endpoint whose only question is the org's
 * plan (the legacy DuckDB endpoint): one store read per org per time-to-live instead of one per
 * request (ADR 0058). Not for a credit-limit check: usage changes with every metered run.
 *
 * It is the same bound the authorizer already puts on API keys (`KEY_CACHE_TTL_MS`, configured by
 * the same setting): a plan change, like a key's revocation, takes effect in a warm container
 * within the time-to-live. Only orgs that exist are remembered, so an org created a moment ago is
 * seen at once; nothing that meters or spends reads through it.
 */
import type { Org } from './org.ts';
import type { OrgStore } from './ports.ts';

/** Most orgs one container remembers (each a few hundred bytes); the stalest is dropped first. */
export const MAX_CACHED_ORGS = 1_000;

interface Remembered {
  readonly org: Org;
  readonly fetchedAt: number;
}

/** `OrgStore.get` with a per-container memory of `ttlMs`. */
export class OrgReadCache implements Pick<OrgStore, 'get'> {
  private readonly remembered = new Map<string, Remembered>();

  constructor(
    private readonly store: Pick<OrgStore, 'get'>,
    private readonly ttlMs: number,
    private readonly nowMs: () => number = () => Date.now(),
  ) {
    if (!Number.isFinite(ttlMs) || ttlMs < 0) throw new Error(`ttlMs must be a non-negative number, not ${ttlMs}`);
  }

  async get(orgId: string): Promise<Org | undefined> {
    const now = this.nowMs();
    const hit = this.remembered.get(orgId);
    if (hit && now - hit.fetchedAt < this.ttlMs) return hit.org;
    const org = await this.store.get(orgId);
    // Re-inserting keeps the Map in fetch order, so the first entry is always the stalest one.
    this.remembered.delete(orgId);
    if (org && this.ttlMs > 0) {
      if (this.remembered.size >= MAX_CACHED_ORGS) this.remembered.delete(this.remembered.keys().next().value as string);
      this.remembered.set(orgId, { org, fetchedAt: now });
    }
    return org;
  }
}
