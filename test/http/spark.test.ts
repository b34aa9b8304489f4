/**
 * Managed Spark through the local gateway, on real Spark (`spark-submit` of jobs/spark against the
 * stack's SQLite catalog): request validation, plan and billing refusals, a run from submit to
 * COMPLETE whose output table reads back through the tables API and the legacy (DuckDB) endpoint
 * with the same rows DuckDB computes for the same query, a run that ends FAIL with Spark's error,
 * abort, and the lineage of it all. Spark runs cost seconds of both cores, so there are few.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freshOrg, warehouseApi } from './warehouse-api.ts';
import { SPARK_RUN_TIMEOUT_MS, sparkApi, sparkPids, waitForNoSpark } from './spark-client.ts';

const stack = inject('stack');
const api = sparkApi(stack.baseUrl, stack.apiKey);
const warehouse = warehouseApi(stack.baseUrl, stack.apiKey);
// One job for the suite's runs, unique per test run: every run of it must list as one job.
const JOB = { namespace: 'spark-it', name: `flags_${randomUUID().slice(0, 8)}` };
const OUT_NS = `spark_it_${randomUUID().replaceAll('-', '').slice(0, 8)}`;

const valid = { ...JOB, query: 'select 1 as x', output_table: `lakeline.${OUT_NS}.never` };

describe('POST /api/v2/spark/query refuses bad requests before anything runs', () => {
  it.each([
    [{ ...valid, namespace: undefined }, 'namespace: is required'],
    [{ ...valid, name: undefined }, 'name: is required'],
    [{ ...valid, query: undefined }, 'query: is required'],
    [{ ...valid, output_table: undefined }, 'output_table: is required'],
    [{ ...valid, output_table: `${OUT_NS}.t` }, 'output_table: must be catalog.namespace.table'],
    [{ ...valid, output_table: `glue.${OUT_NS}.t` }, "output_table: catalog 'glue' is not available"],
    [{ ...valid, driver_machine_type: 'spark.3.b' }, 'driver_machine_type: unknown machine type'],
    [{ ...valid, executor_machine_type: 'm5.large' }, 'executor_machine_type: unknown machine type'],
    [{ ...valid, executor_numbers: 0 }, 'executor_numbers: must be a whole number from 1 to 20'],
    [{ ...valid, executor_numbers: 21 }, 'executor_numbers: must be a whole number from 1 to 20'],
    [{ ...valid, executor_numbers: '2' }, 'executor_numbers: must be a number'],
    [{ ...valid, executors: 2 }, 'executors: is not a field of this request'],
    [{ ...valid, query: "select * from read_csv('/etc/passwd')" }, 'SQL not allowed: table function read_csv'],
    [{ ...valid, query: 'add jar /tmp/x.jar' }, 'SQL not allowed'],
    [{ ...valid, query: 'select * from tpch.no_such_table' }, 'no_such_table'],
    [{ ...valid, query: `insert into lakeline.${OUT_NS}.t select 1` }, 'SQL not allowed'],
    ['{"namespace":', 'body: must be valid JSON'],
  ])('Should answer 400 naming the field for %j', async (body, message) => {
    // Act
    const { status, body: answer } = await api.submit(body);

    // Assess
    expect(status).toBe(400);
    expect(answer.error).toContain(message);
  });

  it('Should answer 402 without a payment method and 403 above the plan', async () => {
    // Prepare
    const unpaid = await freshOrg('spark unpaid', { plan: 'pro', paymentMethod: false });
    const free = await freshOrg('spark free', { plan: 'free', paymentMethod: true });

    // Act
    const noPayment = await sparkApi(stack.baseUrl, unpaid.token).submit(valid);
    const overPlan = await sparkApi(stack.baseUrl, free.token).submit({ ...valid, executor_numbers: 3 });

    // Assess
    expect(noPayment.status).toBe(402);
    expect(noPayment.body.error).toMatch(/payment method/);
    expect(overPlan.status).toBe(403);
    expect(overPlan.body.error).toMatch(/3 executors exceed the free plan's limit of 2/);
  });
});

describe('GET /api/v1/runs/{run_id}', () => {
  it('Should answer 404 for an unknown or malformed id', async () => {
    // Act / Assess
    expect((await api.run(randomUUID())).status).toBe(404);
    expect((await api.run('not-a-run')).status).toBe(404);
    expect((await api.abort(randomUUID())).status).toBe(404);
  });
});

describe('a Spark run through the local gateway', () => {
  const query = `select l_returnflag, l_linestatus, count(*) as n, cast(sum(l_quantity) as double) as qty, cast(avg(l_discount) as double) as disc
    from lakeline.tpch.lineitem where l_shipdate <= date '1998-09-02' group by l_returnflag, l_linestatus`;
  let complete: { run_id: string };
  let failed: { run_id: string };

  beforeAll(async () => {
    // The two runs go together: Spark start-up dominates, and both cores are shared anyway.
    const [ok, bad] = await Promise.all([
      api.submit({ ...JOB, query, output_table: `lakeline.${OUT_NS}.flags` }),
      api.submit({ ...JOB, query: 'select no_such_column from tpch.nation', output_table: `lakeline.${OUT_NS}.broken` }),
    ]);
    expect(ok.status).toBe(200);
    expect(bad.status).toBe(200);
    complete = ok.body;
    failed = bad.body;
  }, SPARK_RUN_TIMEOUT_MS);

  it('Should answer the contract\'s 200: run id, the job as given, the output table, RUNNING (QUEUED while the machine\'s Spark slots are taken)', async () => {
    // Assess: other suites' runs may hold the shared stack's slots, so this run may wait its turn.
    const { status, body } = await api.run(complete.run_id);
    expect(status).toBe(200);
    expect(complete).toEqual({ run_id: expect.stringMatching(/^[0-9a-f-]{36}$/), job: JOB, output_table: `lakeline.${OUT_NS}.flags`, status: expect.stringMatching(/^(RUNNING|QUEUED)$/) });
    expect(body.engine).toBe('spark');
  });

  it('Should end COMPLETE with the rows DuckDB computes for the same query, readable through the tables API and the legacy endpoint', async () => {
    // Act
    const run = await api.waitForEnd(complete.run_id);

    // Assess: the run
    expect(run, `the run's error: ${run.error}`).toMatchObject({ state: 'COMPLETE', rows_written: 4, output_table: `lakeline.${OUT_NS}.flags`, input_tables: ['lakeline.tpch.lineitem'] });
    expect(run.compute).toMatchObject({ platform: 'local', billed_vcpus: 1, spark_conf: { 'spark.master': 'local[1]' } });
    expect(run.vcpu_seconds).toBeGreaterThan(0);
    expect(run.timings.startup_ms).toBeGreaterThan(0);
    expect(run.timings.query_ms).toBeGreaterThan(0);
    // the tables API
    const table = await warehouse.table(OUT_NS, 'flags');
    expect(table.status).toBe(200);
    expect(table.body).toMatchObject({ record_count: '4' });
    expect(((table.body as { schema: { name: string }[] }).schema).map((c) => c.name)).toEqual(['l_returnflag', 'l_linestatus', 'n', 'qty', 'disc']);
    // the same rows as DuckDB's own answer to the query
    const written = await warehouse.query({ query: `select * from lakeline.${OUT_NS}.flags order by 1, 2` });
    const duck = await warehouse.query({ query: `${query} order by 1, 2` });
    expect(written.status).toBe(200);
    expect(duck.status).toBe(200);
    const a = written.body.results?.rows ?? [];
    const b = duck.body.results?.rows ?? [];
    expect(a).toHaveLength(4);
    a.forEach((row, i) => {
      const other = b[i] as unknown[];
      expect(row.slice(0, 4)).toEqual(other.slice(0, 4));
      // Spark averages a DECIMAL(15,2) exactly to DECIMAL(19,6); DuckDB averages in DOUBLE.
      expect(Number(row[4])).toBeCloseTo(Number(other[4]), 5);
    });
  }, SPARK_RUN_TIMEOUT_MS);

  it('Should end FAIL with Spark\'s own error', async () => {
    // Act
    const run = await api.waitForEnd(failed.run_id);

    // Assess
    expect(run.state).toBe('FAIL');
    expect(run.error).toContain('UNRESOLVED_COLUMN');
    expect(run.error).toContain('no_such_column');
    expect(run.error).not.toMatch(/org_[0-9a-f]{32}/);
  }, SPARK_RUN_TIMEOUT_MS);

  it('Should record START and COMPLETE/FAIL for both runs under the one job, with the facets', async () => {
    // Prepare
    await api.waitForEnd(complete.run_id);
    await api.waitForEnd(failed.run_id);

    // Act
    const events = await warehouse.events({ job: JOB.name, order: 'ASC' });

    // Assess
    expect(new Set(events.map((e) => `${e.job_namespace}/${e.job_name}`))).toEqual(new Set([`${JOB.namespace}/${JOB.name}`]));
    const byRun = (runId: string) => events.filter((e) => e.run_id === runId).map((e) => e.run_state);
    expect(byRun(complete.run_id)).toEqual(['START', 'COMPLETE']);
    expect(byRun(failed.run_id)).toEqual(['START', 'FAIL']);
    const done = events.find((e) => e.run_id === complete.run_id && e.run_state === 'COMPLETE');
    const raw = done?.event_raw as { job: { facets: Record<string, unknown> }; run: { facets: Record<string, { name?: string }> }; outputs: { outputFacets: { outputStatistics: { rowCount: number } } }[] };
    expect(Object.keys(raw.job.facets)).toEqual(expect.arrayContaining(['sql', 'jobType']));
    expect(raw.run.facets.processing_engine?.name).toBe('spark');
    expect(raw.outputs[0]?.outputFacets.outputStatistics.rowCount).toBe(4);
    expect(done?.inputs).toHaveLength(1);
    expect(done?.outputs[0]?.name).toMatch(new RegExp(`/${OUT_NS}/flags$`));
  }, SPARK_RUN_TIMEOUT_MS);

  it('Should hide the run from another organization', async () => {
    // Prepare
    const other = await freshOrg('spark other org');

    // Act
    const seen = await sparkApi(stack.baseUrl, other.token).run(complete.run_id);
    const aborted = await sparkApi(stack.baseUrl, other.token).abort(complete.run_id);

    // Assess
    expect(seen.status).toBe(404);
    expect(aborted.status).toBe(404);
  });
});

describe('aborting a Spark run', () => {
  let runId: string;

  afterAll(async () => {
    // Never leave a Spark process behind, whatever the test did.
    for (const pid of runId ? sparkPids(runId) : []) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });

  it('Should end the run ABORT, stop its process tree, refuse a second abort, and record ABORT', async () => {
    // Prepare: a cross join of 900 million rows, far longer than the test waits
    const submitted = await api.submit({ namespace: 'spark-it', name: `abort_${randomUUID().slice(0, 8)}`, query: 'select count(*) as n from tpch.lineitem a cross join tpch.orders b', output_table: `lakeline.${OUT_NS}.never_written` });
    expect(submitted.status).toBe(200);
    runId = submitted.body.run_id;
    expect(sparkPids(runId).length).toBeGreaterThan(0);

    // Act
    const aborted = await api.abort(runId);
    const again = await api.abort(runId);

    // Assess
    expect(aborted.status).toBe(200);
    expect(aborted.body).toMatchObject({ run_id: runId, state: 'ABORT', error: 'aborted by request' });
    expect(again.status).toBe(409);
    expect(await waitForNoSpark(runId)).toBe(true);
    expect((await api.run(runId)).body.state).toBe('ABORT');
    const states = (await warehouse.events({ run: runId, order: 'ASC' })).map((e) => e.run_state);
    expect(states).toEqual(['START', 'ABORT']);
    expect((await warehouse.table(OUT_NS, 'never_written')).status).toBe(404);
  }, SPARK_RUN_TIMEOUT_MS);
});
