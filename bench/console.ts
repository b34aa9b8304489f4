/**
 * The console's bundle, as a browser downloads it: the first page's JavaScript and CSS (budget:
 * ≤ 300 KB of JavaScript gzipped) and each chunk loaded on demand, raw and gzipped (level 9).
 * Builds the console first when it is stale. Phase 2 adds the time to the first rendered graph of
 * 500 nodes in Chromium.
 *
 *   npx tsx bench/console.ts
 */
import { ensureConsoleBuilt } from '../scripts/build-console.mjs';
import { consoleBundleSizes, FIRST_PAGE_JS_BUDGET_GZIP_BYTES, type FileSize } from '../scripts/console-bundle.ts';
import { machine } from './bench-util.ts';

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;
const row = (f: FileSize): string => `    ${f.file.padEnd(40)} ${kb(f.bytes).padStart(10)} raw ${kb(f.gzipBytes).padStart(10)} gzip`;

const sizes = consoleBundleSizes(ensureConsoleBuilt({ quiet: true }));
console.log(`console: bundle sizes of web/dist (${machine()})`);
console.log(`  first page: JavaScript ${kb(sizes.firstPage.jsBytes)} raw, ${kb(sizes.firstPage.jsGzipBytes)} gzip (budget ${kb(FIRST_PAGE_JS_BUDGET_GZIP_BYTES)} gzip: ${sizes.firstPage.jsGzipBytes <= FIRST_PAGE_JS_BUDGET_GZIP_BYTES ? 'within' : 'OVER'})`);
for (const f of [...sizes.firstPage.js, ...sizes.firstPage.css]) console.log(row(f));
for (const chunk of sizes.lazy) {
  console.log(`  on demand, ${chunk.name}: JavaScript ${kb(chunk.jsBytes)} raw, ${kb(chunk.jsGzipBytes)} gzip`);
  for (const f of chunk.files) console.log(row(f));
}
