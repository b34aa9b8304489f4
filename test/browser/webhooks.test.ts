/**
 * The console's webhooks page in Chromium: adding a webhook shows its signing secret once (gone
 * after it is dismissed, and nowhere in the list); "Send test" delivers a signed test to a real
 * receiver; the delivery log shows it DELIVERED; a refused URL shows the API's 400 in words; delete
 * removes the row.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, type Browser } from '../helpers/browser.ts';
import { signIn } from '../helpers/console-page.ts';
import { startReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.ts';
import { freshOrg } from '../http/lineage-api.ts';

const stack = inject('stack');
let browser: Browser;
let page: Page & { problems: string[] };
let receiver: WebhookReceiver;
let secret = '';

beforeAll(async () => {
  const { token } = await freshOrg('Console webhooks');
  receiver = await startReceiver();
  browser = await launchBrowser();
  page = await browser.newPage();
  await signIn(page, stack.baseUrl, token, '/webhooks');
  await page.getByTestId('empty-state').waitFor();
});

afterAll(async () => {
  await browser?.close();
  await receiver?.close();
});

describe('console webhooks page', () => {
  it('Should add a webhook and show its secret once', async () => {
    await page.getByLabel('URL').fill(receiver.url);
    await page.getByLabel('Description').fill('on-call');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const shown = page.getByTestId('webhook-secret');
    await shown.waitFor();
    secret = (await shown.locator('pre').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    await page.getByTestId('webhooks-table').waitFor();
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await expect.poll(async () => page.getByTestId('webhook-secret').count()).toBe(0);
    expect(await page.content()).not.toContain(secret.slice('whsec_'.length));
    expect(await page.getByTestId('webhooks-table').locator('tbody tr').count()).toBe(1);
  });

  it('Should send a signed test delivery and show it DELIVERED in the log', async () => {
    await page.getByRole('button', { name: 'Send test' }).click();
    await page.getByTestId('webhook-notice').waitFor();
    const [request] = await receiver.waitFor(1);
    expect(new Webhook(secret).verify(request?.body ?? '', request?.headers ?? {})).toMatchObject({ type: 'webhook.test' });
    await page.getByTestId('webhooks-table').locator('tbody a').first().click();
    await page.waitForURL(/\/webhooks\?id=wh_/);
    await expect
      .poll(async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        return page.getByTestId('deliveries-table').locator('tbody tr td:nth-child(3)').first().textContent({ timeout: 2_000 }).catch(() => '');
      }, { timeout: 15_000 })
      .toBe('DELIVERED');
  });

  it("Should show the API's words for a refused URL, and delete a webhook", async () => {
    await page.goto(`${stack.baseUrl}/webhooks`);
    await page.getByTestId('webhooks-table').waitFor();
    await page.getByLabel('URL').fill('https://169.254.169.254/latest/meta-data/');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await expect.poll(async () => page.getByTestId('api-error').first().textContent()).toMatch(/169\.254\.169\.254 is link-local/);
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByTestId('empty-state').waitFor();
    expect(page.problems).toEqual([]);
  });
});
