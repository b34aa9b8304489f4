/**
 * @module core/session
 * Session credentials: a signed, expiring cookie (`lakeline_session`) for browser callers. The
 * value is `<base64url(JSON payload)>.<base64url(HMAC-SHA256)>`; nothing is stored server-side, so
 * a session ends when it expires (sessions are short-lived for that reason).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Name of the cookie carrying the session. */
export const SESSION_COOKIE = 'lakeline_session';

/** Default session lifetime. */
export const DEFAULT_SESSION_TTL_SECONDS = 8 * 3600;
/** Longest session that can be issued: nothing is stored, so expiry is the only way a session ends. */
export const MAX_SESSION_TTL_SECONDS = 7 * 24 * 3600;

/** What a session asserts. */
export interface SessionClaims {
  readonly orgId: string;
  /** Expiry, epoch seconds. */
  readonly exp: number;
}

const sign = (payload: string, secret: string): Buffer => createHmac('sha256', secret).update(payload).digest();

/** Creates a cookie value for an org, valid for `ttlSeconds` from `now`. */
export const createSessionToken = (orgId: string, secret: string, now: Date, ttlSeconds = DEFAULT_SESSION_TTL_SECONDS): string => {
  const claims: SessionClaims = { orgId, exp: Math.floor(now.getTime() / 1000) + ttlSeconds };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${payload}.${sign(payload, secret).toString('base64url')}`;
};

/** Verifies signature and expiry; returns the claims or a reason for refusal. */
export const verifySessionToken = (
  token: string,
  secret: string,
  now: Date,
): { ok: true; claims: SessionClaims } | { ok: false; reason: string } => {
  const dot = token.indexOf('.');
  if (dot <= 0) return { ok: false, reason: 'malformed session' };
  const payload = token.slice(0, dot);
  const presented = Buffer.from(token.slice(dot + 1), 'base64url');
  const expected = sign(payload, secret);
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
    return { ok: false, reason: 'bad session signature' };
  }
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed session' };
  }
  if (!isClaims(claims)) return { ok: false, reason: 'malformed session' };
  if (claims.exp * 1000 <= now.getTime()) return { ok: false, reason: 'session expired' };
  return { ok: true, claims };
};

const isClaims = (v: unknown): v is SessionClaims =>
  typeof v === 'object' && v !== null && typeof (v as SessionClaims).orgId === 'string' && Number.isInteger((v as SessionClaims).exp);

/** Finds the session cookie among `Cookie` header values (HTTP API passes them as an array). */
export const findSessionCookie = (cookies: readonly string[]): string | undefined => {
  for (const header of cookies) {
    for (const part of header.split(';')) {
      const eq = part.indexOf('=');
      if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim();
    }
  }
  return undefined;
};
