/**
 * The console's events page in Chromium: after ingesting the apples examples (and a START/FAIL
 * pair from a Spark producer) into a fresh org, every filter of the contract narrows the table to
 * exactly what `GET /api/v1/events` answers for the same parameters; paging walks every event once;
 * a click shows the raw event.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, type Browser } from '../helpers/browser.ts';
import { signIn, tableCells } from '../helpers/console-page.ts';
import { ALL_TIME, freshOrg, type LineageApi } from '../http/lineage-api.ts';

const stack = inject('stack');
const APPLES = '/work/shared/openlineage/examples/marquez/apples';
const appleFiles = () => {
  const dir = process.env.LAKELINE_SHARED ? path.join(process.env.LAKELINE_SHARED, 'openlineage/examples/marquez/apples') : APPLES;
  return readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => readFileSync(path.join(dir, f), 'utf8'));
};

const TOAST_RUN = '0190f1e2-0000-7000-8000-00000000f001';
const toastEvent = (eventType: string, eventTime: string) => ({
  eventType,
  eventTime,
  producer: 'https://github.com/OpenLineage/OpenLineage/tree/1.19.0/integration/spark',
  schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
  run: { runId: TOAST_RUN },
  job: { namespace: 'diner', name: 'burn_toast' },
  inputs: [{ namespace: 'diner', name: 'bread' }],
  outputs: [],
});

let browser: Browser;
let page: Page & { problems: string[] };
let api: LineageApi;
let token: string;

/** Event ids shown in the table, in order. */
const shownIds = async (): Promise<string[]> => page.getByTestId('events-table').locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-event-id') ?? ''));

/** Ids the API answers for the same filters. */
const apiIds = async (params: Record<string, string>): Promise<string[]> => {
  const answer = await api.events({ ...ALL_TIME, ...params });
  expect(answer.status).toBe(200);
  return answer.body.map((e) => e.id);
};

/**
 * Waits until the table shows what the API answers for these filters. The URL changes before
 * React draws the new rows, so the table read right after it can still be the previous one.
 */
const showsApiAnswer = async (params: Record<string, string>): Promise<void> => {
  const expected = await apiIds(params);
  await expect.poll(shownIds, { timeout: 10_000 }).toEqual(expected);
};

/** Opens the events page with the filters in the URL and waits for the table (or the empty state). */
const openEvents = async (search: string): Promise<void> => {
  await page.goto(`${stack.baseUrl}/events${search}`);
  await page.locator('[data-testid="events-table"], [data-testid="empty-state"], [role="alert"]').first().waitFor();
};

beforeAll(async () => {
  const org = await freshOrg('Console events');
  api = org.api;
  token = org.token;
  for (const body of appleFiles()) expect((await api.post(body)).status).toBe(200);
  expect((await api.post(JSON.stringify(toastEvent('START', '2026-02-01T08:00:00Z')))).status).toBe(200);
  expect((await api.post(JSON.stringify(toastEvent('FAIL', '2026-02-01T08:05:00Z')))).status).toBe(200);
  browser = await launchBrowser();
  page = await browser.newPage();
  await signIn(page, stack.baseUrl, token, '/events');
  await page.getByTestId('events-table').waitFor();
});

afterAll(async () => {
  await browser?.close();
});

