/**
 * @module screenshots
 * `npm run screenshots`: pictures of every console page with demo data, for the README. Starts a
 * local stack of its own (fresh state under the temporary directory, TPC-H SF 0.01 loaded),
 * ingests the apples examples and a failed run into the demo org, runs a query so lakeline's own
 * lineage shows up, then drives Debian's Chromium through the pages and writes `docs/images/*.png`
 * (the lineage graph, a job's runs and a failed run among them, from the seeded demo lineage).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from '../test/helpers/browser.ts';
import { fillEditor, signIn, waitForFittedGraph } from '../test/helpers/console-page.ts';
import { startStackProcess, tempHome } from '../test/helpers/local-stack-process.ts';
import { DEMO } from '../local/demo-lineage.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = path.join(root, 'docs', 'images');
const apples = process.env.LAKELINE_APPLES_DIR ?? path.join(root, '..', 'shared', 'openlineage', 'examples', 'marquez', 'apples');
const fallbackApples = '/work/shared/openlineage/examples/marquez/apples';

const FAILED_RUN = '0193a1b2-0000-7000-8000-0000000000f1';
const failedRun = (eventType: 'START' | 'FAIL', minute: number) => ({
  eventType,
  eventTime: `2026-11-20T06:${String(minute).padStart(2, '0')}:00Z`,
  producer: 'https://github.com/OpenLineage/OpenLineage/tree/1.19.0/integration/spark',
  schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
  run: { runId: FAILED_RUN, ...(eventType === 'FAIL' ? { facets: { errorMessage: { _producer: 'https://github.com/OpenLineage/OpenLineage/tree/1.19.0/integration/spark', _schemaURL: 'https://openlineage.io/spec/facets/1-0-1/ErrorMessageRunFacet.json#/$defs/ErrorMessageRunFacet', message: 'Oven on fire', programmingLanguage: 'python' } } } : {}) },
  job: { namespace: 'grandmas.kitchen', name: 'bake_apple_pie' },
  inputs: [{ namespace: 'grandmas.kitchen', name: 'apple.filling' }],
  outputs: [{ namespace: 'grandmas.kitchen', name: 'apple.pie' }],
});

/** Earlier bakes of the same pie, for a run history with a few durations: START and COMPLETE. */
const earlierBake = (day: number, minutes: number): object[] =>
  (['START', 'COMPLETE'] as const).map((eventType, i) => ({
    ...failedRun('START', 0),
    eventType,
    eventTime: new Date(Date.UTC(2026, 10, day, 6, i * minutes)).toISOString(),
    run: { runId: `0193a1b2-0000-7000-8000-0000000000${String(day).padStart(2, '0')}` },
  }));

