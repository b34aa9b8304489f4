/**
 * The local gateway serving the console (`local/console-files.ts`) on the shared stack: index.html
 * at `/` and at every app route (SPA fallback), assets with their content types and a year's
 * cache, index.html revalidated (ETag, 304), the security headers CloudFront sends in AWS on every
 * console response, 404 for a missing file, nothing outside the build or hidden; and API paths
 * answering exactly as before (JSON 404 for an unknown API path, the API's own bodies, no console
 * headers).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { CONSOLE_SECURITY_HEADERS, IMMUTABLE_CACHE_CONTROL, REVALIDATE_CACHE_CONTROL } from '#shared/console-site';
import { CONSOLE_DIST } from '../../scripts/build-console.mjs';

const stack = inject('stack');
const indexHtml = () => readFileSync(path.join(CONSOLE_DIST, 'index.html'), 'utf8');

const expectSecurityHeaders = (response: Response) => {
  for (const [name, value] of Object.entries(CONSOLE_SECURITY_HEADERS)) expect(response.headers.get(name), name).toBe(value);
};

describe('the console on the local gateway', () => {
  it.each(['/', '/events', '/tables/tpch/lineitem', '/query', '/lineage', '/jobs/etl/daily', '/sign-in'])('Should answer %s with index.html, revalidated, with the security headers', async (route) => {
    // Act
    const response = await fetch(`${stack.baseUrl}${route}`);
    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe(REVALIDATE_CACHE_CONTROL);
    expectSecurityHeaders(response);
    expect(await response.text()).toBe(indexHtml());
  });

  it('Should serve index.html with no inline script and only same-origin assets', () => {
    const html = indexHtml();
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(body?.trim()).toBe('');
      expect(attributes).toMatch(/src="\/assets\//);
    }
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/\sstyle=/);
  });

  it('Should serve every asset with its content type and a year\'s immutable cache, and 304 on a matching ETag', async () => {
    const files = readdirSync(path.join(CONSOLE_DIST, 'assets'));
    expect(files.some((f) => f.endsWith('.js'))).toBe(true);
    expect(files.some((f) => f.endsWith('.css'))).toBe(true);
    for (const file of files) {
      // Act
      const response = await fetch(`${stack.baseUrl}/assets/${file}`);
      // Assess
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(file.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe(IMMUTABLE_CACHE_CONTROL);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(Buffer.from(await response.arrayBuffer()).equals(readFileSync(path.join(CONSOLE_DIST, 'assets', file)))).toBe(true);
      const again = await fetch(`${stack.baseUrl}/assets/${file}`, { headers: { 'if-none-match': response.headers.get('etag') ?? '' } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
    }
    const icon = await fetch(`${stack.baseUrl}/favicon.svg`);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
  });

  it('Should answer HEAD like GET without a body', async () => {
    const response = await fetch(`${stack.baseUrl}/events`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(indexHtml()));
    expect(await response.text()).toBe('');
  });

  it.each([
    ['a missing file', '/assets/missing-0000.js'],
    ['the build stamp (a dotfile)', '/.lakeline-build-hash'],
    ['the Vite manifest (a dot directory)', '/.vite/manifest.json'],
    ['a path out of the build directory', '/assets/..%2f..%2fpackage.json'],
    ['an encoded traversal', '/%2e%2e/%2e%2e/package.json'],
  ])('Should answer %s with 404', async (_what, requestPath) => {
    const response = await fetch(`${stack.baseUrl}${requestPath}`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: 'Not Found' });
    expectSecurityHeaders(response);
  });

  it('Should leave the API as it was: its own answers, a JSON 404 for unknown API paths, no console headers', async () => {
    // Act
    const unknown = await fetch(`${stack.baseUrl}/api/v1/nothing-here`);
    const events = await fetch(`${stack.baseUrl}/api/v1/events?start=0&end=1`);
    const openapi = await fetch(`${stack.baseUrl}/openapi.json`);
    const post = await fetch(`${stack.baseUrl}/events`, { method: 'POST', body: '{}' });
    // Assess
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: 'Not Found' });
    expect(events.status).toBe(401);
    expect(await events.json()).toEqual({ error: 'Unauthorized' });
    expect(openapi.status).toBe(200);
    expect(((await openapi.json()) as { openapi: string }).openapi).toMatch(/^3\./);
    expect(post.status).toBe(404);
    for (const response of [unknown, events, openapi, post]) expect(response.headers.get('content-security-policy')).toBeNull();
  });
});
