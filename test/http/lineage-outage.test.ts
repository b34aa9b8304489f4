// A store outage through HTTP: a stack of its own whose local DynamoDB is killed mid-run. Ingestion
// must answer 503 (which OpenLineage clients retry), never a 4xx and never a 200 for an event that
// was not stored; listing answers 503 as well.
import { readFileSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { example } from '../unit/domain/lineage/examples.ts';
import { startStackProcess, tempHome, type StackProcess } from '../helpers/local-stack-process.ts';
import { ALL_TIME, lineageApi, type LineageApi } from './lineage-api.ts';

/** The pid of the local DynamoDB child of a stack process (found through /proc: Linux only). */
const dynamoChildOf = (parentPid: number): number => {
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces, so split after ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parentPid && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('dynamo-process.cjs')) return Number(entry);
    } catch {
      // The process ended while we looked.
    }
  }
  throw new Error(`no local DynamoDB child of ${parentPid}`);
};

let stack: StackProcess;
let api: LineageApi;
let storePid: number;
/** The answers given while the store was frozen, asked concurrently (each waits out the store's timeouts). */
let duringOutage: { event: Awaited<ReturnType<LineageApi['post']>>; batch: Awaited<ReturnType<LineageApi['batch']>>; invalid: Awaited<ReturnType<LineageApi['post']>>; listing: Awaited<ReturnType<LineageApi['events']>> };

beforeAll(async () => {
  stack = await startStackProcess(tempHome('outage'));
  api = lineageApi(stack.baseUrl, stack.apiKey);
  // A first request while the store is up, so the authorizer has the key cached (it cannot read it later).
  expect((await api.post(example('marquez/event_simple.json').text)).status).toBe(200);
  // Frozen rather than killed: a killed store is restarted by the stack within a second (see the
  // supervision test), while a frozen one keeps its port open and never answers, which is the
  // outage the endpoints must turn into 503s within the gateway's time.
  storePid = dynamoChildOf(stack.child.pid as number);
  process.kill(storePid, 'SIGSTOP');
  const [event, batch, invalid, listing] = await Promise.all([
    api.post(example('marquez/event_full.json').text),
    api.batch(`[${example('marquez/event_full.json').text}, {}]`),
    api.post('{}'),
    api.events(ALL_TIME),
  ]);
  duringOutage = { event, batch, invalid, listing };
  process.kill(storePid, 'SIGCONT');
}, 120_000);

afterAll(async () => {
  try {
    process.kill(storePid, 'SIGCONT');
  } catch {
    // Already running or gone.
  }
  await stack?.stop();
});

describe('lineage endpoints while the store is down', () => {
  it('Should answer 503 to an event, so the client retries it', () => {
    // Assess
    expect(duringOutage.event).toEqual(expect.objectContaining({ status: 503, body: { error: 'A backing store is unavailable; retry later.' } }));
  });

  it('Should answer 503 to a batch, reporting every valid event as retriable and invalid ones as not', () => {
    // Assess
    expect(duringOutage.batch.status).toBe(503);
    expect(duringOutage.batch.body).toMatchObject({
      status: 'failure',
      summary: { received: 2, successful: 0, failed: 2, retriable: 1, non_retriable: 1 },
      failed_events: [
        { index: 0, reason: 'Server error: the store is unavailable; retry later', retriable: true },
        { index: 1, retriable: false },
      ],
    });
  });

  it('Should still refuse an invalid event with a 400, since no retry can fix it', () => {
    // Assess
    expect(duringOutage.invalid.status).toBe(400);
  });

  it('Should answer 503 to a listing', () => {
    // Assess
    expect(duringOutage.listing).toMatchObject({ status: 503, body: { error: 'A backing store is unavailable; retry later.' } });
  });

  it('Should store the retried event exactly once when the store answers again, next to the one stored before', async () => {
    // Arrange: a refused write may still have landed when the frozen store woke up (a timeout
    // cannot tell); the retry the 503 asks for must then be harmless, since events are keyed by id.
    const retry = await api.post(example('marquez/event_full.json').text);

    // Act
    const listing = await api.events(ALL_TIME);

    // Assess
    expect(retry.status).toBe(200);
    expect(listing.status).toBe(200);
    expect(listing.body.map((stored) => stored.run_id).sort()).toEqual(
      [JSON.parse(example('marquez/event_simple.json').text).run.runId, JSON.parse(example('marquez/event_full.json').text).run.runId].sort(),
    );
  });
});
