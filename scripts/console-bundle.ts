/**
 * @module console-bundle
 * The console's bundle as a browser loads it, from Vite's manifest (`web/dist/.vite/manifest.json`):
 * the first page (index.html's entry chunk, every chunk it imports statically, and its CSS) and
 * each chunk loaded on demand, raw and gzipped. Read by `bench/console.ts` and the size budget test.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** The first page's JavaScript may weigh this much gzipped (issue 15). */
export const FIRST_PAGE_JS_BUDGET_GZIP_BYTES = 300 * 1024;

interface ManifestChunk {
  readonly file: string;
  readonly name?: string;
  readonly src?: string;
  readonly isEntry?: boolean;
  readonly isDynamicEntry?: boolean;
  readonly imports?: readonly string[];
  readonly dynamicImports?: readonly string[];
  readonly css?: readonly string[];
}

/** One file's weight. */
export interface FileSize {
  readonly file: string;
  readonly bytes: number;
  readonly gzipBytes: number;
}

/** What the first page loads, and what loads later. */
export interface BundleSizes {
  readonly firstPage: { readonly js: readonly FileSize[]; readonly css: readonly FileSize[]; readonly jsBytes: number; readonly jsGzipBytes: number };
  /** Each on-demand chunk with the chunks only it brings (not already on the first page). */
  readonly lazy: readonly { readonly name: string; readonly files: readonly FileSize[]; readonly jsBytes: number; readonly jsGzipBytes: number }[];
}

const sizeOf = (dist: string, file: string): FileSize => {
  const body = readFileSync(path.join(dist, file));
  return { file, bytes: body.length, gzipBytes: gzipSync(body, { level: 9 }).length };
};

/** Follows static imports from the given manifest keys. */
const closure = (manifest: Readonly<Record<string, ManifestChunk>>, keys: readonly string[]): Set<string> => {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const next of manifest[key]?.imports ?? []) visit(next);
  };
  keys.forEach(visit);
  return seen;
};

const total = (files: readonly FileSize[], key: 'bytes' | 'gzipBytes') => files.filter((f) => f.file.endsWith('.js')).reduce((sum, f) => sum + f[key], 0);

/** The sizes of a built console directory. */
export const consoleBundleSizes = (dist: string): BundleSizes => {
  const manifest = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const entries = Object.keys(manifest).filter((k) => manifest[k]?.isEntry);
  const first = closure(manifest, entries);
  const chunk = (key: string) => manifest[key] as ManifestChunk;
  const js = [...first].map((k) => sizeOf(dist, chunk(k).file));
  const css = [...new Set([...first].flatMap((k) => chunk(k).css ?? []))].map((f) => sizeOf(dist, f));
  const lazyKeys = [...new Set([...first].flatMap((k) => chunk(k).dynamicImports ?? []))];
  const lazy = lazyKeys.map((key) => {
    const files = [...closure(manifest, [key])].filter((k) => !first.has(k)).map((k) => sizeOf(dist, chunk(k).file));
    return { name: chunk(key).name ?? key, files, jsBytes: total(files, 'bytes'), jsGzipBytes: total(files, 'gzipBytes') };
  });
  return { firstPage: { js, css, jsBytes: total(js, 'bytes'), jsGzipBytes: total(js, 'gzipBytes') }, lazy };
};
