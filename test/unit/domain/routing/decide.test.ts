/**
 * The routing decision on its own: one case per row of the routing table (auto picks the row's
 * engine, mode and sandbox, with reasons naming the figures), one per capability error of a pinned
 * engine, and the request rules (query xor script, tables only with a script, reserved namespaces).
 */
import { describe, expect, it } from 'vitest';
import { CapabilityError, ValidationError } from '#domain/errors';
import { decideRoute, type RoutingContext, type RoutingInput } from '#domain/routing/decide';
import { ownTargetQuery } from '#domain/routing/own-target';
import { checkRoutedRequest, type RoutedQueryBody } from '#domain/routing/request';
import { bandOf, formatBytes, INTERACTIVE_LIMIT_BYTES, interactiveLimitOf, ROUTING_TABLE, withBloomLimit, withInteractiveLimit } from '#domain/routing/table';

const MiB = 1024 * 1024;
const context: RoutingContext = {
  table: ROUTING_TABLE,
  configured: { polars: true, spark: true, bloom: false },
  plan: { name: 'pro', maxSparkExecutors: 10 },
};
const read = (bytes: number, extra: Partial<RoutingInput> = {}): RoutingInput => ({
  engine: 'auto',
  kind: 'query',
  inputs: [{ table: 'lakeline.tpch.lineitem', bytes, source: 'snapshot' }],
  ...extra,
});
const destination = { via: 'destination', table: 'lakeline.out.t', mode: 'overwrite' } as const;

describe('the routing table', () => {
  it('Should order its rows by size and end with an unbounded batch row', () => {
    // Assess
    const bounds = ROUTING_TABLE.map((r) => r.maxBytes);
    expect([...bounds].sort((a, b) => a - b)).toEqual(bounds);
    expect(ROUTING_TABLE.at(-1)?.maxBytes).toBe(Number.POSITIVE_INFINITY);
    expect(interactiveLimitOf(ROUTING_TABLE)).toBe(INTERACTIVE_LIMIT_BYTES);
  });

  it('Should move the interactive limit for a deployment, turning larger interactive rows into batch', () => {
    // Act
    const moved = withInteractiveLimit(100_000);
    // Assess
    expect(interactiveLimitOf(moved)).toBe(100_000);
    expect(bandOf(200_000, moved)).toMatchObject({ band: 'l', mode: 'batch' });
    expect(bandOf(50_000, moved)).toMatchObject({ band: 'xs', mode: 'interactive' });
    expect(() => withInteractiveLimit(0)).toThrow(RangeError);
  });

  it('Should end the bloom band where a deployment says, sending larger batch reads to Spark', () => {
    // Act
    const moved = withBloomLimit(withInteractiveLimit(100_000), 300_000);
    const noBloom = withBloomLimit(withInteractiveLimit(100_000), 100_000);
    // Assess
    expect(bandOf(50_000, moved)).toMatchObject({ band: 'xs', mode: 'interactive' });
    expect(bandOf(200_000, moved)).toMatchObject({ band: 'l', mode: 'batch', batchReads: 'bloom', maxBytes: 300_000 });
    expect(bandOf(300_001, moved)).toMatchObject({ band: 'xl', mode: 'batch' });
    expect(bandOf(300_001, moved).batchReads).toBeUndefined();
    expect(noBloom.some((r) => r.batchReads === 'bloom')).toBe(false);
    expect(bandOf(100_001, noBloom)).toMatchObject({ band: 'xl' });
    expect(withBloomLimit(ROUTING_TABLE, 128 * 1024 * MiB).at(-1)?.maxBytes).toBe(Number.POSITIVE_INFINITY);
    expect(() => withBloomLimit(ROUTING_TABLE, 0)).toThrow(RangeError);
  });

  it('Should print byte counts for people', () => {
    expect([formatBytes(87), formatBytes(2.5 * MiB), formatBytes(2 * 1024 * MiB)]).toEqual(['87 bytes', '2.5 MiB', '2 GiB']);
  });
});

