/**
 * @module principal
 * Who is calling: the outcome of authorization, carried from the authorizer to the handlers in
 * the API Gateway authorizer context (flat string values, as HTTP API contexts are).
 */

/** An authenticated caller. */
export interface Principal {
  readonly orgId: string;
  readonly authKind: 'key' | 'session';
  /** The API key used, when authKind is `key`. */
  readonly keyId?: string;
  /** `read`: the key reads only (ADR 0049); absent: it may write (every session, every key made without `--read-only`). */
  readonly scope?: 'read';
}

/** Whether the caller may store or change data (send events, write tables, start or stop runs). */
export const mayWrite = (principal: Principal): boolean => principal.scope !== 'read';

/** What the authorizer puts in the gateway context. */
export type AuthorizerContext = Record<string, string>;

/** Encodes a decision into the authorizer context. */
export const toAuthorizerContext = (decision: { ok: true; principal: Principal } | { ok: false; reason: string }): AuthorizerContext =>
  decision.ok
    ? { orgId: decision.principal.orgId, authKind: decision.principal.authKind, keyId: decision.principal.keyId ?? '', scope: decision.principal.scope ?? 'full' }
    : { denied: decision.reason };

/**
 * The context of a request the authorizer could not decide because a store failed. The handler
 * answers 503 (retry later) instead of a 401 that would tell a valid caller their key is bad.
 */
export const UNAVAILABLE_CONTEXT: AuthorizerContext = { unavailable: 'credentials could not be checked' };

/** Whether the authorizer could not decide (see {@link UNAVAILABLE_CONTEXT}). */
export const isUndecided = (ctx: Record<string, unknown> | undefined): boolean => typeof ctx?.unavailable === 'string';

/** Reads the principal back; undefined when the request was denied or the context is absent. */
export const fromAuthorizerContext = (ctx: Record<string, unknown> | undefined): Principal | undefined => {
  if (!ctx || typeof ctx.orgId !== 'string' || ctx.orgId === '') return undefined;
  const authKind = ctx.authKind === 'session' ? 'session' : ctx.authKind === 'key' ? 'key' : undefined;
  if (!authKind) return undefined;
  const scope = ctx.scope === 'read' ? { scope: 'read' as const } : {};
  return typeof ctx.keyId === 'string' && ctx.keyId !== '' ? { orgId: ctx.orgId, authKind, keyId: ctx.keyId, ...scope } : { orgId: ctx.orgId, authKind, ...scope };
};