const home = tempHome('screenshots');
// The demo lineage seed (ADR 0044) feeds the lineage graph, job-runs and run pictures.
const stack = await startStackProcess(home, 0, { LAKELINE_DEMO_LINEAGE: '1' });
const browser = await launchBrowser({ viewport: { width: 1360, height: 860 } });
try {
  const post = (body: string) =>
    fetch(`${stack.baseUrl}/api/v1/lineage`, { method: 'POST', headers: { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' }, body });
  const dir = readdirSync(apples, { withFileTypes: true }).length ? apples : fallbackApples;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) await post(readFileSync(path.join(dir, file), 'utf8'));
  for (const [day, minutes] of [[14, 31], [15, 28], [16, 35], [17, 30], [18, 42], [19, 33]] as const) for (const event of earlierBake(day, minutes)) await post(JSON.stringify(event));
  await post(JSON.stringify(failedRun('START', 0)));
  await post(JSON.stringify(failedRun('FAIL', 7)));
  // lakeline's own lineage: a routed query records START and COMPLETE for its job.
  await fetch(`${stack.baseUrl}/api/v1/query`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'SELECT l_returnflag, count(*) AS n FROM tpch.lineitem GROUP BY 1' }),
  });

  mkdirSync(out, { recursive: true });
  const page = await browser.newPage();
  const shot = async (name: string, fullPage = false) => {
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(out, `${name}.png`), fullPage });
    console.log(`screenshots: docs/images/${name}.png`);
  };

  await page.goto(`${stack.baseUrl}/sign-in`);
  await page.getByLabel('API key', { exact: true }).waitFor();
  await shot('sign-in');

  await signIn(page, stack.baseUrl, stack.apiKey, '/events');
  await page.getByTestId('events-table').waitFor();
  await shot('events');
  await page.getByTestId('events-table').locator('tbody tr', { hasText: 'FAIL' }).first().click();
  await page.getByTestId('event-detail').waitFor();
  await shot('event-detail');
  await page.keyboard.press('Escape');

  // The lineage read model follows the seeded events asynchronously: wait until the dbt test is in the graph.
  const spark = `job:${DEMO.sparkNamespace}:${DEMO.sparkJob}`;
  const dbtTest = `job:${DEMO.dbtNamespace}:${DEMO.dbtTest}`;
  const auth = { authorization: `Bearer ${stack.apiKey}` };
  for (let tries = 0; tries < 200; tries += 1) {
    const graph = await fetch(`${stack.baseUrl}/api/v1/lineage?nodeId=${encodeURIComponent(spark)}`, { headers: auth });
    if (graph.ok && JSON.stringify(await graph.json()).includes(dbtTest)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // One job step around the dbt mart's model: the staging model, its table, the mart, the
  // failing test (red), and the mart's panel open with its tags (a whole-demo graph is too wide to read).
  const martModel = `job:${DEMO.dbtNamespace}:${DEMO.dbtModels[1]}`;
  const mart = `dataset:${DEMO.enrichedTable.namespace}:analytics.customer_orders`;
  await page.goto(`${stack.baseUrl}/lineage?node=${encodeURIComponent(martModel)}&depth=1`);
  await page.locator(`.react-flow__node[data-id="${dbtTest}"]`).waitFor();
  await page.locator(`.react-flow__node[data-id="${mart}"]`).click();
  await page.getByText('tier:gold').first().waitFor();
  // The canvas refits to its narrower width once the panel is open.
  await waitForFittedGraph(page);
  await shot('lineage-graph');
  // The task that failed two days ago and recovered on retry.
  await page.goto(`${stack.baseUrl}/jobs?namespace=${encodeURIComponent(DEMO.airflowNamespace)}&job=${encodeURIComponent(DEMO.recoveredTask)}`);
  await page.getByTestId('duration-chart').waitFor();
  await shot('job-runs');
  // The dbt test run whose assertion failed.
  const failedTest = (await (await fetch(`${stack.baseUrl}/api/v1/events?start=0&end=4102444800&states=FAIL&job=${encodeURIComponent(DEMO.dbtTest)}`, { headers: auth })).json()) as { run_id: string }[];
  await page.goto(`${stack.baseUrl}/lineage-runs/${failedTest[0]?.run_id ?? FAILED_RUN}`);
  await page.getByTestId('run-events').waitFor();
  await shot('run', true);

  // Alert destinations: a webhook to a receiver on this machine (loopback: the local profile's one
  // private destination), a signed test delivery, and its delivery log.
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  try {
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/lakeline`;
    const created = (await (await fetch(`${stack.baseUrl}/api/v1/webhooks`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ url: hook, kind: 'webhook', description: 'on-call', alertKinds: ['RUN_FAILED', 'TEST_FAILED'] }) })).json()) as { id: string };
    await fetch(`${stack.baseUrl}/api/v1/webhooks/${created.id}/test`, { method: 'POST', headers: auth });
    await page.goto(`${stack.baseUrl}/webhooks?id=${created.id}`);
    for (let tries = 0; tries < 50; tries += 1) {
      await page.getByRole('button', { name: 'Refresh' }).click();
      if ((await page.getByTestId('deliveries-table').locator('tbody tr td:nth-child(3)').first().textContent({ timeout: 2_000 }).catch(() => '')) === 'DELIVERED') break;
    }
    await shot('webhooks');
  } finally {
    receiver.close();
  }

  await page.goto(`${stack.baseUrl}/tables?namespace=tpch`);
  await page.locator('[data-namespace="tpch"]').waitFor();
  await shot('tables');
  await page.goto(`${stack.baseUrl}/tables/tpch/lineitem`);
  await page.getByTestId('schema-table').waitFor();
  await shot('table', true);

  await page.goto(`${stack.baseUrl}/query`);
  await page.getByTestId('code-editor').waitFor();
  await fillEditor(page, 'SELECT l_returnflag, l_linestatus,\n       sum(l_quantity) AS qty, avg(l_extendedprice) AS avg_price, count(*) AS orders\nFROM tpch.lineitem\nGROUP BY 1, 2\nORDER BY 1, 2');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.getByTestId('results-table').waitFor();
  await shot('query');
  await page.getByRole('button', { name: 'Explain' }).click();
  await page.getByTestId('engine-decision').waitFor();
  await shot('query-explain');
  await page.getByRole('radio', { name: 'polars script' }).click();
  await fillEditor(page, 'result = scan("nation").select(pl.col("n_population"))');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.getByRole('alert').waitFor();
  await shot('query-error');
} finally {
  await browser.close();
  await stack.stop();
  rmSync(home, { recursive: true, force: true });
}
