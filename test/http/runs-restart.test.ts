/**
 * Restart safety of local Spark runs: a stack that dies while a run is active leaves the run's
 * `spark-submit` running; the next stack on the same home re-attaches to it (or reads how it
 * ended) and the run ends COMPLETE. A run whose Spark process died with the stack ends FAIL with
 * the reason as soon as the next stack is up, and nothing of it is in its table; one killed after
 * its commit ends COMPLETE (its outcome follows the catalog). Never RUNNING forever.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { crashableStacks, tempHome } from '../helpers/local-stack-process.ts';
import { routedApi } from './routed-api.ts';
import { SPARK_RUN_TIMEOUT_MS, sparkApi, sparkPids } from './spark-client.ts';

const home = tempHome('spark-restart');
// Per-run Spark processes (the path of big jobs), whose survival is what this suite is about: the
// warm driver's jobs end with their stack (ADR 0059; test/http/spark-warm.test.ts).
const { start, crash, stopAll } = crashableStacks(home, { LAKELINE_SPARK_WARM_MAX_INPUT_BYTES: '0' });

afterAll(stopAll);

describe('restarting the local stack while Spark runs are active', () => {
  it('Should re-attach a run whose Spark process survived, and end COMPLETE', async () => {
    // Prepare
    const first = await start();
    const submitted = await sparkApi(first.baseUrl, first.apiKey).submit({
      namespace: 'restart-it',
      name: 'survivor',
      query: 'select o_orderstatus, count(*) as n from tpch.orders group by o_orderstatus',
      output_table: 'lakeline.restart_it.survivor',
    });
    expect(submitted.status).toBe(200);

    // Act
    await crash(first);
    const second = await start();
    const run = await sparkApi(second.baseUrl, second.apiKey).waitForEnd(submitted.body.run_id);

    // Assess
    expect(run).toMatchObject({ state: 'COMPLETE', rows_written: 3 });
    expect(run.vcpu_seconds).toBeGreaterThan(0);
    await second.stop();
  }, SPARK_RUN_TIMEOUT_MS);

  it('Should end FAIL, with the reason, a run whose Spark process died with the stack', async () => {
    // Prepare
    const first = await start();
    const submitted = await sparkApi(first.baseUrl, first.apiKey).submit({
      namespace: 'restart-it',
      name: 'casualty',
      query: 'select count(*) as n from tpch.lineitem a cross join tpch.orders b',
      output_table: 'lakeline.restart_it.casualty',
    });
    expect(submitted.status).toBe(200);
    const runId = submitted.body.run_id;

    // Act: the stack and the run's whole process group die together
    await crash(first);
    for (const pid of sparkPids(runId)) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // not a group leader, or already gone
      }
    }
    const second = await start();
    const { body: run } = await sparkApi(second.baseUrl, second.apiKey).run(runId);

    // Assess: ended before the restarted stack served its first request, with nothing written
    expect(run.state).toBe('FAIL');
    expect(run.error).toMatch(/the local stack stopped while this run was active, and its Spark process ended without a result/);
    expect((await routedApi(second.baseUrl, second.apiKey).table('restart_it', 'casualty')).status).toBe(404);
    await second.stop();
  }, SPARK_RUN_TIMEOUT_MS);

  it('Should end COMPLETE, never FAIL, a routed append killed with its stack right after its commit, so a retry is not needed', async () => {
    // Prepare: the table exists with 5 rows.
    const first = await start();
    const api = routedApi(first.baseUrl, first.apiKey);
    const append = { query: 'select r_regionkey, r_name from tpch.region', destination: 'restart_it.appended', write_mode: 'append' };
    const seeded = await api.query(append);
    expect((await api.waitForEnd(seeded.body.run_id as string)).state).toBe('COMPLETE');
    const submitted = await api.query(append);
    const runId = submitted.body.run_id as string;

    // Act: as soon as the table shows this run's snapshot, the stack and its Spark process die
    // together (the job is then between its commit and its result document, or just past it).
    const deadline = Date.now() + SPARK_RUN_TIMEOUT_MS;
    for (;;) {
      const table = await fetch(`${first.baseUrl}/api/v1/tables/restart_it/appended`, { headers: { authorization: `Bearer ${first.apiKey}` } });
      const snapshots = ((await table.json()) as { snapshots: { summary: Record<string, string> }[] }).snapshots;
      if (snapshots.some((s) => s.summary['lakeline.run-id'] === runId)) break;
      if (Date.now() > deadline) throw new Error('the append never committed');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await crash(first);
    for (const pid of sparkPids(runId)) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // not a group leader, or already gone
      }
    }
    const second = await start();
    const again = routedApi(second.baseUrl, second.apiKey);
    const run = await again.waitForEnd(runId);
    const table = await again.table('restart_it', 'appended');

    // Assess: COMPLETE with the rows its commit added, and those rows in the table exactly once.
    expect(run).toMatchObject({ state: 'COMPLETE', rows_written: 5 });
    expect(run.error).toBeUndefined();
    expect(table.body.record_count).toBe('10');
    await second.stop();
  }, SPARK_RUN_TIMEOUT_MS);
});
