/**
 * Crash safety of the lineage graph's local feed: a stack killed (SIGKILL) after events were
 * acknowledged but before its consumer applied them loses none of them — the next stack on the
 * same home re-applies every event stored after the feed's watermark, without a rebuild.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { crashableStacks, tempHome } from '../helpers/local-stack-process.ts';
import { runEventJson } from '../unit/domain/lineage-graph/events.ts';
import { lineageApi } from './lineage-api.ts';
import { eventually, graphApi } from './lineage-graph-api.ts';

const home = tempHome('lineage-kill');
const { start, crash, stopAll } = crashableStacks(home, { LAKELINE_DEMO_DATA: '0' });

afterAll(stopAll);

/** Acknowledged events the crash must not lose. */
const EVENTS = 1_000;

describe('killing the local stack between the event writes and the model update', () => {
  it('Should have every acknowledged event in the graph after the next start, without a rebuild', async () => {
    const first = await start();
    const events = Array.from({ length: EVENTS }, (_, i) =>
      runEventJson({ eventType: 'COMPLETE', time: '2030-06-01T00:00:00Z', runId: randomUUID(), job: { namespace: 'crash', name: `job_${String(i).padStart(4, '0')}` }, inputs: ['crash:source'], outputs: [`crash:table_${i}`] }),
    );
    const answer = await lineageApi(first.baseUrl, first.apiKey).batch(JSON.stringify(events));
    expect(answer.body).toMatchObject({ summary: { received: EVENTS, successful: EVENTS, failed: 0 } });
    // Acknowledged, and not yet (all) in the graph: the consumer works through them in batches.
    const before = await graphApi(first.baseUrl, first.apiKey).get<{ totalCount: number }>('ListLineageJobs', { namespace: 'crash' });
    const appliedBefore = before.status === 200 ? before.body.totalCount : 0;
    expect(appliedBefore).toBeLessThan(EVENTS);
    await crash(first);

    const second = await start();
    const graph = graphApi(second.baseUrl, second.apiKey);
    const { answer: after } = await eventually(
      () => graph.get<{ totalCount: number }>('ListLineageJobs', { namespace: 'crash' }),
      (a) => a.status === 200 && a.body.totalCount === EVENTS,
      Date.now(),
      120_000,
    );
    expect(after.body.totalCount).toBe(EVENTS);
    // Listings are written before job heads within a batch: the graph follows moments later.
    const jobsReading = async () => (await graph.lineage({ nodeId: 'dataset:crash:source', depth: '1', direction: 'downstream' })).body.graph.filter((n) => n.type === 'JOB').length;
    const { answer: reading } = await eventually(jobsReading, (n) => n === EVENTS, Date.now(), 30_000);
    expect(reading).toBe(EVENTS);
  }, 300_000);
});
