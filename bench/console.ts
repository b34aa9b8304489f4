/**
 * The console's bundle, as a browser downloads it: the first page's JavaScript and CSS (budget:
 * ≤ 300 KB of JavaScript gzipped) and each chunk loaded on demand, raw and gzipped (level 9).
 * Builds the console first when it is stale. Then the time to the first rendered lineage graph of
 * 504 nodes in Chromium (target ≤ 1.5 s): a local stack of its own holds 240 jobs in 10 stages of
 * 24 (each reading two datasets of its stage and writing one of the next); the time runs from
 * opening the graph's URL to every node and edge drawn by React Flow — the API's walk, the chunk,
 * dagre's layout and the render — once with a cold cache, then 5 times warm (median, max), each
 * split into the API's answer, the graph's chunk downloaded, the layout and the drawing.
 *
 *   npx tsx bench/console.ts [--sizes-only]
 */
import { rmSync } from 'node:fs';
import { ensureConsoleBuilt } from '../scripts/build-console.mjs';
import { consoleBundleSizes, FIRST_PAGE_JS_BUDGET_GZIP_BYTES, type FileSize } from '../scripts/console-bundle.ts';
import { launchBrowser } from '../test/helpers/browser.ts';
import { signIn, waitForDrawnGraph } from '../test/helpers/console-page.ts';
import { startStackProcess, tempHome } from '../test/helpers/local-stack-process.ts';
import { STAGED_NODES, stagedJobEvents, stagedMiddleJob } from '../test/helpers/staged-lineage.ts';
import { callStack, machine } from './bench-util.ts';

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

/** The User Timing measure of the page's layout (`web/src/pages/lineage/graph-layout.ts`). */
const LAYOUT_MEASURE = 'lineage-layout';

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** Where the time of one render went, in ms from opening the graph's URL. */
interface Split {
  /** The lineage API's answer received. */
  readonly api: number;
  /** The graph's chunk (React Flow and dagre) downloaded. */
  readonly chunk: number;
  /** The layout started and ended (the page's `lineage-layout` measure). */
  readonly layoutStart: number;
  readonly layoutEnd: number;
  /** Every node and edge drawn (the benchmark's clock). */
  readonly drawn: number;
}

/**
 * Reads the render's milestones from the page's Resource and User Timing entries. It runs in the
 * page: no named inner functions (tsx would wrap them in a helper the page does not have), and
 * the measure's name comes as an argument.
 */
const pageTimings = (layoutMeasure: string): Omit<Split, 'drawn'> => {
  // The page's DOM globals, which the benchmark's Node types do not declare.
  const perf = (globalThis as unknown as { performance: { getEntriesByType(type: string): { name: string; startTime: number; duration: number; responseEnd?: number }[] } }).performance;
  let api = -1;
  let chunk = -1;
  for (const r of perf.getEntriesByType('resource')) {
    if (/\/api\/v1\/lineage\?/.test(r.name)) api = Math.max(api, Math.round(r.responseEnd ?? -1));
    if (/\/assets\/graph-canvas-[^/]*\.js$/.test(r.name)) chunk = Math.max(chunk, Math.round(r.responseEnd ?? -1));
  }
  const layout = perf.getEntriesByType('measure').find((m) => m.name === layoutMeasure);
  return { api, chunk, layoutStart: Math.round(layout?.startTime ?? -1), layoutEnd: Math.round(layout ? layout.startTime + layout.duration : -1) };
};

const medianSplit = (splits: readonly Split[]): Split => ({
  api: median(splits.map((s) => s.api)),
  chunk: median(splits.map((s) => s.chunk)),
  layoutStart: median(splits.map((s) => s.layoutStart)),
  layoutEnd: median(splits.map((s) => s.layoutEnd)),
  drawn: median(splits.map((s) => s.drawn)),
});

const describe = (s: Split): string =>
  `drawn at ${s.drawn} ms (API answered at ${s.api} ms, chunk loaded at ${s.chunk} ms, layout ${s.layoutStart} → ${s.layoutEnd} ms = ${s.layoutEnd - s.layoutStart} ms)`;

if (!process.argv.includes('--sizes-only')) {
  const home = tempHome('bench-console');
  const stack = await startStackProcess(home);
  try {
    for (const event of stagedJobEvents('bench')) await callStack(stack, 'POST', '/api/v1/lineage', event);
    const nodeId = stagedMiddleJob('bench');
    const expectedNodes = STAGED_NODES;
    let graph = { status: 0, body: { graph: [] as { inEdges: unknown[] }[] } };
    // The read model follows the events asynchronously: until it holds the start node the route
    // answers 404 (an error body, no `graph`), then the graph grows to its full size.
    const nodesIn = (answer: typeof graph): number => (answer.status === 200 ? answer.body.graph.length : -1);
    for (let tries = 0; tries < 600 && nodesIn(graph) !== expectedNodes; tries += 1) {
      graph = await callStack(stack, 'GET', `/api/v1/lineage?nodeId=${encodeURIComponent(nodeId)}`);
      if (nodesIn(graph) !== expectedNodes) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (nodesIn(graph) !== expectedNodes) throw new Error(`the graph answered ${graph.status} with ${nodesIn(graph)} nodes, not ${expectedNodes}: ${JSON.stringify(graph.body).slice(0, 300)}`);
    const edges = graph.body.graph.reduce((sum, n) => sum + n.inEdges.length, 0);
    const apiTimes: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const started = Date.now();
      await callStack(stack, 'GET', `/api/v1/lineage?nodeId=${encodeURIComponent(nodeId)}`);
      apiTimes.push(Date.now() - started);
    }
    console.log(`console: first rendered lineage graph of ${expectedNodes} nodes and ${edges} edges in Chromium; the API's answer from Node: median ${median(apiTimes)} ms`);
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await signIn(page, stack.baseUrl, stack.apiKey, '/events');
      const render = async (): Promise<Split> => {
        await page.goto(`${stack.baseUrl}/events`);
        await page.getByTestId('whoami').waitFor();
        const started = Date.now();
        await page.goto(`${stack.baseUrl}/lineage?node=${encodeURIComponent(nodeId)}`);
        await waitForDrawnGraph(page, expectedNodes, edges, 60_000);
        const drawn = Date.now() - started;
        return { ...(await page.evaluate(pageTimings, LAYOUT_MEASURE)), drawn };
      };
      const cold = await render();
      const warm: Split[] = [];
      for (let i = 0; i < 5; i += 1) warm.push(await render());
      console.log(`  ${machine()}`);
      console.log(`  cold cache: ${describe(cold)}`);
      console.log(`  warm median: ${describe(medianSplit(warm))}; max drawn ${Math.max(...warm.map((w) => w.drawn))} ms (target ≤ 1500 ms)`);
      if (page.problems.length > 0) console.log(`  page problems: ${page.problems.join('; ')}`);
    } finally {
      await browser.close();
    }
  } finally {
    await stack.stop();
    rmSync(home, { recursive: true, force: true });
  }
}