describe('console events page', () => {
  it('Should list every event of the org, newest first, like the API', async () => {
    expect(await shownIds()).toEqual(await apiIds({ sort_by: 'EVENT_TIME', order: 'DESC' }));
    expect(await shownIds()).toHaveLength(10);
  });

  it('Should filter by job name through the form', async () => {
    // Act
    await page.getByLabel('Job contains').fill('apple_filling');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/job=apple_filling/);
    await showsApiAnswer({ job: 'apple_filling' });
    // Assess
    const cells = await tableCells(page.getByTestId('events-table'));
    expect(cells.map((row) => row[2])).toEqual(['grandmas.kitchen / prepare_apple_filling', 'grandmas.kitchen / prepare_apple_filling']);
    expect(await shownIds()).toEqual(await apiIds({ job: 'apple_filling' }));
  });

  it('Should filter by state through the checkboxes', async () => {
    // Act
    await openEvents('');
    await page.getByRole('checkbox', { name: 'FAIL' }).check();
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/states=FAIL/);
    await showsApiAnswer({ states: 'FAIL' });
    // Assess
    const cells = await tableCells(page.getByTestId('events-table'));
    expect(cells).toHaveLength(1);
    expect(cells[0]?.[1]).toBe('FAIL');
    expect(cells[0]?.[2]).toBe('diner / burn_toast');
  });

  it('Should filter by namespace, run, integrations and a custom time range, each as the API does', async () => {
    for (const [search, params] of [
      ['?namespace=KITCHEN', { namespace: 'KITCHEN' }],
      [`?run=${TOAST_RUN}`, { run: TOAST_RUN }],
      ['?integrations=spark', { integrations: 'spark' }],
      // September 2020 (the browser runs in UTC): three apple events.
      ['?range=custom&from=2020-09-01T00:00:00&to=2020-10-01T00:00:00', { start: String(Date.UTC(2020, 8, 1) / 1000), end: String(Date.UTC(2020, 9, 1) / 1000) }],
      ['?states=START,FAIL&integrations=spark&job=toast', { states: 'START,FAIL', integrations: 'spark', job: 'toast' }],
    ] as const) {
      // Act
      await openEvents(search);
      // Assess
      const expected = await apiIds(params);
      expect(expected.length, search).toBeGreaterThan(0);
      expect(expected.length, search).toBeLessThan(10);
      expect(await shownIds(), search).toEqual(expected);
    }
  });

  it('Should sort by size in either order', async () => {
    for (const order of ['ASC', 'DESC'] as const) {
      await openEvents(`?sort_by=EVENT_SIZE_IN_BYTES&order=${order}`);
      expect(await shownIds()).toEqual(await apiIds({ sort_by: 'EVENT_SIZE_IN_BYTES', order }));
    }
  });

  it('Should page through every event exactly once', async () => {
    // Act
    await openEvents('?limit=4');
    const seen: string[] = [];
    for (;;) {
      seen.push(...(await shownIds()));
      const next = page.getByRole('button', { name: 'Next →' });
      if (await next.isDisabled()) break;
      await next.click();
      // The URL changes before React draws the next page, so wait for the pager to name the
      // page's first row: it is drawn only with the rows loaded for that offset.
      await page.getByTestId('pager').getByText(`Events ${seen.length + 1}–`).waitFor();
    }
    // Assess
    expect(seen).toHaveLength(10);
    expect(new Set(seen).size).toBe(10);
    expect(seen).toEqual(await apiIds({}));
    expect(await page.getByTestId('pager').textContent()).toContain('Events 9–10');
  });

  it('Should narrow to a run by clicking its id, and show the raw event on a row click', async () => {
    // Prepare
    await openEvents('?job=burn_toast');
    // Act
    await page.getByTestId('events-table').getByRole('button', { name: TOAST_RUN.slice(0, 8) }).first().click();
    await page.waitForURL(new RegExp(`run=${TOAST_RUN}`));
    await page.getByTestId('events-table').locator('tbody tr').first().click();
    // Assess
    const detail = page.getByTestId('event-detail');
    await detail.waitFor();
    const raw = JSON.parse((await detail.getByTestId('json-view').textContent()) ?? '') as { run: { runId: string }; eventType: string; producer: string };
    expect(raw.run.runId).toBe(TOAST_RUN);
    expect(raw.producer).toContain('integration/spark');
    expect(await detail.textContent()).toContain('spark 1.19.0');
    await page.keyboard.press('Escape');
    await detail.waitFor({ state: 'detached' });
  });

  it('Should say what to do next when nothing matches, with this server\'s base URL filled in', async () => {
    // Act
    await openEvents('?job=no_such_job_anywhere');
    // Assess
    expect(await page.getByTestId('empty-state').textContent()).toContain('No events match these filters');
    await page.getByText('How to send events to lakeline').click();
    expect(await page.getByTestId('producer-setup').textContent()).toContain(`OPENLINEAGE_URL=${stack.baseUrl}`);
    expect(page.problems).toEqual([]);
  });
});
