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

beforeAll(async () => {
  stack = await startStackProcess(tempHome('outage'));
  api = lineageApi(stack.baseUrl, stack.apiKey);
  // A first request while the store is up, so the authorizer has the key cached (it cannot read it later).
  expect((await api.post(example('marquez/event_simple.json').text)).status).toBe(200);
  process.kill(dynamoChildOf(stack.child.pid as number), 'SIGKILL');
});

afterAll(async () => {
  await stack?.stop();
});

describe('lineage endpoints while the store is down', () => {
  it('Should answer 503 to an event, so the client retries it', async () => {
    // Act
    const answer = await api.post(example('marquez/event_full.json').text);

    // Assess
    expect(answer).toEqual(expect.objectContaining({ status: 503, body: { error: 'A backing store is unavailable; retry later.' } }));
  });

  it('Should answer 503 to a batch, reporting every valid event as retriable and invalid ones as not', async () => {
    // Act
    const answer = await api.batch(`[${example('marquez/event_full.json').text}, {}]`);

    // Assess
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({
      status: 'failure',
      summary: { received: 2, successful: 0, failed: 2, retriable: 1, non_retriable: 1 },
      failed_events: [
        { index: 0, reason: 'Server error: the store is unavailable; retry later', retriable: true },
        { index: 1, retriable: false },
      ],
    });
  });

  it('Should still refuse an invalid event with a 400, since no retry can fix it', async () => {
    // Act & Assess
    expect((await api.post('{}')).status).toBe(400);
  });

  it('Should answer 503 to a listing', async () => {
    // Act & Assess
    expect(await api.events(ALL_TIME)).toMatchObject({ status: 503, body: { error: 'A backing store is unavailable; retry later.' } });
  });
});
