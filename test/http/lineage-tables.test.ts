/**
 * The lineage lake tables through HTTP on the shared local stack (issue 29, ADR 0056): events sent
 * by real producers' shapes (Spark, Airflow, dbt) are rows of `lineage.run_events` within 60 s of
 * their 200, every column as stored; `lineage.runs` merges each run; the tables are listed and read
 * by name (the routed DuckDB path, the legacy DuckDB endpoint, polars), one org never sees
 * another's rows, and every write path refuses the namespace with a 403.
 */
import process from 'node:process';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { StoredLineageEvent } from '#domain/lineage/types';
import { lineageApi } from './lineage-api.ts';
import { airflowRun, dbtRun, sparkRun, type ProducerRun } from './lineage-producers.ts';
import { polarsApi } from './polars-api.ts';
import { routedApi, type RoutedApi } from './routed-api.ts';
import { freshOrg, type WarehouseApi } from './warehouse-api.ts';

const stack = inject('stack');
/** The freshness the issue asks for: an acknowledged event is a row within this. */
const FRESH_MS = 60_000;

interface Org {
  readonly orgId: string;
  readonly token: string;
  readonly warehouse: WarehouseApi;
  readonly routed: RoutedApi;
}

const org = async (name: string): Promise<Org> => {
  const { orgId, token, api } = await freshOrg(name);
  return { orgId, token, warehouse: api, routed: routedApi(stack.baseUrl, token) };
};

/** Rows of a DuckDB read through the routed endpoint, as objects. */
const rowsOf = async (o: Org, sql: string): Promise<Record<string, unknown>[]> => {
  const answer = await o.routed.query({ query: sql, engine: 'duckdb' });
  if (answer.status !== 200) throw new Error(`${answer.status} ${JSON.stringify(answer.body)}`);
  const { columns, rows } = answer.body.results as { columns: string[]; rows: unknown[][] };
  return rows.map((row) => Object.fromEntries(columns.map((c, i) => [c, row[i]])));
};

/**
 * The producers' events only: every query an org runs is lineage too (jobs in the namespace
 * `lakeline`), and those events are rows of its run_events like any other.
 */
const SENT = "job_namespace <> 'lakeline'";

