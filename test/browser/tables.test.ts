/**
 * The console's tables pages in Chromium, on the demo org of the shared stack (TPC-H SF 0.01 in
 * namespace `tpch`): the namespace's tables as the API lists them; `tpch.lineitem` described with
 * its row count, schema (field ids, names, types), partitioning and snapshots exactly as
 * `GET /api/v1/tables/tpch/lineitem` gives them; its lineage one click away, at the node lakeline's
 * own query events name the table by.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { datasetIdentity } from '#domain/lineage-capture/dataset-identity';
import type { TableDescription } from '#domain/lake/describe';
import { launchBrowser, type Browser } from '../helpers/browser.ts';
import { signIn, tableCells } from '../helpers/console-page.ts';

const stack = inject('stack');
let browser: Browser;
let page: Page & { problems: string[] };

const getJson = async <T>(path: string): Promise<T> => {
  const response = await fetch(`${stack.baseUrl}${path}`, { headers: { authorization: `Bearer ${stack.apiKey}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
};

beforeAll(async () => {
  browser = await launchBrowser();
  page = await browser.newPage();
  await signIn(page, stack.baseUrl, stack.apiKey, '/tables');
});

afterAll(async () => {
  await browser?.close();
});

describe('console tables pages', () => {
  it('Should list the tpch namespace\'s tables as the API does', async () => {
    // Prepare
    const listed = await getJson<{ namespace: string; name: string }[]>('/api/v1/tables?namespace=tpch');
    // Act
    await page.getByLabel('Namespace').selectOption('tpch');
    const group = page.locator('[data-namespace="tpch"]');
    await group.waitFor();
    // Assess
    const names = await group.locator('.table-list a').allTextContents();
    expect(names).toEqual(listed.map((t) => t.name).sort());
    expect(names).toEqual(expect.arrayContaining(['customer', 'lineitem', 'nation', 'orders', 'part', 'partsupp', 'region', 'supplier']));
  });

  it('Should describe tpch.lineitem: rows, schema with field ids and types, partitioning and snapshots', async () => {
    // Prepare
    const described = await getJson<TableDescription>('/api/v1/tables/tpch/lineitem');
    // Act
    await page.locator('[data-namespace="tpch"]').getByRole('link', { name: 'lineitem', exact: true }).click();
    await page.getByTestId('schema-table').waitFor();
    // Assess
    expect(new URL(page.url()).pathname).toBe('/tables/tpch/lineitem');
    expect(await page.getByTestId('record-count').textContent()).toBe(Number(described.record_count).toLocaleString('en-US'));
    expect(await tableCells(page.getByTestId('schema-table'))).toEqual(described.schema.map((f) => [String(f.id), f.name, f.type, f.required ? 'yes' : 'no']));
    expect(described.schema.find((f) => f.name === 'l_extendedprice')).toMatchObject({ type: 'decimal(15, 2)' });
    if (described.partition_spec.length === 0) expect(await page.getByTestId('partitioning').textContent()).toBe('Unpartitioned.');
    else expect(await tableCells(page.getByTestId('partitioning'))).toHaveLength(described.partition_spec.length);
    const snapshots = await tableCells(page.getByTestId('snapshots-table'));
    expect(snapshots.map((row) => row[1])).toEqual([...described.snapshots].sort((a, b) => b.timestamp.localeCompare(a.timestamp)).map((s) => s.snapshot_id));
    expect(snapshots[0]?.[4]).toBe(Number(described.record_count).toLocaleString('en-US'));
    expect(await page.getByRole('img', { name: /Records and size over \d+ snapshots/ }).isVisible()).toBe(true);
  });

  it('Should link the table to its lineage node, named as lakeline\'s own events name it', async () => {
    // Prepare
    const described = await getJson<TableDescription>('/api/v1/tables/tpch/lineitem');
    const identity = datasetIdentity(described.location);
    const nodeId = `dataset:${identity.namespace}:${identity.name}`;
    // Act
    await page.getByTestId('lineage-link').click();
    await page.getByTestId('lineage-node').waitFor();
    // Assess
    expect(new URL(page.url()).searchParams.get('node')).toBe(nodeId);
    expect(identity.name).toMatch(/\/tpch\/lineitem$/);
    const facts = await page.getByTestId('lineage-node').locator('dd').allTextContents();
    expect(facts).toEqual([nodeId, 'dataset', identity.namespace, identity.name]);
    expect(page.problems).toEqual([]);
  });

  it('Should show the API\'s 404 words for a table that does not exist', async () => {
    // Prepare
    const direct = await fetch(`${stack.baseUrl}/api/v1/tables/tpch/no_such_table`, { headers: { authorization: `Bearer ${stack.apiKey}` } });
    const words = ((await direct.json()) as { error: string }).error;
    // Act
    await page.goto(`${stack.baseUrl}/tables/tpch/no_such_table`);
    await page.getByRole('alert').waitFor();
    // Assess
    expect(await page.getByRole('alert').textContent()).toContain(`HTTP ${direct.status}`);
    expect(await page.getByTestId('api-error').textContent()).toBe(words);
  });
});
