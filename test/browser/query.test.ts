/**
 * The console's query page in Chromium, on the demo org of the shared stack: SQL with syntax
 * highlighting, results with their column types as the API answers them, `explain` showing the
 * router's decision and reasons, a polars script's results and a failing script's error in the
 * API's words, a pinned engine's capability error, a destination write followed as a Spark run to
 * its end (the one Spark run of the suite), and a bloom read followed to its rows.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, type Browser } from '../helpers/browser.ts';
import { fillEditor, signIn, tableCells } from '../helpers/console-page.ts';

const stack = inject('stack');
let browser: Browser;
let page: Page & { problems: string[] };

interface Answer {
  status: number;
  body: { success: boolean; error?: string; results?: { columns: string[]; column_types: string[]; rows: unknown[][] }; engine_decision?: { engine: string; reasons: string[] } };
}

const queryApi = async (body: Record<string, unknown>): Promise<Answer> => {
  const response = await fetch(`${stack.baseUrl}/api/v1/query`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Answer['body'] };
};

/** The results table's header: `name` and `type` per column. */
const resultColumns = async (): Promise<{ name: string; type: string }[]> => {
  const names = await page.getByTestId('results-table').locator('thead .column-name').allTextContents();
  const types = await page.getByTestId('results-table').locator('thead .column-type').allTextContents();
  return names.map((name, i) => ({ name, type: types[i] ?? '' }));
};

const setMode = async (mode: 'SQL' | 'polars script') => {
  await page.getByRole('radio', { name: mode }).click();
  // The editor of the other language is gone once the choice shows as made.
  await page.getByRole('radio', { name: mode, checked: true }).waitFor();
};
const run = async () => page.getByRole('button', { name: 'Run', exact: true }).click();

beforeAll(async () => {
  browser = await launchBrowser();
  page = await browser.newPage();
  await signIn(page, stack.baseUrl, stack.apiKey, '/query');
  await page.getByTestId('code-editor').waitFor();
});

afterAll(async () => {
  await browser?.close();
});