/** Polls the count of the producers' rows in the org's run_events until it is `n`; the time it took. */
const waitForRows = async (o: Org, n: number, since: number): Promise<number> => {
  for (;;) {
    const counted = await o.routed.query({ query: `SELECT count(*) AS n FROM lineage.run_events WHERE ${SENT}`, engine: 'duckdb' });
    if (counted.status === 200 && Number(counted.body.results?.rows[0]?.[0]) === n) return Date.now() - since;
    if (Date.now() - since > FRESH_MS + 30_000) throw new Error(`run_events did not reach ${n} rows: ${JSON.stringify(counted.body)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
};

const send = async (o: Org, runs: readonly ProducerRun[]): Promise<void> => {
  const api = lineageApi(stack.baseUrl, o.token);
  for (const event of runs.flatMap((r) => r.events)) {
    const answer = await api.post(JSON.stringify(event));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  }
};

const iso = (text: unknown): string => new Date(String(text).replace(' ', 'T')).toISOString();

let a: Org;
let b: Org;
let runs: ProducerRun[];
let freshnessMs: number;

beforeAll(async () => {
  [a, b] = await Promise.all([org('Lineage tables A'), org('Lineage tables B')]);
  // Two days ago: the example queries look back from now.
  const base = new Date(Math.floor(Date.now() / 1000) * 1000 - 2 * 86_400_000);
  runs = [sparkRun(base), airflowRun(base), dbtRun(base)];
  await send(b, [sparkRun(base, 'other-org')]);
  const acknowledged = Date.now();
  await send(a, runs);
  freshnessMs = await waitForRows(a, 6, acknowledged);
  await waitForRows(b, 2, Date.now());
}, 180_000);

describe('lineage.run_events', () => {
  it('Should hold every acknowledged event within 60 s of its 200', () => {
    expect(freshnessMs).toBeLessThan(FRESH_MS);
  });

  it('Should carry every column as the events API stores it, for Spark, Airflow and dbt events', async () => {
    // Prepare
    const stored = (await a.warehouse.events({ limit: '1000' })) as StoredLineageEvent[];
    // Act
    const rows = await rowsOf(a, `SELECT * FROM lineage.run_events WHERE ${SENT} ORDER BY event_time, event_type`);
    // Assess
    expect(rows).toHaveLength(6);
    for (const row of rows) {
      const event = stored.find((e) => e.id === row.event_id) as StoredLineageEvent;
      expect(event, String(row.event_id)).toBeDefined();
      expect({
        event_type: row.event_type,
        event_time: iso(row.event_time),
        received_at: iso(row.received_at),
        event_kind: row.event_kind,
        run_id: row.run_id,
        job_namespace: row.job_namespace,
        job_name: row.job_name,
        parent_run_id: row.parent_run_id,
        parent_job_namespace: row.parent_job_namespace,
        parent_job_name: row.parent_job_name,
        producer: row.producer,
        integration: row.integration,
        integration_version: row.integration_version,
        schema_url: row.schema_url,
        event_size_bytes: Number(row.event_size_bytes),
        event: JSON.parse(String(row.event)),
      }).toEqual({
        event_type: event.run_state,
        event_time: new Date(event.event_time).toISOString(),
        received_at: new Date(event.received_at).toISOString(),
        event_kind: 'RunEvent',
        run_id: event.run_id,
        job_namespace: event.job_namespace,
        job_name: event.job_name,
        parent_run_id: event.parent_run_id,
        parent_job_namespace: event.parent_job_namespace,
        parent_job_name: event.parent_job_name,
        producer: event.produced_by,
        integration: event.integration,
        integration_version: event.integration_version,
        schema_url: event.event_raw.schemaURL,
        event_size_bytes: event.event_size_in_bytes,
        event: event.event_raw,
      });
    }
    const [spark, airflow, dbt] = runs as [ProducerRun, ProducerRun, ProducerRun];
    const byRun = (run: ProducerRun, type: string) => rows.find((r) => r.run_id === run.runId && r.event_type === type) as Record<string, unknown>;
    expect(byRun(spark, 'COMPLETE').outputs).toEqual([{ namespace: 's3://lake', name: 'warehouse/daily_orders', row_count: 1_234_567, bytes: 98_765_432, file_count: 12 }]);
    expect(byRun(spark, 'COMPLETE').inputs).toEqual([{ namespace: 'hdfs://namenode:8020', name: '/warehouse/raw/orders', row_count: null, bytes: null, file_count: null }]);
    expect(byRun(spark, 'START')).toMatchObject({ parent_run_id: spark.parent?.runId, parent_job_name: 'orders_etl', integration: 'spark' });
    expect(byRun(airflow, 'FAIL')).toMatchObject({ error_message: 'relation "orders" does not exist', parent_job_name: 'daily_orders', integration: 'airflow' });
    expect(byRun(airflow, 'START').error_message).toBeNull();
    expect(byRun(dbt, 'COMPLETE').outputs).toEqual([{ namespace: 'postgres://warehouse:5432', name: 'analytics.public.customers', row_count: 100, bytes: null, file_count: null }]);
    expect(byRun(dbt, 'COMPLETE').integration).toBe('dbt');
  });

  it('Should add nothing for a duplicate event sent again', async () => {
    // Act
    const again = await lineageApi(stack.baseUrl, a.token).post(JSON.stringify(runs[0]?.events[1]));
    await new Promise((r) => setTimeout(r, 3_000));
    const counted = await rowsOf(a, `SELECT count(*) AS n, count(DISTINCT event_id) AS ids FROM lineage.run_events WHERE ${SENT}`);
    // Assess
    expect(again.status).toBe(200);
    expect(counted).toEqual([{ n: 6, ids: 6 }]);
  });
});

describe('lineage.runs', () => {
  it('Should hold one row per run with its state, times, duration, datasets and error', async () => {
    // Act
    const rows = await rowsOf(a, `SELECT * FROM lineage.runs WHERE ${SENT} ORDER BY job_name`);
    // Assess
    expect(rows).toHaveLength(3);
    for (const run of runs) {
      const row = rows.find((r) => r.run_id === run.runId) as Record<string, unknown>;
      expect(row, run.integration).toMatchObject({
        job_namespace: run.job.namespace,
        job_name: run.job.name,
        state: run.state,
        duration_ms: run.durationMs,
        error_message: run.errorMessage,
        parent_run_id: run.parent?.runId ?? null,
        parent_job_name: run.parent?.name ?? null,
        integration: run.integration,
      });
      expect(iso(row.started_at)).toBe(run.events[0]?.eventTime);
      expect(iso(row.ended_at)).toBe(run.events[1]?.eventTime);
      expect(row.outputs).toEqual([{ namespace: run.output.namespace, name: run.output.name, row_count: run.output.rowCount, bytes: run.output.bytes, file_count: run.integration === 'spark' ? 12 : null }]);
    }
  });

  it('Should answer a DuckDB query joining run_events with runs', async () => {
    // Act
    const rows = await rowsOf(
      a,
      `SELECT r.job_name, r.state, count(*) AS events, max(e.event_time) = r.ended_at AS last_is_end
       FROM lineage.run_events e JOIN lineage.runs r ON e.run_id = r.run_id
       WHERE e.${SENT}
       GROUP BY r.job_name, r.state, r.ended_at ORDER BY r.job_name`,
    );
    // Assess
    expect(rows).toEqual(
      [...runs].sort((x, y) => (x.job.name < y.job.name ? -1 : 1)).map((run) => ({ job_name: run.job.name, state: run.state, events: 2, last_is_end: true })),
    );
  });
});

/** The example queries of docs/reference/lineage-tables.md and the README, as printed there. */
const FAILURE_RATE = `SELECT job_namespace, job_name, count(*) AS runs,
       avg(CASE WHEN state = 'FAIL' THEN 1.0 ELSE 0 END) AS failure_rate
FROM lineage.runs
WHERE ended_at >= now() - INTERVAL 30 DAY
GROUP BY ALL ORDER BY failure_rate DESC, runs DESC`;
const DURATION_TREND = `SELECT date_trunc('day', started_at) AS day, count(*) AS runs,
       median(duration_ms) / 1000 AS median_s, max(duration_ms) / 1000 AS max_s
FROM lineage.runs
WHERE job_name = 'daily_orders' AND state = 'COMPLETE'
GROUP BY ALL ORDER BY day`;
const NOT_WRITTEN = `SELECT o.namespace, o.name, max(e.event_time) AS last_written
FROM lineage.run_events e, unnest(e.outputs) AS t(o)
WHERE e.event_type = 'COMPLETE'
GROUP BY ALL
HAVING max(e.event_time) < now() - INTERVAL 7 DAY
ORDER BY last_written`;

describe('the example queries', () => {
  it('Should answer the failure rate per job, the duration trend of a job and the tables not written in N days', async () => {
    // Act
    const failure = (await rowsOf(a, FAILURE_RATE)).filter((r) => r.job_namespace !== 'lakeline');
    const trend = await rowsOf(a, DURATION_TREND.replace("'daily_orders'", "'jaffle_shop.model.jaffle_shop.customers'"));
    const stale = await rowsOf(a, NOT_WRITTEN.replace('INTERVAL 7 DAY', 'INTERVAL 1 DAY'));
    const fresh = await rowsOf(a, NOT_WRITTEN);
    // Assess
    expect(failure[0]?.job_name).toBe('daily_orders.load_orders');
    expect(failure.map((r) => [r.job_name, Number(r.failure_rate)]).sort()).toEqual([
      ['daily_orders.load_orders', 1],
      ['jaffle_shop.model.jaffle_shop.customers', 0],
      ['orders_etl.execute_insert_into_hadoop_fs_relation_command.warehouse_daily_orders', 0],
    ]);
    expect(trend.map((r) => [Number(r.runs), Number(r.median_s)])).toEqual([[1, 2.25]]);
    expect(stale.map((r) => r.name).sort()).toEqual(['analytics.public.customers', 'warehouse/daily_orders']);
    expect(fresh.filter((r) => ['analytics.public.customers', 'warehouse/daily_orders'].includes(String(r.name)))).toEqual([]);
  });
});

describe('the lineage namespace', () => {
  it('Should list run_events and runs under GET /api/v1/tables?namespace=lineage', async () => {
    // Act
    const listed = await fetch(`${stack.baseUrl}/api/v1/tables?namespace=lineage`, { headers: { authorization: `Bearer ${a.token}` } });
    // Assess
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { namespace: string; name: string }[]).map((t) => `${t.namespace}.${t.name}`).sort()).toEqual(['lineage.run_events', 'lineage.runs']);
  });

  it("Should show each org only its own rows on the routed DuckDB path, the legacy DuckDB endpoint and polars", async () => {
    // Act
    const routedA = await rowsOf(a, 'SELECT DISTINCT job_namespace FROM lineage.run_events ORDER BY 1');
    const routedB = await rowsOf(b, 'SELECT DISTINCT job_namespace FROM lineage.run_events ORDER BY 1');
    const legacyB = await b.warehouse.query({ query: 'SELECT DISTINCT job_namespace FROM lineage.run_events ORDER BY 1' });
    const qualifiedB = await b.warehouse.query({ query: 'SELECT DISTINCT job_namespace FROM lakeline.lineage.runs' });
    const polarsB = await polarsApi(stack.baseUrl, b.token)({ mode: 'script', script: 'result = scan("lineage.run_events").filter(pl.col("job_namespace") != "lakeline").select("job_namespace").unique()' });
    const polarsA = await polarsApi(stack.baseUrl, a.token)({ mode: 'script', script: 'result = scan("lineage.runs").filter(pl.col("job_namespace") != "lakeline").select("run_id")' });
    // Assess
    // Its own queries' lineage (namespace lakeline) joins each org's rows as it arrives.
    const sent = (rows: Record<string, unknown>[]) => rows.map((r) => r.job_namespace).filter((n) => n !== 'lakeline');
    expect(sent(routedA)).toEqual(['airflow://prod', 'dbt', 'spark-prod']);
    expect(sent(routedB)).toEqual(['other-org']);
    expect(legacyB.status, JSON.stringify(legacyB.body)).toBe(200);
    expect(JSON.stringify(legacyB.body)).toContain('other-org');
    expect(JSON.stringify(legacyB.body)).not.toContain('spark-prod');
    expect(qualifiedB.status).toBe(200);
    expect(JSON.stringify(qualifiedB.body)).not.toContain('spark-prod');
    expect(polarsB.status, JSON.stringify(polarsB.body)).toBe(200);
    expect(polarsB.body.results?.rows).toEqual([['other-org']]);
    expect(polarsA.body.results?.rows?.map((r) => r[0]).sort()).toEqual(runs.map((r) => r.runId).sort());
  }, 120_000);

  /** Each org's rows as one engine reads them: the producers' namespaces it sees, and how many. */
  const TENANCY_SQL = `SELECT e.job_namespace, r.state, count(*) AS n FROM lineage.run_events e JOIN lineage.runs r ON e.run_id = r.run_id WHERE e.${SENT} GROUP BY e.job_namespace, r.state`;

  it('Should show each org only its own rows on Spark', async () => {
    // Act: Spark runs batch reads into a table (a read answered inline stays on DuckDB)
    const submitted = await b.routed.query({ query: TENANCY_SQL, engine: 'spark', destination: 'mine.lineage_on_spark' });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    const ended = await b.routed.waitForEnd(submitted.body.run_id as string, 300_000);
    const written = await rowsOf(b, 'SELECT * FROM mine.lineage_on_spark');
    // Assess
    expect(ended.state, JSON.stringify(ended)).toBe('COMPLETE');
    expect(written).toEqual([{ job_namespace: 'other-org', state: 'COMPLETE', n: 2 }]);
  }, 320_000);

  it.skipIf(process.env.LAKELINE_BLOOM === '0')('Should show each org only its own rows on bloom', async () => {
    // Act
    const submitted = await b.routed.query({ query: TENANCY_SQL, engine: 'bloom' });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    const ended = await b.routed.waitForEnd(submitted.body.run_id as string, 300_000);
    // Assess
    expect(ended.state, JSON.stringify(ended)).toBe('COMPLETE');
    expect(ended.results?.rows).toEqual([['other-org', 'COMPLETE', 2]]);
  }, 320_000);

  it.each([
    ['a routed destination', { query: 'SELECT 1 AS x', engine: 'duckdb', destination: 'lineage.mine' }, /^destination: the namespace lineage holds lakeline's lineage tables, which are read-only/],
    ['CREATE TABLE AS', { query: 'CREATE TABLE lineage.mine AS SELECT 1 AS x' }, /^query: the namespace lineage holds lakeline's lineage tables/],
    ['INSERT INTO run_events', { query: "INSERT INTO lineage.run_events (event_id) VALUES ('forged')" }, /^query: the namespace lineage holds/],
    ['a Spark write', { query: 'CREATE TABLE lakeline.lineage.runs AS SELECT 1 AS x', engine: 'spark' }, /^query: the namespace lineage holds/],
  ])('Should refuse %s into lineage with a 403 naming the namespace', async (_name, body, error) => {
    // Act
    const answer = await a.routed.query(body);
    // Assess
    expect(answer.status, JSON.stringify(answer.body)).toBe(403);
    expect(answer.body.error).toMatch(error);
  });

  it('Should refuse a polars destination and a Spark output table in lineage with a 403', async () => {
    // Act
    const polars = await polarsApi(stack.baseUrl, a.token)({ mode: 'script', script: 'result = scan("lineage.runs")', destination: 'lineage.copy' });
    const spark = await fetch(`${stack.baseUrl}/api/v2/spark/query`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ namespace: 'jobs', name: 'overwrite_runs', query: 'SELECT 1 AS x', output_table: 'lakeline.lineage.runs' }),
    });
    // Assess
    expect(polars.status, JSON.stringify(polars.body)).toBe(403);
    expect(polars.body.error).toMatch(/^destination: the namespace lineage holds/);
    expect(spark.status).toBe(403);
    expect(((await spark.json()) as { error: string }).error).toMatch(/^output_table: the namespace lineage holds/);
  });
});
