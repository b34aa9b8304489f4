/**
 * Crash safety of the lineage tables' export (issue 29, ADR 0056): the stack and its lake writer
 * are killed (SIGKILL) while the export is part-way through the acknowledged events; the next stack
 * on the same home ends with every event in `lineage.run_events` exactly once.
 */
import { randomUUID } from 'node:crypto';
import process from 'node:process';
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { crashableStacks, tempHome, type StackProcess } from '../helpers/local-stack-process.ts';
import { runEventJson } from '../unit/domain/lineage-graph/events.ts';
import { lineageApi } from './lineage-api.ts';
import { routedApi } from './routed-api.ts';

const home = tempHome('lineage-tables-kill');
const { start, crash, stopAll } = crashableStacks(home, { LAKELINE_DEMO_DATA: '0' });

afterAll(stopAll);

/** Acknowledged events (seven batch requests): two export batches of at most 5,000, so a kill lands between or inside them. */
const EVENTS = 7_000;
const BATCH = 1_000;

/** The lake writer processes of this home (the stack's children; a SIGKILL of the stack leaves them running). */
const lakeWriterPids = (): number[] =>
  readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('lakewriter') && readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`LAKELINE_HOME=${home}`);
      } catch {
        return false; // gone, or not ours to read
      }
    })
    .map(Number);

/** The count and distinct ids of the producers' rows (the stack's own queries are lineage too, namespace lakeline). */
const counts = async (stack: StackProcess): Promise<{ n: number; ids: number } | undefined> => {
  const answer = await routedApi(stack.baseUrl, stack.apiKey).query({ query: "SELECT count(*) AS n, count(DISTINCT event_id) AS ids FROM lineage.run_events WHERE job_namespace = 'crash'", engine: 'duckdb' });
  if (answer.status !== 200) return undefined;
  const [n, ids] = answer.body.results?.rows[0] as [number, number];
  return { n: Number(n), ids: Number(ids) };
};

describe('killing the stack and its lake writer during the lineage tables export', () => {
  it('Should have every acknowledged event in run_events exactly once after the next start', async () => {
    // Prepare
    const first = await start();
    const api = lineageApi(first.baseUrl, first.apiKey);
    for (let b = 0; b < EVENTS / BATCH; b++) {
      const events = Array.from({ length: BATCH }, (_, i) =>
        runEventJson({ eventType: 'COMPLETE', time: `2030-06-${String(1 + b).padStart(2, '0')}T00:00:00Z`, runId: randomUUID(), job: { namespace: 'crash', name: `job_${b}_${i}` }, inputs: ['crash:source'], outputs: [`crash:t_${b}_${i}`] }),
      );
      const answer = await api.batch(JSON.stringify(events));
      expect(answer.body).toMatchObject({ summary: { successful: BATCH, failed: 0 } });
    }
    // Act: kill once the export has begun and not finished (a lake writer running, or rows part-way)
    let seen: { n: number; ids: number } | undefined;
    for (const deadline = Date.now() + 120_000; Date.now() < deadline; ) {
      seen = await counts(first);
      if (lakeWriterPids().length > 0 && (seen?.n ?? 0) > 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const writers = lakeWriterPids();
    await crash(first);
    for (const pid of writers) process.kill(pid, 'SIGKILL');
    expect(seen?.n ?? 0).toBeLessThan(EVENTS);

    const second = await start();
    let after: { n: number; ids: number } | undefined;
    for (const deadline = Date.now() + 180_000; Date.now() < deadline; ) {
      after = await counts(second);
      if ((after?.n ?? 0) >= EVENTS) break;
      await new Promise((r) => setTimeout(r, 1_000));
    }
    // Let the catch-up's overlap (the replay margin) arrive too: it must add nothing.
    await new Promise((r) => setTimeout(r, 5_000));
    after = await counts(second);
    // Assess
    expect(after).toEqual({ n: EVENTS, ids: EVENTS });
  }, 600_000);
});
