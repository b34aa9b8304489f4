/**
 * The local gateway's static side (`local/console-files.ts`) on a small built directory, with raw
 * request paths (no client normalization): traversal and hidden files refused, a rebuild while
 * running picked up, an unbuilt console explained instead of a bare 404.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsoleFiles, contentTypeOf } from '#local/console-files';

let root: string;
let server: http.Server;
let port: number;

/** GETs a raw path, exactly as written. */
const get = (rawPath: string): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> =>
  new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: rawPath, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'lakeline-console-files-'));
  const site = path.join(root, 'site');
  mkdirSync(path.join(site, 'assets'), { recursive: true });
  mkdirSync(path.join(site, '.vite'), { recursive: true });
  writeFileSync(path.join(site, 'index.html'), '<html>v1</html>');
  writeFileSync(path.join(site, 'assets', 'app-1.js'), 'console.log(1)');
  writeFileSync(path.join(site, '.vite', 'manifest.json'), '{}');
  writeFileSync(path.join(root, 'secret.txt'), 'outside');
  const files = createConsoleFiles(site);
  // The raw path as the client wrote it (the gateway passes URL-normalized paths; this is the defence behind that).
  server = http.createServer((req, res) => files.serve(req, res, (req.url ?? '/').split('?')[0] as string));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(root, { recursive: true, force: true });
});

describe('console files', () => {
  it.each(['/../secret.txt', '/assets/../../secret.txt', '/%2e%2e/secret.txt', '/assets/%2e%2e%2f%2e%2e%2fsecret.txt', '/.vite/manifest.json', '/assets/..%5c..%5csecret.txt'])(
    'Should refuse %s with 404',
    async (rawPath) => {
      const response = await get(rawPath);
      expect(response.status).toBe(404);
      expect(response.body).not.toContain('outside');
    },
  );

  it('Should serve a file and pick up a rebuild while running', async () => {
    expect((await get('/events')).body).toBe('<html>v1</html>');
    writeFileSync(path.join(root, 'site', 'index.html'), '<html>v2, rebuilt</html>');
    // A later mtime, whatever the file system's clock resolution.
    const later = new Date(Date.now() + 5000);
    utimesSync(path.join(root, 'site', 'index.html'), later, later);
    expect((await get('/events')).body).toBe('<html>v2, rebuilt</html>');
    expect((await get('/assets/app-1.js')).headers['content-type']).toBe('text/javascript; charset=utf-8');
  });

  it('Should say how to build the console when it is not built', async () => {
    const empty = createConsoleFiles(path.join(root, 'not-built'));
    expect(empty.built()).toBe(false);
    const res = { status: 0, body: '', writeHead(status: number) { this.status = status; }, end(body?: Buffer) { this.body = body?.toString() ?? ''; } };
    empty.serve({ method: 'GET', headers: {} } as http.IncomingMessage, res as unknown as http.ServerResponse, '/events');
    expect(res.status).toBe(503);
    expect(res.body).toContain('npm run build:web');
  });

  it('Should know the content types the build produces', () => {
    expect(contentTypeOf('a.js')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeOf('a.css')).toBe('text/css; charset=utf-8');
    expect(contentTypeOf('a.svg')).toBe('image/svg+xml');
    expect(contentTypeOf('a.unknown')).toBe('application/octet-stream');
  });
});
