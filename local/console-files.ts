/**
 * @module console-files
 * The local gateway's static side: serves the built console (`web/dist`) at `/` with the right
 * content types, cache headers and the same security headers CloudFront sends in AWS, answers the
 * app's own routes with index.html (SPA fallback), and never serves dotfiles or anything outside
 * the directory. API paths never get here (`local/gateway.ts` routes them first).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { CONSOLE_SECURITY_HEADERS, cacheControlOf, isAppRoute } from '#shared/console-site';

/** Content types by extension; anything else is served as bytes. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** The content type of a file name. */
export const contentTypeOf = (file: string): string => CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';

interface CachedFile {
  readonly body: Buffer;
  readonly etag: string;
  readonly mtimeMs: number;
}

/** Serves one built console directory. */
export const createConsoleFiles = (root: string) => {
  const base = path.resolve(root);
  const cache = new Map<string, CachedFile>();

  /** The file's bytes and ETag, re-read when it changed on disk (a rebuild while the stack runs). */
  const read = (file: string): CachedFile | undefined => {
    let stat;
    try {
      stat = statSync(file);
    } catch {
      return undefined;
    }
    if (!stat.isFile()) return undefined;
    const cached = cache.get(file);
    if (cached && cached.mtimeMs === stat.mtimeMs) return cached;
    const body = readFileSync(file);
    const entry = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`, mtimeMs: stat.mtimeMs };
    cache.set(file, entry);
    return entry;
  };

  /** The file a path names inside the directory, or undefined for anything unsafe or hidden. */
  const resolve = (pathname: string): string | undefined => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return undefined;
    }
    const segments = decoded.split('/').filter(Boolean);
    if (decoded.includes('\0') || segments.some((s) => s.startsWith('.') || s.includes('\\'))) return undefined;
    const file = path.join(base, ...segments);
    return file.startsWith(`${base}${path.sep}`) ? file : undefined;
  };

  const send = (req: http.IncomingMessage, res: http.ServerResponse, status: number, headers: Record<string, string>, body: Buffer): void => {
    res.writeHead(status, { ...CONSOLE_SECURITY_HEADERS, ...headers, 'content-length': String(body.length) });
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  const notFound = (req: http.IncomingMessage, res: http.ServerResponse): void =>
    send(req, res, 404, { 'content-type': 'application/json', 'cache-control': 'no-cache' }, Buffer.from('{"message":"Not Found"}'));

  const serveFile = (req: http.IncomingMessage, res: http.ServerResponse, file: string, relative: string): boolean => {
    const found = read(file);
    if (!found) return false;
    const headers = { 'content-type': contentTypeOf(file), 'cache-control': cacheControlOf(relative), etag: found.etag };
    if (req.headers['if-none-match'] === found.etag) send(req, res, 304, headers, Buffer.alloc(0));
    else send(req, res, 200, headers, found.body);
    return true;
  };

  return {
    /** Whether the console is built here. */
    built: (): boolean => existsSync(path.join(base, 'index.html')),
    /**
     * Answers a GET or HEAD of a non-API path: the file, index.html for an app route, else 404.
     * The caller has checked the method and that the path is not the API's.
     */
    serve: (req: http.IncomingMessage, res: http.ServerResponse, pathname: string): void => {
      const file = resolve(pathname);
      if (file && pathname !== '/' && serveFile(req, res, file, path.relative(base, file).split(path.sep).join('/'))) return;
      if (isAppRoute(pathname) && serveFile(req, res, path.join(base, 'index.html'), 'index.html')) return;
      if (isAppRoute(pathname)) {
        // Not built: say how to build it rather than a bare 404.
        send(req, res, 503, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-cache' }, Buffer.from('The lakeline console is not built here: run `npm run build:web` (npm run local does it).\n'));
        return;
      }
      notFound(req, res);
    },
  };
};

/** Serves a console directory. */
export type ConsoleFiles = ReturnType<typeof createConsoleFiles>;
