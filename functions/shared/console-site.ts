/**
 * @module console-site
 * How the console (`web/dist`) is served, in one place for both profiles: the security headers
 * (the local gateway sends them; CloudFront's response headers policy in `lib/console.ts` is built
 * from the same values), the cache rule per file, and which paths are the app's own routes (answered
 * with index.html) rather than files or API paths.
 */

/** Content-Security-Policy directives: same-origin only, no inline or eval'd script, no framing. */
export const CONSOLE_CSP_DIRECTIVES: readonly (readonly [string, string])[] = [
  ['default-src', "'self'"],
  ['script-src', "'self'"],
  ['style-src', "'self'"],
  // CodeMirror's theme draws some marks with data: SVG backgrounds.
  ['img-src', "'self' data:"],
  ['font-src', "'self'"],
  ['connect-src', "'self'"],
  ['object-src', "'none'"],
  ['base-uri', "'none'"],
  ['form-action', "'self'"],
  ['frame-ancestors', "'none'"],
];

/** The Content-Security-Policy header value. */
export const CONSOLE_CSP = CONSOLE_CSP_DIRECTIVES.map(([name, value]) => `${name} ${value}`).join('; ');

/** HSTS: two years, subdomains included (browsers ignore it over plain HTTP, as on the local gateway). */
export const CONSOLE_HSTS = { maxAgeSeconds: 63_072_000, includeSubdomains: true } as const;

/** The headers every console response carries (lowercase names). */
export const CONSOLE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONSOLE_CSP,
  'strict-transport-security': `max-age=${CONSOLE_HSTS.maxAgeSeconds}${CONSOLE_HSTS.includeSubdomains ? '; includeSubDomains' : ''}`,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

/** Directory of the content-hashed build output: its files never change, so they are cached for a year. */
export const CONSOLE_ASSETS_DIR = 'assets';

/** Cache-Control of content-hashed assets. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** Cache-Control of everything else (index.html above all): always revalidated, so a deploy shows at once. */
export const REVALIDATE_CACHE_CONTROL = 'no-cache';

/** The Cache-Control of a console file, by its path relative to the site root (`assets/index-Ab1.js`). */
export const cacheControlOf = (relativePath: string): string =>
  relativePath.startsWith(`${CONSOLE_ASSETS_DIR}/`) ? IMMUTABLE_CACHE_CONTROL : REVALIDATE_CACHE_CONTROL;

/** Path prefixes that belong to the API, never to the console (CloudFront routes them to API Gateway); `/mcp` is the MCP server (ADR 0048). */
export const API_PATH_PATTERNS = ['/api/*', '/openapi.json', '/mcp'] as const;

/** Whether a path belongs to the API. */
export const isApiPath = (pathname: string): boolean => pathname === '/openapi.json' || pathname === '/mcp' || pathname === '/api' || pathname.startsWith('/api/');

/**
 * Whether a path is one of the app's routes (answered with index.html, the SPA fallback): any
 * non-API path whose last segment has no dot. Paths with a dot are files, and a missing file is a 404.
 */
export const isAppRoute = (pathname: string): boolean => !isApiPath(pathname) && !(pathname.split('/').pop() ?? '').includes('.');

/**
 * The CloudFront Function (viewer request, cloudfront-js-2.0) of the console's default behavior:
 * the same rule as {@link isAppRoute}, rewriting app routes to /index.html. API paths never reach
 * it (they have their own behaviors).
 */
export const SPA_REWRITE_FUNCTION_CODE = `function handler(event) {
  var request = event.request;
  var last = request.uri.split('/').pop();
  if (last.indexOf('.') === -1) request.uri = '/index.html';
  return request;
}`;