describe('auto: one case per row of the routing table', () => {
  it.each(ROUTING_TABLE.map((row, i) => [row.band, row, i] as const))('Should route a read in band %s by its row', (_band, row, i) => {
    // Prepare: an input just inside the row
    const lower = i === 0 ? 0 : (ROUTING_TABLE[i - 1]?.maxBytes ?? 0) + 1;
    // Act
    const route = decideRoute(read(lower), context);
    // Assess
    expect(route.band.band).toBe(row.band);
    expect(route.decision).toMatchObject({
      engine: row.mode === 'interactive' ? 'duckdb' : 'spark',
      execution_mode: row.mode,
      size_band: row.band,
      estimated_input_bytes: String(lower),
      input_tables: ['lakeline.tpch.lineitem'],
    });
    if (row.mode === 'interactive') {
      expect(route.action).toEqual({ kind: 'interactive', engine: 'duckdb' });
      expect(route.decision.sandbox).toEqual({ vcpus: row.sandboxVcpus, memory_gb: row.sandboxVcpus * 2 });
      expect(route.decision.reasons.join(' ')).toContain(`within the interactive limit of ${formatBytes(INTERACTIVE_LIMIT_BYTES)}`);
    } else {
      expect(route.action).toEqual({ kind: 'batch-read', sizing: row.batch });
      expect(route.decision.reasons.join(' ')).toContain(`above the interactive limit of ${formatBytes(INTERACTIVE_LIMIT_BYTES)}`);
    }
    expect(route.decision.reasons[0]).toContain(`(${lower} bytes)`);
  });

  it('Should send every write to Spark, sized by its input band, whatever its size', () => {
    // Act
    const small = decideRoute(read(1_000, { write: destination }), context);
    const own = decideRoute(read(1_000, { write: { via: 'statement', table: 'lakeline.out.t', mode: 'append', statementType: 'INSERT' } }), context);
    // Assess
    expect(small.action).toEqual({ kind: 'batch-write', sizing: ROUTING_TABLE[0]?.batch });
    expect(small.decision).toMatchObject({ engine: 'spark', execution_mode: 'batch', vcpus: 2, sandbox: { vcpus: 1, memory_gb: 4 } });
    expect(small.decision.reasons.join(' ')).toContain('destination lakeline.out.t (write_mode overwrite)');
    expect(own.decision.reasons.join(' ')).toContain('writes its own target lakeline.out.t (INSERT: append)');
  });

  it("Should clamp a batch run's executors to the plan, saying so", () => {
    // Act
    const route = decideRoute(read(100 * 1024 * MiB), { ...context, plan: { name: 'free', maxSparkExecutors: 2 } });
    // Assess
    expect(route.action).toMatchObject({ kind: 'batch-read', sizing: { executors: 2 } });
    expect(route.decision.reasons.join(' ')).toContain('the free plan allows 2');
  });

  it('Should send a script to polars', () => {
    // Act
    const route = decideRoute(read(1_000, { kind: 'script' }), context);
    // Assess
    expect(route.action).toEqual({ kind: 'interactive', engine: 'polars' });
    expect(route.decision.reasons.join(' ')).toContain('A script forces the polars engine');
  });

  it('Should estimate a read of no table at 0 bytes', () => {
    // Act
    const route = decideRoute({ engine: 'auto', kind: 'query', inputs: [] }, context);
    // Assess
    expect(route.decision).toMatchObject({ estimated_input_bytes: '0', size_band: 'xs', input_tables: [] });
  });
});

describe('pinned engines: used as asked or refused, never rerouted', () => {
  it('Should run a pinned engine that can run the request', () => {
    expect(decideRoute(read(1_000, { engine: 'duckdb' }), context).action).toEqual({ kind: 'interactive', engine: 'duckdb' });
    expect(decideRoute(read(1_000, { engine: 'polars' }), context).action).toEqual({ kind: 'interactive', engine: 'polars' });
    expect(decideRoute(read(INTERACTIVE_LIMIT_BYTES + 1, { engine: 'spark' }), context).action.kind).toBe('batch-read');
    expect(decideRoute(read(1_000, { engine: 'spark', write: destination }), context).action.kind).toBe('batch-write');
  });

  it.each([
    ['bloom, not configured in this deployment', read(1_000, { engine: 'bloom' }), /engine bloom is not configured in this deployment/],
    ['duckdb with a destination', read(1_000, { engine: 'duckdb', write: destination }), /engine duckdb cannot run this request: DuckDB .* does not write tables/],
    ['duckdb above the interactive limit', read(INTERACTIVE_LIMIT_BYTES + 1, { engine: 'duckdb' }), /engine duckdb cannot run this request: its estimated input of .* is above the interactive limit/],
    ['spark for an interactive read', read(1_000, { engine: 'spark' }), /engine spark cannot run this request: Spark runs batch jobs and cannot return rows inline/],
    ['polars with a statement polars SQL cannot parse', read(1_000, { engine: 'polars', polarsRefusal: 'unsupported: QUALIFY' }), /engine polars cannot run this request: polars SQL cannot parse this statement \(unsupported: QUALIFY\)/],
    ['polars with a destination', read(1_000, { engine: 'polars', write: destination }), /engine polars cannot run this request/],
    ['polars above the interactive limit', read(INTERACTIVE_LIMIT_BYTES + 1, { engine: 'polars' }), /engine polars cannot run this request: its estimated input/],
    ['a script on duckdb', read(1_000, { engine: 'duckdb', kind: 'script' }), /engine duckdb cannot run this request: a script .* runs only on polars/],
    ['a script with a destination', read(1_000, { kind: 'script', write: destination }), /a script with a destination is not supported/],
  ])('Should refuse %s with a capability error', (_case, input, message) => {
    // Act
    const act = () => decideRoute(input, context);
    // Assess
    expect(act).toThrow(CapabilityError);
    expect(act).toThrow(message);
  });

  it('Should refuse polars when this deployment has no polars engine', () => {
    const noPolars = { ...context, configured: { ...context.configured, polars: false } };
    expect(() => decideRoute(read(1_000, { engine: 'polars' }), noPolars)).toThrow(/engine polars is not configured in this deployment/);
    expect(() => decideRoute(read(1_000, { kind: 'script' }), noPolars)).toThrow(/polars engine, which is not configured/);
  });
});

