/**
 * Spark runs are bounded: a local stack runs at most `LAKELINE_SPARK_MAX_CONCURRENT` Spark JVMs at
 * once; the runs beyond wait as QUEUED (shown by the runs API and the spark endpoint's answer),
 * start oldest first as slots free, and a queued run can be aborted without ever starting a JVM.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStackProcess, tempHome, type StackProcess } from '../helpers/local-stack-process.ts';
import { SPARK_RUN_TIMEOUT_MS, sparkApi, sparkPids } from './spark-client.ts';

let stack: StackProcess;
beforeAll(async () => {
  stack = await startStackProcess(tempHome('spark-queue'), 0, { LAKELINE_SPARK_MAX_CONCURRENT: '1', LAKELINE_DEMO_DATA: '1', LAKELINE_SPARK_WARM_MAX_INPUT_BYTES: '0' });
}, 180_000);
afterAll(async () => {
  await stack?.stop();
});

describe('a local stack with one Spark slot', () => {
  it('Should run one Spark JVM at a time, queue the others, start them oldest first, and abort a queued one without starting it', async () => {
    // Prepare
    const api = sparkApi(stack.baseUrl, stack.apiKey);
    const job = (name: string) => ({ namespace: 'queue-it', name, query: 'select n_regionkey, count(*) as n from tpch.nation group by 1', output_table: `lakeline.queue_it.${name}` });

    // Act
    const first = await api.submit(job('first'));
    const second = await api.submit(job('second'));
    const third = await api.submit(job('third'));
    const thirdQueued = (await api.run(third.body.run_id)).body.state;
    const aborted = await api.abort(third.body.run_id);
    // Watch the JVMs while the two runs go through their one slot.
    let most = 0;
    const watching = setInterval(() => {
      most = Math.max(most, [first, second, third].filter((s) => sparkPids(s.body.run_id).length > 0).length);
    }, 200);
    const secondWhileFirstRuns = (await api.run(second.body.run_id)).body.state;
    const [a, b] = await Promise.all([api.waitForEnd(first.body.run_id), api.waitForEnd(second.body.run_id)]);
    clearInterval(watching);

    // Assess
    expect([first.body.status, second.body.status, third.body.status]).toEqual(['RUNNING', 'QUEUED', 'QUEUED']);
    expect(thirdQueued).toBe('QUEUED');
    expect(secondWhileFirstRuns).toMatch(/^(QUEUED|RUNNING)$/);
    expect(aborted.body).toMatchObject({ state: 'ABORT', error: 'aborted by request' });
    expect(a).toMatchObject({ state: 'COMPLETE', rows_written: 5 });
    expect(b).toMatchObject({ state: 'COMPLETE', rows_written: 5 });
    // The second started once the first ended.
    expect(Date.parse(b.ended_at ?? '')).toBeGreaterThan(Date.parse(a.ended_at ?? ''));
    expect(most).toBe(1);
    expect(sparkPids(third.body.run_id)).toEqual([]);
    expect((await api.run(third.body.run_id)).body.state).toBe('ABORT');
  }, SPARK_RUN_TIMEOUT_MS);
});
