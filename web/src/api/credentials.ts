/**
 * @module api/credentials
 * How the console authenticates: an API key held for the browser session, or lakeline's session cookie.
 */

/** The credentials of one signed-in user. */
export type Credentials = { readonly kind: 'key'; readonly apiKey: string } | { readonly kind: 'session' };
