/**
 * Planning a routed request against in-memory ports and the real SQL firewall: the plan carries
 * the checked request, the org, the statement as the firewall read it (dialect, own target, the
 * SQL an engine runs), every table read with its metadata and estimate, and the decision; it is
 * made from one org fetch, one catalog listing and one metadata read per table, and runs nothing.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CapabilityError, UnauthorizedError, ValidationError } from '#domain/errors';
import { createOrg } from '#domain/orgs/manage';
import { planRoutedQuery, type PlanDeps } from '#domain/query/plan';
import { checkRoutedRequest, type RoutedQueryBody } from '#domain/routing/request';
import { ROUTING_TABLE } from '#domain/routing/table';
import { MemoryOrgStore } from '../../../helpers/memory-stores.ts';
import { MemoryLake } from '../lake/fakes.ts';

const request = (extra: Partial<RoutedQueryBody>) => checkRoutedRequest({ tables: [], engine: 'auto', write_mode: 'overwrite', explain: false, ...extra });

/** An engine the planner only asks about (configured or not) and never runs. */
const notRun = async (): Promise<never> => Promise.reject(new Error('planning runs nothing'));

let orgs: MemoryOrgStore;
let lake: MemoryLake;
let deps: PlanDeps;
let orgId: string;

beforeEach(async () => {
  orgs = new MemoryOrgStore();
  lake = new MemoryLake();
  deps = { orgs, catalog: lake, storage: lake, routingTable: ROUTING_TABLE, engines: { spark: { submit: notRun }, polars: { run: notRun, version: notRun }, bloom: { submit: notRun } }, warn: () => undefined };
  orgId = (await createOrg(orgs, { name: 'planner', plan: 'pro', paymentMethod: true })).orgId;
  lake.add(orgId, { namespace: 'sales', table: 'orders' }, [['id', 'long']]);
  lake.add(orgId, { namespace: 'sales', table: 'Items' }, [['id', 'long'], ['sku', 'string']]);
});

describe('planRoutedQuery', () => {
  it('Should plan a read: the statement, its tables with metadata and estimates, and the decision, from one lookup of each', async () => {
    // Prepare
    const lookups = [vi.spyOn(orgs, 'get'), vi.spyOn(lake, 'listTables'), vi.spyOn(lake, 'readText')];
    const checked = request({ query: 'SELECT o.id FROM sales.orders o JOIN sales.items i ON o.id = i.id' });
    // Act
    const plan = await planRoutedQuery(deps, orgId, checked);
    // Assess
    expect(plan).toMatchObject({ orgId, org: { orgId }, request: checked, job: { namespace: 'lakeline', name: expect.stringMatching(/^q_[0-9a-f]{32}$/) } });
    expect(plan.statement).toMatchObject({ dialect: 'duckdb', runSql: checked.source.kind === 'query' ? checked.source.sql : '', analysis: { kind: 'read' } });
    expect(plan.statement?.write).toBeUndefined();
    // The catalog's own spelling (Items), resolved from the statement's (items).
    expect(plan.inputs.map((t) => [t.engine.name.table, t.description.schema.length])).toEqual([['Items', 2], ['orders', 1]]);
    expect(plan.estimates).toEqual([
      { table: 'lakeline.sales.Items', bytes: 1234, source: 'snapshot' },
      { table: 'lakeline.sales.orders', bytes: 1234, source: 'snapshot' },
    ]);
    expect(plan.route.action).toEqual({ kind: 'interactive', engine: 'duckdb' });
    expect(plan.route.decision).toMatchObject({ engine: 'duckdb', estimated_input_bytes: '2468', input_tables: ['lakeline.sales.Items', 'lakeline.sales.orders'] });
    expect(lookups.map((spy) => spy.mock.calls.length)).toEqual([1, 1, 2]);
  });

  it("Should plan an own-target write with the statement's mode and its query as the SQL to run", async () => {
    // Act
    const plan = await planRoutedQuery(deps, orgId, request({ query: 'INSERT INTO out.t SELECT id FROM sales.orders' }));
    // Assess
    expect(plan.statement).toMatchObject({
      runSql: 'SELECT id FROM sales.orders',
      write: { via: 'statement', table: 'lakeline.out.t', mode: 'append', statementType: 'INSERT', name: { namespace: 'out', table: 't' }, ifNotExists: false },
    });
    expect(plan.route.action.kind).toBe('batch-write');
  });

  it('Should read the statement in the pinned engine\'s dialect', async () => {
    // Act
    const spark = await planRoutedQuery(deps, orgId, request({ query: 'SELECT id FROM sales.orders', destination: 'out.t', engine: 'spark' }));
    const bloom = await planRoutedQuery(deps, orgId, request({ query: 'SELECT id FROM sales.orders', engine: 'bloom' }));
    const polars = await planRoutedQuery(deps, orgId, request({ query: 'SELECT id FROM sales.orders', engine: 'polars' }));
    // Assess
    expect([spark.statement?.dialect, bloom.statement?.dialect, polars.statement?.dialect]).toEqual(['spark', 'trino', 'duckdb']);
    expect(polars.statement?.polarsSql).toBe('SELECT id FROM sales__orders');
    expect(polars.polarsTables.map((t) => t.alias)).toEqual(['sales__orders']);
  });

  it('Should plan a script with its registered and scanned tables, and no statement', async () => {
    // Act
    const plan = await planRoutedQuery(deps, orgId, request({ script: 'result = o.join(scan("sales.items"), on="id")', tables: ['o=sales.orders'] }));
    // Assess
    expect(plan.statement).toBeUndefined();
    expect(plan.polarsTables.map((t) => [t.alias, t.table.engine.name.table])).toEqual([['o', 'orders'], [undefined, 'Items']]);
    expect(plan.route.action).toEqual({ kind: 'interactive', engine: 'polars' });
  });

  it.each([
    ['a table function reading files', { query: "SELECT * FROM read_csv('/etc/passwd')" }, ValidationError],
    ['an unknown table', { query: 'SELECT * FROM sales.missing' }, ValidationError],
    ['an own target and a destination', { query: 'INSERT INTO out.t SELECT 1', destination: 'out.u' }, ValidationError],
    ['a write pinned to DuckDB', { query: 'SELECT * FROM sales.orders', destination: 'out.t', engine: 'duckdb' }, CapabilityError],
  ] as const)('Should refuse %s', async (_case, body, error) => {
    // Act / Assess
    await expect(planRoutedQuery(deps, orgId, request(body))).rejects.toBeInstanceOf(error);
  });

  it('Should answer 401 for an org that does not exist', async () => {
    await expect(planRoutedQuery(deps, 'no-such-org', request({ query: 'SELECT 1 AS x' }))).rejects.toBeInstanceOf(UnauthorizedError);
  });
});
