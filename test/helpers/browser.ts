/**
 * @module browser
 * Debian's Chromium (installed by `scripts/setup.mjs`) driven by playwright-core, which downloads
 * no browser of its own. Each launch gets a fresh profile directory and the flags that keep
 * Chromium off the network (no component updates, sync or background requests). Pages record
 * their script errors and Content-Security-Policy violations, so a suite can require none.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Where Debian's package puts Chromium (scripts/setup.mjs `CHROMIUM_PATH`). */
export const CHROMIUM = '/usr/bin/chromium';

/** Flags that keep a headless Chromium quiet and off the network. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const;

/** A browser with one context (a fresh profile); `close` removes the profile too. */
export interface Browser {
  readonly context: BrowserContext;
  /** A new page that records its problems in `problems`. */
  newPage(): Promise<Page & { problems: string[] }>;
  close(): Promise<void>;
}

/** Launches Chromium with a fresh `--user-data-dir`. */
export const launchBrowser = async (options: { viewport?: { width: number; height: number } } = {}): Promise<Browser> => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run \`node scripts/setup.mjs\` as root (it installs Debian's chromium package)`);
  const profile = mkdtempSync(path.join(tmpdir(), 'lakeline-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_ARGS],
    viewport: options.viewport ?? { width: 1400, height: 900 },
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  return {
    context,
    newPage: async () => {
      const page = Object.assign(await context.newPage(), { problems: [] as string[] });
      page.on('pageerror', (error) => page.problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error' && /Content.Security.Policy|Refused to/i.test(message.text())) page.problems.push(`CSP: ${message.text()}`);
      });
      return page;
    },
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
};
