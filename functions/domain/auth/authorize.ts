/**
 * @module authorize
 * The authorizer's use case: turn a bearer token or session cookie into a {@link Principal}.
 * Verified keys are cached per warm container for a short time, because the gateway's own result
 * cache cannot be used (see docs/adr/0005-authorizer-always-authorizes.md); revocation therefore takes effect
 * within the cache lifetime ({@link KEY_CACHE_TTL_MS} unless configured otherwise).
 */
import type { ApiKeyRecord } from '../orgs/org.ts';
import type { KeyStore, OrgStore } from '../orgs/ports.ts';
import { parseApiKey, secretMatches } from '../core/api-key.ts';
import type { Principal } from './principal.ts';
import { findSessionCookie, verifySessionToken } from '../core/session.ts';

/** How long a fetched key record is trusted before it is read again, unless configured otherwise. */
export const KEY_CACHE_TTL_MS = 30_000;
/** Last-used time is written at most this often per key, so authorization stays read-mostly. */
export const TOUCH_INTERVAL_MS = 60_000;
/**
 * Most key records one container remembers. Unknown key ids are cached too (so a flood of one bad
 * key costs one read per TTL), which makes the bound necessary: random well-formed ids must not
 * grow a warm container's memory without limit.
 */
export const MAX_CACHED_KEYS = 10_000;

/** What the authorizer sees of a request. */
export interface AuthRequest {
  readonly authorization?: string;
  readonly cookies: readonly string[];
  /** Whether this route accepts session cookies. */
  readonly sessionAllowed: boolean;
}

/** The outcome for one request: a principal, or why there is none (logged, never shown to callers). */
export type AuthDecision = { ok: true; principal: Principal } | { ok: false; reason: string };

/** Dependencies of {@link Authorizer}. */
export interface AuthorizerDeps {
  readonly keys: KeyStore;
  readonly orgs: OrgStore;
  /** Secret that signs session cookies. */
  readonly sessionSecret: string;
  /**
   * How long a fetched key record is trusted; the upper bound on how long a revoked key keeps
   * working in a warm container. 0 reads the store on every request.
   * @default KEY_CACHE_TTL_MS
   */
  readonly keyCacheTtlMs?: number;
  readonly now?: () => Date;
}

interface CachedKey {
  readonly record: ApiKeyRecord | undefined;
  readonly orgExists: boolean;
  readonly fetchedAt: number;
}

/** Verifies credentials; one instance lives per warm container. */
export class Authorizer {
  private readonly cache = new Map<string, CachedKey>();
  private readonly lastTouch = new Map<string, number>();
  private readonly now: () => Date;
  private readonly keyCacheTtlMs: number;

  constructor(private readonly deps: AuthorizerDeps) {
    this.now = deps.now ?? (() => new Date());
    this.keyCacheTtlMs = deps.keyCacheTtlMs ?? KEY_CACHE_TTL_MS;
    if (!Number.isFinite(this.keyCacheTtlMs) || this.keyCacheTtlMs < 0) throw new Error(`keyCacheTtlMs must be a non-negative number, not ${this.keyCacheTtlMs}`);
  }

  /** Decides one request. Never throws for bad credentials; store failures propagate. */
  async authorize(request: AuthRequest): Promise<AuthDecision> {
    const bearer = bearerToken(request.authorization);
    if (bearer !== undefined) return this.authorizeKey(bearer);
    if (request.authorization !== undefined && request.authorization.trim() !== '') {
      return { ok: false, reason: 'malformed Authorization header' };
    }
    const cookie = findSessionCookie(request.cookies);
    if (cookie !== undefined) {
      if (!request.sessionAllowed) return { ok: false, reason: 'session credentials are not accepted on this endpoint' };
      const verdict = verifySessionToken(cookie, this.deps.sessionSecret, this.now());
      if (!verdict.ok) return verdict;
      if (!(await this.deps.orgs.get(verdict.claims.orgId))) return { ok: false, reason: 'session for unknown organization' };
      return { ok: true, principal: { orgId: verdict.claims.orgId, authKind: 'session' } };
    }
    return { ok: false, reason: 'no credentials' };
  }

  /** Forgets cached keys (tests, and after an operator revokes a key in-process). */
  clearCache(): void {
    this.cache.clear();
  }

  private async authorizeKey(token: string): Promise<AuthDecision> {
    const parsed = parseApiKey(token);
    if (!parsed) return { ok: false, reason: 'malformed API key' };
    const cached = await this.lookup(parsed.keyId);
    const record = cached.record;
    if (!record) return { ok: false, reason: 'unknown API key' };
    if (!secretMatches(parsed.secret, record.secretHash)) return { ok: false, reason: 'wrong API key secret' };
    if (record.revokedAt) return { ok: false, reason: 'revoked API key' };
    if (!cached.orgExists) return { ok: false, reason: 'API key of unknown organization' };
    await this.touch(record.keyId);
    return { ok: true, principal: { orgId: record.orgId, authKind: 'key', keyId: record.keyId, ...(record.scope === 'read' ? { scope: 'read' as const } : {}) } };
  }

  private async lookup(keyId: string): Promise<CachedKey> {
    const nowMs = this.now().getTime();
    const hit = this.cache.get(keyId);
    if (hit && nowMs - hit.fetchedAt < this.keyCacheTtlMs) return hit;
    const record = await this.deps.keys.get(keyId);
    const orgExists = record ? (await this.deps.orgs.get(record.orgId)) !== undefined : false;
    const entry = { record, orgExists, fetchedAt: nowMs };
    // Re-inserting keeps the Map in fetch order, so the first entry is always the stalest one.
    this.cache.delete(keyId);
    if (this.cache.size >= MAX_CACHED_KEYS) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(keyId, entry);
    return entry;
  }

  private async touch(keyId: string): Promise<void> {
    const now = this.now();
    const last = this.lastTouch.get(keyId) ?? 0;
    if (now.getTime() - last < TOUCH_INTERVAL_MS) return;
    this.lastTouch.set(keyId, now.getTime());
    try {
      await this.deps.keys.touch(keyId, now.toISOString());
    } catch {
      // Last-used time is bookkeeping: a throttled or failed write must not turn a valid key into
      // a 500. Forget the attempt so the next request writes it again.
      this.lastTouch.delete(keyId);
    }
  }
}

/** Extracts the token of `Authorization: Bearer <token>` (scheme case-insensitive). */
const bearerToken = (header: string | undefined): string | undefined => {
  const match = header?.match(/^\s*Bearer\s+(\S+)\s*$/i);
  return match?.[1];
};
