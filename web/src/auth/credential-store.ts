/**
 * @module auth/credential-store
 * Where the console keeps what the user signed in with: the API key in `sessionStorage` only —
 * gone when the browser session (the tab) ends, never in `localStorage`, a cookie, a URL or a log.
 * A cookie session needs nothing kept: the browser holds the `lakeline_session` cookie itself.
 */

const KEY_ITEM = 'lakeline.console.apiKey';
/** Set when the user signed out of a cookie session, so this tab stops using the cookie on its own. */
const SIGNED_OUT_ITEM = 'lakeline.console.signedOut';

/** The session cookie lakeline accepts (`functions/domain/core/session.ts`). */
export const SESSION_COOKIE = 'lakeline_session';

/** The API key held for this browser session, if any. */
export const storedApiKey = (): string | undefined => sessionStorage.getItem(KEY_ITEM) ?? undefined;

/** Holds a verified API key for this browser session. */
export const storeApiKey = (apiKey: string): void => {
  sessionStorage.setItem(KEY_ITEM, apiKey);
  sessionStorage.removeItem(SIGNED_OUT_ITEM);
};

/** Whether the user signed out of a cookie session in this tab. */
export const signedOutOfSession = (): boolean => sessionStorage.getItem(SIGNED_OUT_ITEM) === '1';

/** Marks the cookie session as left (or taken up again). */
export const setSignedOutOfSession = (value: boolean): void => {
  if (value) sessionStorage.setItem(SIGNED_OUT_ITEM, '1');
  else sessionStorage.removeItem(SIGNED_OUT_ITEM);
};

/** Forgets the API key. */
export const forgetApiKey = (): void => sessionStorage.removeItem(KEY_ITEM);

/**
 * Drops the session cookie when script can reach it. A cookie set `HttpOnly` cannot be removed from
 * the page (lakeline keeps no session state to revoke); it then ends at its expiry, and this tab
 * ignores it until the user chooses it again.
 */
export const dropSessionCookie = (): void => {
  document.cookie = `${SESSION_COOKIE}=; Max-Age=0; Path=/; SameSite=Strict`;
};
