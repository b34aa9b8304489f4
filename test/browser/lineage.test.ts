/**
 * The console's lineage pages in Chromium against the local stack, in a fresh org holding the
 * apples events (Marquez's test events), a job whose run failed and a dataset with column lineage:
 * search opens `prepare_apple_filling`'s graph, whose React Flow nodes and edges are exactly the
 * API's graph; a click on a node shows its facts in the panel; `asOf` before event 7 gives the
 * earlier orchard; the failed job stands out on the graph and its run page shows the failure and
 * its events in order; a field's column lineage is drawn from the dataset page; the API's words
 * show for a node that does not exist. In an org of its own, a 504-node graph (the console
 * benchmark's) is drawn whole, left to right, with no two nodes overlapping and every edge joining
 * its nodes' sides.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, type Browser } from '../helpers/browser.ts';
import { signIn, tableCells, waitForDrawnGraph, waitForFittedGraph } from '../helpers/console-page.ts';
import { freshOrg } from '../http/lineage-api.ts';
import { eventually, graphApi, type GraphApi, type LineageBody } from '../http/lineage-graph-api.ts';
import { runEventJson } from '../unit/domain/lineage-graph/events.ts';
import { STAGED_EDGES, STAGED_NODES, stagedJobEvents, stagedMiddleJob } from '../helpers/staged-lineage.ts';

const stack = inject('stack');
const APPLES = '/work/shared/openlineage/examples/marquez/apples';
const appleFiles = () => {
  const dir = process.env.LAKELINE_SHARED ? path.join(process.env.LAKELINE_SHARED, 'openlineage/examples/marquez/apples') : APPLES;
  return readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => readFileSync(path.join(dir, f), 'utf8'));
};

const K = 'grandmas.kitchen';
const FILLING = `job:${K}:prepare_apple_filling`;
// The second gathering (event 7, crab apples from the backyard) is the latest run of gather_apples.
const GATHER_RUN = '155dbf08-c4c5-43e6-bb3a-8095c4ba59b8';

// A job that started and failed.
const TOAST_RUN = randomUUID();
const TOAST_JOB_FACETS = {
  ownership: {
    _producer: 'https://some.producer.com/version/1.0',
    _schemaURL: 'https://openlineage.io/spec/facets/1-0-1/OwnershipJobFacet.json',
    owners: [{ name: 'team:breakfast', type: 'MAINTAINER' }],
  },
  // OpenLineage's tags facet: Marquez's `tags` of the job, shown in the panel.
  tags: {
    _producer: 'https://some.producer.com/version/1.0',
    _schemaURL: 'https://openlineage.io/spec/facets/1-0-0/TagsJobFacet.json',
    tags: [{ key: 'meal', value: 'breakfast', source: 'USER' }],
  },
};
const toast = (eventType: 'START' | 'FAIL', time: string) =>
  runEventJson({ eventType, time, runId: TOAST_RUN, job: { namespace: 'diner', name: 'burn_toast' }, inputs: ['diner:bread'], outputs: ['diner:toast'], jobFacets: TOAST_JOB_FACETS });

// A job whose output carries a schema and the columnLineage facet (the spec's food_delivery example, cut down).
// Issue 24: a job whose namespace holds `:` and a table named by its symlink in `file:/tmp/warehouse`.
const FILE_JOB = { namespace: 'file:/tmp/x', name: 'load orders' };
const FILE_RUN = randomUUID();
const FILE_FACET = { _producer: 'https://example.com', _schemaURL: 'https://openlineage.io/spec/facets/1-0-1/SymlinksDatasetFacet.json' };
const fileJob = runEventJson({
  eventType: 'COMPLETE',
  time: '2026-02-02T08:00:00Z',
  runId: FILE_RUN,
  job: FILE_JOB,
  outputs: [
    {
      namespace: 's3://warehouse',
      name: '/warehouse/default/orders',
      facets: {
        symlinks: { ...FILE_FACET, identifiers: [{ namespace: 'file:/tmp/warehouse', name: 'default.orders', type: 'TABLE' }] },
        schema: { ...FILE_FACET, fields: [{ name: 'id', type: 'BIGINT' }, { name: 'email', type: 'STRING' }] },
        // A column's tag (OpenLineage `tags` with `field`): the panel's Tags column.
        tags: { ...FILE_FACET, tags: [{ key: 'pii', value: 'true', source: 'USER', field: 'email' }] },
      },
    },
  ],
});
const SOURCE = { namespace: 'food_delivery', name: 'public.delivery_7_days' };
const direct = (field: string, subtype: string) => ({ ...SOURCE, field, transformations: [{ type: 'DIRECT', subtype, description: '', masking: false }] });
const topDeliveryTimes = runEventJson({
  eventType: 'COMPLETE',
  time: '2030-04-01T00:00:00Z',
  runId: randomUUID(),
  job: { namespace: 'food_delivery', name: 'top_delivery_times' },
  inputs: [SOURCE],
  outputs: [
    {
      namespace: 'food_delivery',
      name: 'public.top_delivery_times',
      facets: {
        schema: {
          _producer: 'https://some.producer.com/version/1.0',
          _schemaURL: 'https://openlineage.io/spec/facets/1-1-1/SchemaDatasetFacet.json',
          fields: [
            { name: 'order_id', type: 'INTEGER' },
            { name: 'order_delivery_time', type: 'INTEGER' },
          ],
        },
        columnLineage: {
          _producer: 'https://some.producer.com/version/1.0',
          _schemaURL: 'https://openlineage.io/spec/facets/1-2-0/ColumnLineageDatasetFacet.json',
          fields: {
            order_id: { inputFields: [direct('order_id', 'IDENTITY')] },
            order_delivery_time: { inputFields: [direct('order_placed_on', 'TRANSFORMATION'), direct('order_delivered_on', 'TRANSFORMATION')] },
          },
        },
      },
    },
  ],
});

let browser: Browser;
let page: Page & { problems: string[] };
let graph: GraphApi;

/** The ids of the nodes React Flow drew. */
const drawnNodes = async (): Promise<string[]> => (await page.locator('.react-flow__node').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-id') ?? ''))).sort();

/** The edges React Flow drew, as `origin->destination`. */
const drawnEdges = async (): Promise<string[]> => (await page.locator('.react-flow__edge').evaluateAll((edges) => edges.map((e) => e.getAttribute('data-id') ?? ''))).sort();

/** Node ids and `origin->destination` edges of an API graph answer. */
const apiGraph = (body: LineageBody): { nodes: string[]; edges: string[] } => ({
  nodes: body.graph.map((n) => n.id).sort(),
  edges: [...new Set(body.graph.flatMap((n) => [...n.inEdges.map((e) => `${e.origin}->${n.id}`), ...n.outEdges.map((e) => `${n.id}->${e.destination}`)]))].sort(),
});

/** Waits until the canvas shows `count` nodes with all their edges drawn. */
const waitForGraph = async (nodes: number, edges: number): Promise<void> => {
  await page.locator(`[data-testid="graph-canvas"][data-nodes="${nodes}"]`).waitFor();
  await waitForDrawnGraph(page, nodes, edges);
};

beforeAll(async () => {
  const org = await freshOrg('Console lineage');
  graph = graphApi(stack.baseUrl, org.token);
  for (const body of [...appleFiles(), JSON.stringify(toast('START', '2026-02-01T08:00:00Z')), JSON.stringify(toast('FAIL', '2026-02-01T08:05:00Z')), JSON.stringify(topDeliveryTimes), JSON.stringify(fileJob)]) {
    expect((await org.api.post(body)).status).toBe(200);
  }
  // The read model is maintained asynchronously: wait until the last events are in it.
  const caughtUp = await eventually(
    async () => [
      await graph.lineage({ nodeId: FILLING }),
      await graph.lineage({ nodeId: 'job:diner:burn_toast' }),
      await graph.columnLineage({ nodeId: 'dataset:food_delivery:public.top_delivery_times' }),
      await graph.lineage({ nodeId: `job:${FILE_JOB.namespace}:${FILE_JOB.name}` }),
    ],
    (answers) => answers.every((a) => a.status === 200) && answers[0]?.body.graph.some((n) => n.id === 'dataset:backyard:crab.apples') === true,
    Date.now(),
    30_000,
  );
  expect(caughtUp.answer.map((a) => a.status)).toEqual([200, 200, 200, 200]);
  browser = await launchBrowser();
  page = await browser.newPage();
  await signIn(page, stack.baseUrl, org.token, '/lineage');
});

afterAll(async () => {
  await browser?.close();
});

describe('console lineage graph', () => {
  it('Should find prepare_apple_filling by search and draw exactly the nodes and edges of its graph', async () => {
    // Act
    await page.getByLabel('Search jobs and datasets').fill('apple_fill');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByTestId('search-results').getByRole('link', { name: /prepare_apple_filling/ }).click();
    await page.waitForURL((url) => url.searchParams.get('node') === FILLING);
    // Assess
    const expected = apiGraph((await graph.lineage({ nodeId: FILLING })).body);
    await waitForGraph(expected.nodes.length, expected.edges.length);
    expect(await drawnNodes()).toEqual(expected.nodes);
    expect(await drawnEdges()).toEqual(expected.edges);
    // Marquez's apples graph (the current orchard: the backyard's crab apples since event 7).
    expect(await drawnNodes()).toEqual([
      'dataset:backyard:crab.apples',
      'dataset:cupboard:apple.vinegar',
      'dataset:cupboard:sugar',
      `dataset:${K}:apple.cider`,
      `dataset:${K}:apple.filling`,
      `dataset:${K}:apple.pie`,
      `dataset:${K}:apples`,
      `dataset:${K}:cinnamon`,
      `job:${K}:gather_apples`,
      `job:${K}:prepare_apple_cider`,
      FILLING,
      `job:${K}:prepare_apple_pie`,
      `job:${K}:prepare_vinegar`,
    ]);
    expect(await drawnEdges()).toContain(`dataset:cupboard:sugar->${FILLING}`);
    expect(await drawnEdges()).toContain(`job:${K}:gather_apples->dataset:${K}:apples`);
    expect(page.problems).toEqual([]);
  });

  it('Should show a clicked job node\'s latest run, inputs and outputs in the panel', async () => {
    // Act
    await page.locator(`.react-flow__node[data-id="job:${K}:gather_apples"]`).click();
    // Assess
    const panel = page.getByTestId('node-panel');
    await panel.waitFor();
    expect(await panel.getAttribute('data-node-id')).toBe(`job:${K}:gather_apples`);
    expect(await panel.getByTestId('panel-latest-run').textContent()).toBe(`COMPLETED ${GATHER_RUN}`);
    expect((await panel.getByTestId('panel-inputs').textContent())?.replace(/\s+/g, ' ')).toBe('backyard / crab.apples');
    expect((await panel.getByTestId('panel-outputs').textContent())?.replace(/\s+/g, ' ')).toBe(`${K} / apples`);
    // The canvas, narrower beside the panel, fits the whole graph again.
    await waitForFittedGraph(page);
  });

  it('Should show a clicked dataset node\'s fields and last modification in the panel', async () => {
    // Act
    await page.locator(`.react-flow__node[data-id="dataset:${K}:apple.filling"]`).click();
    // Assess
    const panel = page.getByTestId('node-panel');
    await page.locator(`[data-testid="node-panel"][data-node-id="dataset:${K}:apple.filling"]`).waitFor();
    const dataset = (await graph.get<{ lastModifiedAt: string; fields: { name: string }[] }>('GetLineageDataset', { namespace: K, dataset: 'apple.filling' })).body;
    expect(dataset.lastModifiedAt).not.toBeNull();
    expect(await panel.getByTestId('panel-last-modified').textContent()).toBe(dataset.lastModifiedAt.slice(0, 19).replace('T', ' '));
    if (dataset.fields.length > 0) expect((await tableCells(panel.getByTestId('panel-fields'))).map((row) => row[0])).toEqual(dataset.fields.map((f) => f.name));
  });

  it('Should draw the earlier orchard with asOf before event 7', async () => {
    // Act
    await page.getByLabel('As of (UTC)').fill('2020-10-01T00:00');
    await page.waitForURL((url) => url.searchParams.get('asOf') === '2020-10-01T00:00:00Z');
    // Assess
    const expected = apiGraph((await graph.lineage({ nodeId: FILLING, asOf: '2020-10-01T00:00:00Z' })).body);
    await page.locator('.react-flow__node[data-id="dataset:laurents-orchard:red.delicious"]').waitFor();
    await waitForGraph(expected.nodes.length, expected.edges.length);
    expect(await drawnNodes()).toEqual(expected.nodes);
    expect(await drawnEdges()).toEqual(expected.edges);
    expect(await drawnNodes()).not.toContain('dataset:backyard:crab.apples');
    // Before event 8 the filling had no sugar.
    expect(await drawnEdges()).not.toContain(`dataset:cupboard:sugar->${FILLING}`);
    expect(await drawnEdges()).toContain(`dataset:laurents-orchard:red.delicious->job:${K}:gather_apples`);
  });

  it('Should draw the graph the API gives for the chosen depth and direction', async () => {
    // Prepare
    const pie = `job:${K}:prepare_apple_pie`;
    await page.goto(`${stack.baseUrl}/lineage?node=${encodeURIComponent(pie)}`);
    await page.locator(`.react-flow__node[data-id="job:${K}:gather_apples"]`).waitFor();
    // Act: one job hop.
    await page.getByLabel('Depth').fill('1');
    await page.waitForURL((url) => url.searchParams.get('depth') === '1');
    // Assess
    const oneHop = apiGraph((await graph.lineage({ nodeId: pie, depth: '1' })).body);
    expect(oneHop.nodes).not.toContain(`job:${K}:gather_apples`);
    await waitForGraph(oneHop.nodes.length, oneHop.edges.length);
    expect(await drawnNodes()).toEqual(oneHop.nodes);
    expect(await drawnEdges()).toEqual(oneHop.edges);
    // Act: upstream only.
    await page.getByLabel('Direction').selectOption('upstream');
    await page.waitForURL((url) => url.searchParams.get('direction') === 'upstream');
    // Assess
    const upstream = apiGraph((await graph.lineage({ nodeId: pie, depth: '1', direction: 'upstream' })).body);
    expect(upstream.nodes).not.toContain(`dataset:${K}:apple.pie`);
    await page.locator(`.react-flow__node[data-id="dataset:${K}:apple.pie"]`).waitFor({ state: 'detached' });
    await waitForGraph(upstream.nodes.length, upstream.edges.length);
    expect(await drawnNodes()).toEqual(upstream.nodes);
    expect(await drawnEdges()).toEqual(upstream.edges);
  });

  it('Should draw one run\'s graph when a run of the job is picked', async () => {
    // Prepare: the first filling (event 2), before the sugar.
    const firstFilling = 'ab468fb4-4654-4286-9679-59d13d185b19';
    await page.goto(`${stack.baseUrl}/lineage?node=${encodeURIComponent(FILLING)}`);
    await page.locator(`.react-flow__node[data-id="${FILLING}"]`).waitFor();
    // Act
    await page.getByLabel('Run').selectOption(firstFilling);
    await page.waitForURL((url) => url.searchParams.get('runId') === firstFilling);
    // Assess
    const run = apiGraph((await graph.lineage({ nodeId: FILLING, runId: firstFilling })).body);
    expect(run.nodes).toEqual([`dataset:${K}:apple.filling`, `dataset:${K}:apples`, `dataset:${K}:cinnamon`, FILLING]);
    await page.locator('.react-flow__node[data-id="dataset:cupboard:sugar"]').waitFor({ state: 'detached' });
    await waitForGraph(run.nodes.length, run.edges.length);
    expect(await drawnNodes()).toEqual(run.nodes);
    expect(await drawnEdges()).toEqual(run.edges);
  });

  it('Should show names only in compact mode and the namespace and state in full mode', async () => {
    // Prepare
    await page.goto(`${stack.baseUrl}/lineage?node=${encodeURIComponent(FILLING)}`);
    await page.locator(`.react-flow__node[data-id="${FILLING}"]`).waitFor();
    const filling = page.locator(`.react-flow__node[data-id="${FILLING}"]`);
    expect((await filling.locator('.graph-node-detail').textContent())?.trim()).toBe(`${K} · COMPLETED`);
    // Act
    await page.getByLabel('Nodes').selectOption('compact');
    await page.waitForURL((url) => url.searchParams.get('mode') === 'compact');
    // Assess
    await page.locator('.graph-node.compact').first().waitFor();
    expect(await page.locator('.graph-node-detail').count()).toBe(0);
    expect((await filling.locator('.graph-node-label').textContent())?.trim()).toBe('job prepare_apple_filling');
  });

  it('Should say what to do when a search finds nothing', async () => {
    // Act
    await page.getByLabel('Search jobs and datasets').fill('no-such-thing');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    // Assess
    await page.getByTestId('search-empty').waitFor();
    expect(await page.getByTestId('search-empty').textContent()).toContain('No job or dataset name holds “no-such-thing”');
  });

  it('Should name a node whose namespace holds a colon as the API does, draw its graph and list its runs', async () => {
    // Act
    const jobNode = `job:${FILE_JOB.namespace}:${FILE_JOB.name}`;
    await page.goto(`${stack.baseUrl}/lineage?node=${encodeURIComponent(jobNode)}`);
    await page.locator('.react-flow__node[data-id="dataset:file:/tmp/warehouse:default.orders"]').waitFor();
    await page.locator(`select[name="runId"] option[value="${FILE_RUN}"]`).waitFor({ state: 'attached' });
    // Assess
    expect(await page.getByTestId('lineage-node').locator('dd').allTextContents()).toEqual([jobNode, 'job', FILE_JOB.namespace, FILE_JOB.name]);
    expect(await drawnNodes()).toEqual(['dataset:file:/tmp/warehouse:default.orders', jobNode]);
  });

  it('Should open a symlinked dataset by the name in the event, and show it under its table name', async () => {
    // Act: the path the Spark event wrote, not the table it is known as (ADR 0047).
    await page.goto(`${stack.baseUrl}/lineage?node=${encodeURIComponent('dataset:s3://warehouse:/warehouse/default/orders')}`);
    await page.locator('.react-flow__node[data-id="dataset:file:/tmp/warehouse:default.orders"]').waitFor();
    // Assess
    expect(await drawnNodes()).toEqual(['dataset:file:/tmp/warehouse:default.orders', `job:${FILE_JOB.namespace}:${FILE_JOB.name}`]);
    expect(await page.getByTestId('lineage-node').locator('dd').allTextContents()).toEqual([
      'dataset:file:/tmp/warehouse:default.orders',
      'dataset',
      'file:/tmp/warehouse',
      'default.orders',
      'dataset:s3://warehouse:/warehouse/default/orders',
    ]);
    // The table's node is the graph's focus.
    expect(await page.locator('.react-flow__node[data-id="dataset:file:/tmp/warehouse:default.orders"] [data-testid="graph-node"]').getAttribute('class')).toMatch(/\bfocus\b/);
    // Its panel: the columns with their tags.
    await page.locator('.react-flow__node[data-id="dataset:file:/tmp/warehouse:default.orders"]').click();
    await page.getByTestId('panel-fields').waitFor();
    expect(await page.getByTestId('panel-field-tags').allTextContents()).toEqual(['', 'pii']);
  });

  it('Should show the API\'s words for a node that does not exist', async () => {
    // Prepare
    const answer = await graph.lineage({ nodeId: `job:${K}:no_such_job` });
    expect(answer.status).toBe(404);
    // Act
    await page.goto(`${stack.baseUrl}/lineage?node=${encodeURIComponent(`job:${K}:no_such_job`)}`);
    // Assess
    await page.getByTestId('api-error').waitFor();
    expect(await page.getByTestId('api-error').textContent()).toBe(answer.body.error);
  });
});

describe('console jobs and runs', () => {
  it('Should mark the failed job on its graph, in its namespace and in its run history, and open the failed run', async () => {
    // The graph: the job node carries its latest run's state.
    await page.goto(`${stack.baseUrl}/lineage?node=${encodeURIComponent('job:diner:burn_toast')}`);
    await page.locator('.react-flow__node[data-id="job:diner:burn_toast"]').waitFor();
    expect(await page.locator('.react-flow__node[data-id="job:diner:burn_toast"] [data-testid="graph-node"]').getAttribute('data-state')).toBe('FAILED');
    await page.locator('.react-flow__node[data-id="job:diner:burn_toast"]').click();
    await page.getByTestId('panel-owners').waitFor();
    expect(await page.getByTestId('panel-owners').textContent()).toBe('Owners: team:breakfast (MAINTAINER)');
    expect(await page.getByTestId('panel-tags').textContent()).toBe('Tags: meal:breakfast');
    // The namespace's jobs.
    await page.goto(`${stack.baseUrl}/jobs?namespace=diner`);
    await page.getByTestId('jobs-table').waitFor();
    const jobs = await tableCells(page.getByTestId('jobs-table'));
    expect(jobs.map((row) => [row[0], row[2], row[4]])).toEqual([['burn_toast', 'FAILED', '5 min 0 s']]);
    // The job's runs.
    await page.getByRole('link', { name: 'burn_toast', exact: true }).click();
    await page.getByTestId('runs-table').waitFor();
    expect((await tableCells(page.getByTestId('runs-table'))).map((row) => [row[0], row[1]])).toEqual([[TOAST_RUN, 'FAILED']]);
    expect(await page.getByTestId('failed-count').textContent()).toBe('1 failed');
    expect(await page.locator(`[data-testid="duration-chart"] g[data-run-id="${TOAST_RUN}"]`).getAttribute('data-state')).toBe('FAILED');
    // The run.
    await page.getByRole('link', { name: TOAST_RUN }).click();
    await page.getByTestId('run-facts').waitFor();
    expect(await page.getByTestId('run-state').textContent()).toBe('FAILED');
    await page.getByTestId('run-events').waitFor();
    expect(await page.getByTestId('run-events').locator('li').evaluateAll((items) => items.map((i) => i.getAttribute('data-state')))).toEqual(['START', 'FAIL']);
    expect((await tableCells(page.getByTestId('run-inputs'))).map((row) => row[0])).toEqual(['diner / bread']);
    // The raw event on click.
    await page.getByTestId('run-events').locator('li').nth(1).locator('summary').click();
    const raw = JSON.parse((await page.getByTestId('run-events').getByTestId('json-view').nth(1).textContent()) ?? '{}') as { eventType: string; run: { runId: string } };
    expect([raw.eventType, raw.run.runId]).toEqual(['FAIL', TOAST_RUN]);
    expect(page.problems).toEqual([]);
  });
});

describe('console datasets and column lineage', () => {
  it('Should show a dataset\'s fields, producer and versions, and draw a field\'s column lineage', async () => {
    // Act
    await page.goto(`${stack.baseUrl}/datasets?namespace=food_delivery&name=public.top_delivery_times`);
    await page.getByTestId('fields-table').waitFor();
    // Assess: the dataset.
    expect((await tableCells(page.getByTestId('fields-table'))).map((row) => [row[0], row[1]])).toEqual([
      ['order_id', 'INTEGER'],
      ['order_delivery_time', 'INTEGER'],
    ]);
    expect(await page.getByTestId('produced-by').textContent()).toBe('top_delivery_times');
    await page.getByTestId('versions-table').waitFor();
    expect(await tableCells(page.getByTestId('versions-table'))).toHaveLength(1);
    // Act: a field's column lineage.
    await page.getByTestId('fields-table').locator('tr', { hasText: 'order_delivery_time' }).getByRole('link', { name: 'column lineage' }).click();
    // Assess: the field and the two source columns it is computed from, edges from input to output.
    const target = 'datasetField:food_delivery:public.top_delivery_times:order_delivery_time';
    const placed = 'datasetField:food_delivery:public.delivery_7_days:order_placed_on';
    const delivered = 'datasetField:food_delivery:public.delivery_7_days:order_delivered_on';
    await waitForGraph(3, 2);
    expect(await drawnNodes()).toEqual([delivered, placed, target].sort());
    expect(await drawnEdges()).toEqual([`${delivered}->${target}`, `${placed}->${target}`].sort());
    expect(page.problems).toEqual([]);
  });
});

/** A node's box in the flow's coordinates (React Flow's transform and the box's own size). */
interface DrawnBox {
  readonly id: string;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** Where each drawn node sits and how large it is, and where each drawn edge starts and ends. */
const drawnGeometry = async (on: Page): Promise<{ boxes: DrawnBox[]; edges: { id: string; start: number[]; end: number[] }[] }> => {
  const boxes = await on.locator('.react-flow__node').evaluateAll((nodes) =>
    nodes.map((n) => {
      const element = n as unknown as { style: { transform: string }; offsetWidth: number; offsetHeight: number };
      const [x = NaN, y = NaN] = (/translate\(([-\d.]+)px,\s*([-\d.]+)px\)/.exec(element.style.transform) ?? []).slice(1).map(Number);
      return { id: n.getAttribute('data-id') ?? '', x, y, width: element.offsetWidth, height: element.offsetHeight };
    }),
  );
  const edges = await on.locator('.react-flow__edge').evaluateAll((drawn) =>
    drawn.map((e) => {
      const numbers = (e.querySelector('.react-flow__edge-path')?.getAttribute('d') ?? '').match(/-?\d+(?:\.\d+)?/g)?.map(Number) ?? [];
      return { id: e.getAttribute('data-id') ?? '', start: numbers.slice(0, 2), end: numbers.slice(-2) };
    }),
  );
  return { boxes, edges };
};

/** Pairs of boxes that overlap by more than half a pixel. */
const overlapping = (boxes: readonly DrawnBox[]): string[] => {
  const found: string[] = [];
  const byX = [...boxes].sort((a, b) => a.x - b.x);
  for (let i = 0; i < byX.length; i += 1) {
    const a = byX[i]!;
    for (let j = i + 1; j < byX.length && byX[j]!.x < a.x + a.width - 0.5; j += 1) {
      const b = byX[j]!;
      if (b.y < a.y + a.height - 0.5 && a.y < b.y + b.height - 0.5) found.push(`${a.id} / ${b.id}`);
    }
  }
  return found;
};

describe('console lineage graph of 504 nodes', () => {
  let big: Page & { problems: string[] };
  let bigGraph: GraphApi;
  const NS = 'staged';

  beforeAll(async () => {
    const org = await freshOrg('Console 500 nodes');
    bigGraph = graphApi(stack.baseUrl, org.token);
    expect((await org.api.batch(JSON.stringify(stagedJobEvents(NS)))).status).toBe(200);
    // The read model follows the events asynchronously.
    const caughtUp = await eventually(() => bigGraph.lineage({ nodeId: stagedMiddleJob(NS) }), (a) => a.status === 200 && a.body.graph.length === STAGED_NODES, Date.now(), 90_000);
    expect(caughtUp.answer.body.graph).toHaveLength(STAGED_NODES);
    big = await browser.newPage();
    await signIn(big, stack.baseUrl, org.token, '/lineage');
  });

  it('Should draw every node and edge, left to right, with no two nodes overlapping and each edge joining its nodes\' sides', async () => {
    // Act
    await big.goto(`${stack.baseUrl}/lineage?node=${encodeURIComponent(stagedMiddleJob(NS))}`);
    await waitForDrawnGraph(big, STAGED_NODES, STAGED_EDGES);
    // Assess: exactly the API's graph.
    const expected = apiGraph((await bigGraph.lineage({ nodeId: stagedMiddleJob(NS) })).body);
    expect(expected.nodes).toHaveLength(STAGED_NODES);
    expect(expected.edges).toHaveLength(STAGED_EDGES);
    const { boxes, edges } = await drawnGeometry(big);
    expect(boxes.map((b) => b.id).sort()).toEqual(expected.nodes);
    expect(edges.map((e) => e.id).sort()).toEqual(expected.edges);
    // Every box placed and sized, none on another.
    expect(boxes.filter((b) => !Number.isFinite(b.x) || !Number.isFinite(b.y) || b.width < 100 || b.height < 20)).toEqual([]);
    expect(overlapping(boxes)).toEqual([]);
    // Layered left to right, each edge from its origin's right side to its destination's left side.
    const boxOf = new Map(boxes.map((b) => [b.id, b]));
    const misdrawn = edges.filter((e) => {
      const [origin, destination] = e.id.split('->').map((id) => boxOf.get(id)!);
      const [startX = NaN, startY = NaN] = e.start;
      const [endX = NaN, endY = NaN] = e.end;
      return (
        !(origin!.x + origin!.width < destination!.x) ||
        Math.abs(startX - (origin!.x + origin!.width)) > 4 ||
        Math.abs(startY - (origin!.y + origin!.height / 2)) > 1 ||
        Math.abs(endX - destination!.x) > 4 ||
        Math.abs(endY - (destination!.y + destination!.height / 2)) > 1
      );
    });
    expect(misdrawn.map((e) => `${e.id}: ${e.start.join(',')} → ${e.end.join(',')}`)).toEqual([]);
    expect(big.problems).toEqual([]);
  });
});