describe('console query page', () => {
  const SQL = 'SELECT n_name, n_regionkey FROM tpch.nation WHERE n_regionkey = 1 ORDER BY n_name';

  it('Should highlight SQL and show an interactive read\'s rows with their column types, as the API answers', async () => {
    // Prepare
    const expected = await queryApi({ query: SQL });
    // Act
    await fillEditor(page, SQL);
    await run();
    await page.getByTestId('results-table').waitFor();
    // Assess
    expect(expected.status).toBe(200);
    expect(await resultColumns()).toEqual(expected.body.results?.columns.map((name, i) => ({ name, type: expected.body.results?.column_types[i] })));
    expect(await tableCells(page.getByTestId('results-table'))).toEqual(expected.body.results?.rows.map((row) => row.map(String)));
    expect(await page.getByTestId('query-summary').textContent()).toContain('Done on duckdb (interactive)');
    // Highlighting: the keyword is drawn in another colour than the identifiers.
    const editor = page.getByTestId('code-editor');
    const colourOf = (el: { ownerDocument: { defaultView: unknown } }) => (el.ownerDocument.defaultView as { getComputedStyle(e: unknown): { color: string } }).getComputedStyle(el).color;
    const colour = (text: string) => editor.locator('span', { hasText: new RegExp(`^${text}$`) }).first().evaluate(colourOf);
    const plain = await editor.locator('.cm-line').first().evaluate(colourOf);
    expect(plain).toMatch(/^rgb/);
    expect(await colour('SELECT')).not.toBe(plain);
  });

  it('Should explain: the engine decision with the router\'s own reasons, running nothing', async () => {
    // Prepare
    const expected = await queryApi({ query: SQL, explain: true });
    // Act
    await page.getByRole('button', { name: 'Explain' }).click();
    await page.getByTestId('engine-decision').waitFor();
    // Assess
    expect(await page.getByTestId('decision-engine').textContent()).toBe(expected.body.engine_decision?.engine);
    expect(await page.getByTestId('decision-reasons').locator('li').allTextContents()).toEqual(expected.body.engine_decision?.reasons);
    expect(expected.body.engine_decision?.reasons.length).toBeGreaterThan(0);
    expect(await page.getByTestId('results-table').count()).toBe(0);
  });

  it('Should run a polars script and show its rows with polars dtypes', async () => {
    // Prepare
    const script = 'result = scan("region").select(pl.col("r_name")).sort("r_name")';
    const expected = await queryApi({ script, tables: ['region=tpch.region'] });
    // Act
    await setMode('polars script');
    await page.getByLabel('Tables').fill('region=tpch.region');
    await fillEditor(page, script);
    await run();
    await page.getByTestId('results-table').waitFor();
    // Assess
    expect(expected.status).toBe(200);
    expect(await resultColumns()).toEqual([{ name: 'r_name', type: expected.body.results?.column_types[0] }]);
    expect((await tableCells(page.getByTestId('results-table'))).map((row) => row[0])).toEqual(['AFRICA', 'AMERICA', 'ASIA', 'EUROPE', 'MIDDLE EAST']);
    expect(await page.getByTestId('query-summary').textContent()).toContain('polars');
  });

  it('Should show a failing script\'s error in the API\'s words', async () => {
    // Prepare
    const script = 'result = scan("nation").select(pl.col("no_such_column"))';
    const expected = await queryApi({ script, tables: ['nation=tpch.nation'] });
    // Act
    await page.getByLabel('Tables').fill('nation=tpch.nation');
    await fillEditor(page, script);
    await run();
    await page.getByRole('alert').waitFor();
    // Assess
    expect(expected.status).toBeGreaterThanOrEqual(400);
    expect(expected.body.error).toContain('no_such_column');
    expect(await page.getByRole('alert').textContent()).toContain(`HTTP ${expected.status}`);
    expect(await page.getByTestId('api-error').textContent()).toBe(expected.body.error);
  });

  it('Should show a pinned engine\'s capability error in the API\'s words', async () => {
    // Prepare
    const script = 'result = scan("nation")';
    const expected = await queryApi({ script, tables: ['nation=tpch.nation'], engine: 'duckdb' });
    // Act
    await fillEditor(page, script);
    await page.getByLabel('Engine').selectOption('duckdb');
    await run();
    await page.getByRole('alert').waitFor();
    // Assess
    expect(expected.status).toBe(400);
    expect(await page.getByTestId('api-error').textContent()).toBe(expected.body.error);
    await page.getByLabel('Engine').selectOption('auto');
    await setMode('SQL');
  });

  it('Should write to a destination as a submitted Spark run, follow it to its end and open the written table', { timeout: 240_000 }, async () => {
    // Prepare
    const table = `nations_${Date.now().toString(36)}`;
    await fillEditor(page, 'SELECT n_nationkey, n_name FROM tpch.nation');
    await page.getByLabel('Destination (optional)').fill(`console_e2e.${table}`);
    // Act
    await run();
    const follower = page.getByTestId('run');
    await follower.waitFor();
    // Assess: progress while it runs, then the write.
    expect(await page.getByTestId('query-summary').textContent()).toContain('Submitted on spark');
    expect(await page.getByRole('progressbar').count()).toBeGreaterThan(0);
    await page.getByTestId('run-written').waitFor({ timeout: 200_000 });
    expect(await page.getByTestId('run-state').textContent()).toBe('COMPLETE');
    expect(await page.getByTestId('run-written').textContent()).toContain(`Wrote 25 rows to lakeline.console_e2e.${table}`);
    await page.getByRole('link', { name: 'Open the table' }).click();
    await page.getByTestId('record-count').waitFor();
    expect(await page.getByTestId('record-count').textContent()).toBe('25');
    expect(page.problems).toEqual([]);
  });

  it.skipIf(process.env.LAKELINE_BLOOM === '0')('Should follow a bloom read to its end and then show its rows', { timeout: 240_000 }, async () => {
    // Prepare
    await page.goto(`${stack.baseUrl}/query`);
    await page.getByTestId('code-editor').waitFor();
    await fillEditor(page, 'SELECT n_regionkey, count(*) AS nations FROM tpch.nation GROUP BY n_regionkey ORDER BY n_regionkey');
    await page.getByLabel('Engine').selectOption('bloom');
    // Act
    await run();
    await page.getByTestId('run').waitFor();
    await page.getByTestId('run').getByTestId('results-table').waitFor({ timeout: 200_000 });
    // Assess
    expect(await page.getByTestId('run-state').textContent()).toBe('COMPLETE');
    // Row order is not compared: a batch read's rows come back from its results table.
    expect((await tableCells(page.getByTestId('results-table'))).sort()).toEqual([0, 1, 2, 3, 4].map((region) => [String(region), '5']));
    expect(page.problems).toEqual([]);
  });
});

