/**
 * The console's first page stays within its JavaScript budget (≤ 300 KB gzipped), and the editor
 * and the graph (React Flow, dagre) are not part of it: they arrive with their pages, on demand.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONSOLE_DIST } from '../../../scripts/build-console.mjs';
import { consoleBundleSizes, FIRST_PAGE_JS_BUDGET_GZIP_BYTES } from '../../../scripts/console-bundle.ts';

describe('console bundle', () => {
  it('Should keep the first page\'s JavaScript within 300 KB gzipped', () => {
    const sizes = consoleBundleSizes(CONSOLE_DIST);
    expect(sizes.firstPage.js.length).toBeGreaterThan(0);
    expect(sizes.firstPage.jsGzipBytes).toBeLessThanOrEqual(FIRST_PAGE_JS_BUDGET_GZIP_BYTES);
    // index.html loads exactly the first page's files.
    const html = readFileSync(path.join(CONSOLE_DIST, 'index.html'), 'utf8');
    for (const file of [...sizes.firstPage.js, ...sizes.firstPage.css]) expect(html).toContain(`/${file.file}`);
  });

  it('Should load the editor (CodeMirror) only with the query page', () => {
    const sizes = consoleBundleSizes(CONSOLE_DIST);
    const firstPageCode = sizes.firstPage.js.map((f) => readFileSync(path.join(CONSOLE_DIST, f.file), 'utf8')).join('\n');
    expect(firstPageCode).not.toContain('cm-editor');
    const query = sizes.lazy.find((chunk) => chunk.name.includes('query-page'));
    expect(query).toBeDefined();
    const lazyCode = (query?.files ?? []).map((f) => readFileSync(path.join(CONSOLE_DIST, f.file), 'utf8')).join('\n');
    expect(lazyCode).toContain('cm-editor');
  });

  it('Should load the graph (React Flow and dagre) only with the graph canvas', () => {
    const sizes = consoleBundleSizes(CONSOLE_DIST);
    const firstPageCode = sizes.firstPage.js.map((f) => readFileSync(path.join(CONSOLE_DIST, f.file), 'utf8')).join('\n');
    // React Flow's node class and dagre's graph option survive minification.
    expect(firstPageCode).not.toContain('react-flow__node');
    expect(firstPageCode).not.toContain('rankdir');
    const canvas = sizes.lazy.find((chunk) => chunk.name.includes('graph-canvas'));
    expect(canvas).toBeDefined();
    const lazyCode = (canvas?.files ?? []).map((f) => readFileSync(path.join(CONSOLE_DIST, f.file), 'utf8')).join('\n');
    expect(lazyCode).toContain('react-flow__node');
    expect(lazyCode).toContain('rankdir');
  });
});
