/**
 * The console's first page stays within its JavaScript budget (≤ 300 KB gzipped), and the editor
 * is not part of it: it arrives with the query page, on demand.
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
});
