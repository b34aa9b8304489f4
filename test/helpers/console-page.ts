/**
 * @module console-page
 * Steps the browser suites share: open the console, sign in through its form, fill the query
 * editor, read a table's cells, wait for a drawn lineage graph.
 */
import type { Locator, Page } from 'playwright-core';

/** Opens `path` on the console and signs in with `apiKey` through the sign-in form. */
export const signIn = async (page: Page, baseUrl: string, apiKey: string, path = '/events'): Promise<void> => {
  await page.goto(`${baseUrl}${path}`);
  await page.getByLabel('API key', { exact: true }).fill(apiKey);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByTestId('whoami').waitFor();
};

/** Replaces the query editor's text (the editor is CodeMirror inside an open shadow root). */
export const fillEditor = async (page: Page, text: string): Promise<void> => {
  const editor = page.getByTestId('code-editor');
  // The page re-creates its editor when the language changes (after React's commit): keys sent to
  // the editor being replaced are lost, so the text is checked and typed again if it did not land.
  const wanted = text.replace(/\n/g, '');
  for (let attempt = 1; ; attempt++) {
    await editor.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.press('Delete');
    // insertText types it as one input, without the editor's auto-indent and bracket closing.
    await page.keyboard.insertText(text);
    // CodeMirror draws each line as an element: the content's text is the lines without newlines.
    const shown = await editor.textContent();
    if (shown === wanted) return;
    if (attempt === 3) throw new Error(`the editor shows ${JSON.stringify(shown)} after typing ${JSON.stringify(text)} three times`);
  }
};

/** The text of every body cell of a table, row by row. */
export const tableCells = async (table: Locator): Promise<string[][]> =>
  table.locator('tbody tr').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => (cell.textContent ?? '').trim())));

/** What the page's origin keeps in the browser: sessionStorage values, localStorage size, script-visible cookies. */
export const browserStorage = async (page: Page): Promise<{ session: string[]; local: number; cookies: string }> =>
  // A string expression: it runs in the page, whose DOM globals the test's Node types do not declare.
  page.evaluate('({ session: Object.values(sessionStorage), local: localStorage.length, cookies: document.cookie })');

/**
 * Resolves once the page shows `nodes` React Flow nodes and `edges` edges (a function, not a string:
 * the console's CSP forbids eval, which a string predicate would need).
 */
export const waitForDrawnGraph = async (page: Page, nodes: number, edges: number, timeout = 30_000): Promise<void> => {
  await page.waitForFunction(
    ([n, e]) => {
      // It runs in the page, whose DOM globals the test's Node types do not declare.
      const doc = (globalThis as unknown as { document: { querySelectorAll(selector: string): { length: number } } }).document;
      return doc.querySelectorAll('.react-flow__node').length === n && doc.querySelectorAll('.react-flow__edge').length === e;
    },
    [nodes, edges] as const,
    { timeout },
  );
};

/**
 * Resolves once every drawn React Flow node lies inside the canvas (the graph fitted to the view,
 * after the canvas changed width, e.g. the node panel opening).
 */
export const waitForFittedGraph = async (page: Page, timeout = 10_000): Promise<void> => {
  await page.waitForFunction(
    () => {
      // It runs in the page, whose DOM globals the test's Node types do not declare.
      type Box = { left: number; right: number; top: number; bottom: number };
      type Element = { getBoundingClientRect(): Box };
      const doc = (globalThis as unknown as { document: { querySelector(selector: string): Element | null; querySelectorAll(selector: string): Element[] } }).document;
      const canvas = doc.querySelector('.react-flow')?.getBoundingClientRect();
      const nodes = [...doc.querySelectorAll('.react-flow__node')].map((n) => n.getBoundingClientRect());
      return canvas !== undefined && nodes.length > 0 && nodes.every((n) => n.left >= canvas.left && n.right <= canvas.right && n.top >= canvas.top && n.bottom <= canvas.bottom);
    },
    undefined,
    { timeout },
  );
};
