/**
 * A crash during batch ingestion: the local stack and its store process killed outright (SIGKILL)
 * while batches are being written. After the next start every acknowledged event is listed
 * through the namespace-filtered pages of 30 a client walks with `offset += 30`, each page full
 * until the listing ends — even though the killed store left index entries whose items never
 * landed (removed at start-up by the store's repair, and skipped by the listing meanwhile).
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { crashableStacks, tempHome, type StackProcess } from '../helpers/local-stack-process.ts';
import { lineageApi } from './lineage-api.ts';

const home = tempHome('ingest-kill');
const { start, crash, stopAll } = crashableStacks(home, { LAKELINE_DEMO_DATA: '0' });
afterAll(stopAll);

/** Events per batch, and batches in flight at once. */
const BATCH = 250;
const WRITERS = 8;
const NAMESPACE = 'crash-pages';

const eventJson = (job: string) => ({
  eventType: 'COMPLETE',
  eventTime: '2030-06-01T00:00:00Z',
  producer: 'urn:lakeline:test',
  run: { runId: randomUUID() },
  job: { namespace: NAMESPACE, name: job },
  inputs: [],
  outputs: [],
});

/** SIGKILL to the store process and the stack at once: neither gets to finish a write. */
const killAll = async (stack: StackProcess, crashStack: (s: StackProcess) => Promise<void>): Promise<void> => {
  const store = execFileSync('pgrep', ['-P', String(stack.child.pid), '-f', 'dynamo-process'], { encoding: 'utf8' }).trim().split('\n').map(Number);
  for (const pid of store) process.kill(pid, 'SIGKILL');
  await crashStack(stack);
};

/** Events the writers sent (batches started before the crash), and those whose batch was acknowledged whole. */
interface Ingestion {
  sent: number;
  readonly acknowledged: Set<string>;
}

/**
 * Writers send batches of distinct events to `stack` until `more` further events are acknowledged;
 * then the stack and its store are killed with batches in flight.
 */
const ingestAndKill = async (stack: StackProcess, ingestion: Ingestion, more: number): Promise<void> => {
  const api = lineageApi(stack.baseUrl, stack.apiKey);
  const target = ingestion.acknowledged.size + more;
  let killed = false;
  const writer = async () => {
    while (!killed) {
      const jobs = Array.from({ length: BATCH }, () => `job_${String(ingestion.sent++).padStart(7, '0')}`);
      try {
        const answer = await api.batch(JSON.stringify(jobs.map(eventJson)));
        // A batch counts when the answer says every event of it is stored.
        if (answer.status === 200 && (answer.body as { summary: { successful: number } }).summary.successful === BATCH) jobs.forEach((job) => ingestion.acknowledged.add(job));
      } catch {
        // The connection died with the stack: that batch was not acknowledged.
      }
    }
  };
  const writers = Array.from({ length: WRITERS }, writer);
  while (ingestion.acknowledged.size < target) await new Promise((resolve) => setTimeout(resolve, 20));
  // Not right after an answer: batches are mid-write in the store.
  await new Promise((resolve) => setTimeout(resolve, 150));
  killed = true;
  await killAll(stack, crash);
  await Promise.all(writers);
};

/** What the store's start-up repair of `stack` removed (its warning), if anything. */
const repairOf = (stack: StackProcess): string | undefined => /"removed":\d+/.exec(stack.output())?.[0];

describe('killing the local stack during batch ingestion', () => {
  it('Should list every acknowledged event through filtered pages of 30, none short before the end', async () => {
    // Prepare: up to three crashes under batch ingestion, until one has left index entries without
    // their item (a kill lands between an item's entries and the item only some of the time).
    const ingestion: Ingestion = { sent: 0, acknowledged: new Set() };
    let stack = await start();
    const repairs: string[] = [];
    for (let crashes = 0; crashes < 3 && repairs.length === 0; crashes++) {
      // Act: the crash, with batches in flight; then the next start on the same home.
      await ingestAndKill(stack, ingestion, 1_500);
      stack = await start();
      const repair = repairOf(stack);
      if (repair !== undefined) repairs.push(repair);
    }
    const listed: string[] = [];
    const pageSizes: number[] = [];
    const events = lineageApi(stack.baseUrl, stack.apiKey);
    for (let offset = 0; ; offset += 30) {
      const page = await events.events({ start: '0', end: '4102444800', namespace: NAMESPACE, limit: '30', offset: String(offset) });
      expect(page.status).toBe(200);
      listed.push(...page.body.map((e) => e.job_name as string));
      pageSizes.push(page.body.length);
      if (page.body.length === 0) break;
    }

    // Assess: every acknowledged event, each once; every page full but the last one or two.
    console.info(`${ingestion.acknowledged.size} acknowledged of ${ingestion.sent} sent; ${listed.length} listed; the store's start-up repair: ${repairs.join(', ') || 'nothing removed'}`);
    expect(new Set(listed).size).toBe(listed.length);
    const listedSet = new Set(listed);
    expect([...ingestion.acknowledged].filter((job) => !listedSet.has(job))).toEqual([]);
    const firstShort = pageSizes.findIndex((size) => size < 30);
    expect(pageSizes.slice(firstShort + 1).every((size) => size === 0)).toBe(true);
    expect(firstShort).toBe(Math.floor(listed.length / 30));
  }, 240_000);
});
