/**
 * The rules of how the console is served (`functions/shared/console-site.ts`): the CloudFront
 * Function that does the SPA rewrite in AWS decides exactly as the local gateway's `isAppRoute`;
 * the cache rule; a CSP that allows no inline or eval'd script and no framing.
 */
import { describe, expect, it } from 'vitest';
import { CONSOLE_CSP, IMMUTABLE_CACHE_CONTROL, isApiPath, isAppRoute, REVALIDATE_CACHE_CONTROL, SPA_REWRITE_FUNCTION_CODE, cacheControlOf } from '#shared/console-site';

/** Runs the CloudFront Function's code as CloudFront would, on one request URI. */
const rewrite = (uri: string): string => {
  const handler = new Function(`${SPA_REWRITE_FUNCTION_CODE}; return handler;`)() as (event: { request: { uri: string } }) => { uri: string };
  return handler({ request: { uri } }).uri;
};

describe('console-site', () => {
  it.each(['/', '/events', '/tables/tpch/lineitem', '/jobs/etl/daily', '/lineage', '/index.html', '/assets/index-Ab12.js', '/favicon.svg', '/a.b/c', '/x/y.z'])(
    'Should rewrite %s in AWS exactly when the local gateway answers it with index.html',
    (uri) => {
      expect(rewrite(uri) === '/index.html' && uri !== '/index.html').toBe(isAppRoute(uri));
    },
  );

  it('Should never treat API paths as app routes', () => {
    for (const p of ['/api', '/api/v1/events', '/api/v1/tables/tpch/lineitem', '/openapi.json', '/mcp']) {
      expect(isApiPath(p)).toBe(true);
      expect(isAppRoute(p)).toBe(false);
    }
    expect(isApiPath('/apiary')).toBe(false);
    expect(isApiPath('/mcpx')).toBe(false);
  });

  it('Should cache content-hashed assets for a year and revalidate everything else', () => {
    expect(cacheControlOf('assets/index-Ab12.js')).toBe(IMMUTABLE_CACHE_CONTROL);
    expect(cacheControlOf('index.html')).toBe(REVALIDATE_CACHE_CONTROL);
    expect(cacheControlOf('favicon.svg')).toBe(REVALIDATE_CACHE_CONTROL);
  });

  it('Should allow only same-origin script, no inline or eval, no framing', () => {
    const directives = Object.fromEntries(CONSOLE_CSP.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]));
    expect(directives['script-src']).toBe("'self'");
    expect(directives['frame-ancestors']).toBe("'none'");
    expect(directives['object-src']).toBe("'none'");
    expect(CONSOLE_CSP).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
  });
});