describe('request rules', () => {
  const body = (extra: Partial<RoutedQueryBody>): RoutedQueryBody => ({ tables: [], engine: 'auto', write_mode: 'overwrite', explain: false, ...extra });

  it.each([
    ['both query and script', body({ query: 'SELECT 1', script: 'result = 1' }), 'query and script are mutually exclusive: send exactly one of them'],
    ['neither', body({}), 'one of query or script is required'],
    ['tables without a script', body({ query: 'SELECT 1', tables: ['n=tpch.nation'] }), /tables: applies only to a script/],
    ['a destination in a reserved namespace', body({ query: 'SELECT 1', destination: 'lakeline_results.x' }), /destination: the namespace lakeline_results is reserved/],
    ['a destination in autosave', body({ query: 'SELECT 1', destination: 'autosave.q_1' }), /reserved/],
    ['a script table without alias', body({ script: 'result = 1', tables: ['tpch.nation'] }), /tables.0: must be alias=namespace.table/],
    ['an alias registered twice', body({ script: 'result = 1', tables: ['n=tpch.nation', { alias: 'n', table: 'tpch.region' }] }), /registered twice/],
  ])('Should refuse %s with a 400 naming it', (_case, input, message) => {
    expect(() => checkRoutedRequest(input)).toThrow(ValidationError);
    expect(() => checkRoutedRequest(input)).toThrow(message);
  });

  it('Should fold a destination to lower case, as Spark stores it', () => {
    expect(checkRoutedRequest(body({ query: 'SELECT 1', destination: 'Out.Daily' })).destination).toEqual({ namespace: 'out', table: 'daily' });
  });
});

describe('own-target statements: the query and the mode the statement means', () => {
  it.each([
    ['CREATE TABLE out.t AS SELECT 1 AS x', 'CREATE_TABLE_AS', 'SELECT 1 AS x', 'create'],
    ['create or replace table out.t as with a as (select 1 as x) select * from a;', 'CREATE_OR_REPLACE_TABLE_AS', 'with a as (select 1 as x) select * from a', 'overwrite'],
    ['CREATE TABLE IF NOT EXISTS lakeline.out.t AS SELECT 2 AS x', 'CREATE_TABLE_AS', 'SELECT 2 AS x', 'create'],
    ['INSERT INTO out.t SELECT n_name FROM tpch.nation', 'INSERT', 'SELECT n_name FROM tpch.nation', 'append'],
    ['INSERT INTO out.t (SELECT 1)', 'INSERT', '(SELECT 1)', 'append'],
    ['INSERT OVERWRITE TABLE out.t SELECT 1', 'INSERT_OVERWRITE', 'SELECT 1', 'overwrite'],
  ] as const)('Should split %s', (sql, type, query, mode) => {
    expect(ownTargetQuery(sql, type === 'INSERT_OVERWRITE' ? 'spark' : 'duckdb', type)).toEqual({ sql: query, mode });
  });

  it.each([
    ['INSERT INTO out.t (x) SELECT 1', 'INSERT', /column list/],
    ['CREATE TABLE out.t (x INT) AS SELECT 1', 'CREATE_TABLE_AS', /no column definitions or table options/],
  ] as const)('Should refuse %s rather than drop a clause', (sql, type, message) => {
    expect(() => ownTargetQuery(sql, 'duckdb', type)).toThrow(message);
  });
});
