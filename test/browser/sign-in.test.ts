/**
 * The console's sign-in in a real browser (Debian's Chromium) against the shared local stack:
 * a wrong key shows the API's 401 words; a right key signs in, is held in sessionStorage only
 * (never localStorage or the URL) and survives a reload; sign-out forgets it; a lakeline session
 * cookie signs in by itself, may read events, is told where it needs a key, and is left on sign-out.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createSessionToken } from '#domain/core/session';
import { sessionSecretFor } from '#local/home';
import { launchBrowser, type Browser } from '../helpers/browser.ts';
import { browserStorage, signIn } from '../helpers/console-page.ts';
import { freshOrg, type LineageApi } from '../http/lineage-api.ts';

const stack = inject('stack');
let browser: Browser;
let org: { orgId: string; token: string; api: LineageApi };

beforeAll(async () => {
  browser = await launchBrowser();
  org = await freshOrg('Console sign-in');
  const event = {
    eventType: 'COMPLETE',
    eventTime: '2026-01-05T10:00:00Z',
    producer: 'https://github.com/OpenLineage/OpenLineage/tree/1.19.0/integration/airflow',
    schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
    run: { runId: '0190f1e2-0000-7000-8000-000000000001' },
    job: { namespace: 'console', name: 'signed_in_job' },
    inputs: [],
    outputs: [],
  };
  expect((await org.api.post(JSON.stringify(event))).status).toBe(200);
});

afterAll(async () => {
  await browser?.close();
});

describe('console sign-in with an API key', () => {
  it('Should show the API\'s own 401 words for a wrong key and stay signed out', async () => {
    // Prepare
    const wrongKey = `${org.token.slice(0, -4)}0000`;
    const direct = await fetch(`${stack.baseUrl}/api/v1/events?start=0&end=1&limit=1`, { headers: { authorization: `Bearer ${wrongKey}` } });
    const words = ((await direct.json()) as { error: string }).error;
    const page = await browser.newPage();
    // Act
    await page.goto(`${stack.baseUrl}/events`);
    await page.getByLabel('API key', { exact: true }).fill(wrongKey);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    // Assess
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(direct.status).toBe(401);
    expect(await alert.textContent()).toContain('HTTP 401');
    expect(await page.getByTestId('api-error').textContent()).toBe(words);
    expect(words).toBe('Unauthorized');
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    expect(await browserStorage(page)).toEqual({ session: [], local: 0, cookies: '' });
    expect(page.problems).toEqual([]);
    await page.close();
  });

  it('Should sign in, keep the key for the browser session only, survive a reload and forget the key on sign-out', async () => {
    // Prepare
    const page = await browser.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    // Act
    await signIn(page, stack.baseUrl, org.token, '/events');
    await page.getByTestId('events-table').waitFor();
    // Assess: back where the visitor was going, showing the org's own event.
    expect(new URL(page.url()).pathname).toBe('/events');
    expect(await page.getByTestId('events-table').textContent()).toContain('signed_in_job');
    expect(await page.getByTestId('whoami').textContent()).toContain(org.token.slice(0, 7));
    expect(await page.getByTestId('whoami').textContent()).not.toContain(org.token);
    expect(await browserStorage(page)).toEqual({ session: [org.token], local: 0, cookies: '' });
    expect(requested.filter((url) => url.includes(org.token) || url.includes(org.token.slice(20)))).toEqual([]);

    // Act: a reload keeps the session's key.
    await page.reload();
    await page.getByTestId('events-table').waitFor();
    expect(await page.getByTestId('whoami').isVisible()).toBe(true);

    // Act: sign out.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key', { exact: true }).waitFor();
    // Assess
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    expect((await browserStorage(page)).session).not.toContain(org.token);
    await page.goto(`${stack.baseUrl}/tables`);
    await page.getByLabel('API key', { exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    expect(page.problems).toEqual([]);
    await page.close();
  });
});

describe('console sign-in with a lakeline session cookie', () => {
  it('Should sign in with the cookie by itself, read events, say which pages need a key, and leave the session on sign-out', async () => {
    // Prepare: an HttpOnly cookie, as a proxy or SSO in front of lakeline would set it.
    const cookie = createSessionToken(org.orgId, sessionSecretFor(stack.home), new Date(), 600);
    const session = await launchBrowser();
    await session.context.addCookies([{ name: 'lakeline_session', value: cookie, url: stack.baseUrl, httpOnly: true, sameSite: 'Strict' }]);
    const page = await session.newPage();
    try {
      // Act
      await page.goto(`${stack.baseUrl}/events`);
      await page.getByTestId('events-table').waitFor();
      // Assess: signed in by the cookie, nothing stored.
      expect(await page.getByTestId('whoami').textContent()).toContain('Session cookie');
      expect(await page.getByTestId('events-table').textContent()).toContain('signed_in_job');
      expect(await browserStorage(page)).toEqual({ session: [], local: 0, cookies: '' });

      // Act: the tables need a key.
      await page.getByRole('link', { name: 'Tables' }).click();
      // Assess
      await page.getByTestId('empty-state').waitFor();
      expect(await page.getByTestId('empty-state').textContent()).toContain('GET /api/v1/tables');
      expect(await page.getByTestId('empty-state').textContent()).toContain('needs an API key');

      // Act: sign out; the HttpOnly cookie stays in the browser, but the console stops using it.
      await page.getByRole('button', { name: 'Sign out' }).click();
      const resume = page.getByRole('button', { name: 'Continue with the session cookie' });
      await resume.waitFor();
      expect(new URL(page.url()).pathname).toBe('/sign-in');
      await page.goto(`${stack.baseUrl}/events`);
      await resume.waitFor();
      expect(new URL(page.url()).pathname).toBe('/sign-in');

      // Act: choose the session again.
      await resume.click();
      await page.getByTestId('events-table').waitFor();
      expect(await page.getByTestId('whoami').textContent()).toContain('Session cookie');
      expect(page.problems).toEqual([]);
    } finally {
      await session.close();
    }
  });
});
