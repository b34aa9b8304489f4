/**
 * Bloom in the routing decision: the routing table's bloom row (band `l` reads run on bloom when it
 * is configured and the statement is Trino SQL), Spark for the rest, pinned `engine: bloom` (any
 * size, a batch run), and its capability errors (not configured, writes, scripts, SQL the firewall
 * refuses in Trino mode).
 */
import { describe, expect, it } from 'vitest';
import { CapabilityError } from '#domain/errors';
import { decideRoute, type RoutingContext, type RoutingInput } from '#domain/routing/decide';
import { bandOf, ROUTING_TABLE } from '#domain/routing/table';

const GiB = 1024 ** 3;
const withBloom: RoutingContext = { table: ROUTING_TABLE, configured: { polars: true, spark: true, bloom: true }, plan: { name: 'pro', maxSparkExecutors: 10 } };
const withoutBloom: RoutingContext = { ...withBloom, configured: { polars: true, spark: true, bloom: false } };
const read = (bytes: number, extra: Partial<RoutingInput> = {}): RoutingInput => ({
  engine: 'auto',
  kind: 'query',
  inputs: [{ table: 'lakeline.tpch.lineitem', bytes, source: 'snapshot' }],
  ...extra,
});

describe('the bloom row of the routing table', () => {
  it('Should send reads of band l to bloom when it is configured, with reasons', () => {
    // Act
    const route = decideRoute(read(10 * GiB), withBloom);

    // Assess
    expect(bandOf(10 * GiB).batchReads).toBe('bloom');
    expect(route.action).toEqual({ kind: 'bloom-read', vcpus: 4 });
    expect(route.decision).toMatchObject({ engine: 'bloom', execution_mode: 'batch', size_band: 'l', vcpus: 4, sandbox: { vcpus: 4, memory_gb: 8 } });
    expect(route.decision.reasons.join(' ')).toMatch(/whose reads run on bloom/);
  });

  it('Should keep interactive reads on DuckDB and the unbounded band on Spark', () => {
    // Act + Assess
    expect(decideRoute(read(1024), withBloom).decision.engine).toBe('duckdb');
    expect(decideRoute(read(100 * GiB), withBloom).decision.engine).toBe('spark');
  });

  it('Should send band l reads to Spark when bloom is not configured, or cannot read the SQL, saying why', () => {
    // Act
    const unconfigured = decideRoute(read(10 * GiB), withoutBloom);
    const refused = decideRoute(read(10 * GiB, { trinoRefusal: 'statement the trino parser cannot read' }), withBloom);

    // Assess
    expect(unconfigured.decision.engine).toBe('spark');
    expect(refused.decision.engine).toBe('spark');
    expect(refused.decision.reasons.join(' ')).toMatch(/refuses this statement .*so Spark runs it/);
  });

  it('Should keep a read pinned to spark on Spark in band l, never rerouting it to bloom', () => {
    // Act
    const route = decideRoute(read(10 * GiB, { engine: 'spark' }), withBloom);

    // Assess
    expect(route.action.kind).toBe('batch-read');
    expect(route.decision.engine).toBe('spark');
    expect(route.decision.reasons.join(' ')).not.toMatch(/bloom/);
  });

  it('Should never send a write to bloom', () => {
    // Act
    const route = decideRoute(read(10 * GiB, { write: { via: 'destination', table: 'lakeline.out.t', mode: 'overwrite' } }), withBloom);

    // Assess
    expect(route.decision.engine).toBe('spark');
  });
});

describe('engine: bloom pinned', () => {
  it('Should run a read of any size as a bloom batch run', () => {
    // Act
    const small = decideRoute(read(1024, { engine: 'bloom' }), withBloom);

    // Assess
    expect(small.action).toEqual({ kind: 'bloom-read', vcpus: 2 });
    expect(small.decision).toMatchObject({ engine: 'bloom', execution_mode: 'batch', size_band: 'xs' });
  });

  it.each([
    ['not configured', read(1024, { engine: 'bloom' }), withoutBloom, /engine bloom is not configured/],
    ['a write', read(1024, { engine: 'bloom', write: { via: 'destination', table: 'lakeline.out.t', mode: 'overwrite' } }), withBloom, /bloom does not write tables/],
    ['a script', { engine: 'bloom', kind: 'script', inputs: [] } as RoutingInput, withBloom, /runs only on polars/],
    ['SQL the Trino firewall refuses', read(1024, { engine: 'bloom', trinoRefusal: 'table function' }), withBloom, /Trino mode refuses this statement \(table function\)/],
  ])('Should refuse %s with a capability error', (_what, input, context, message) => {
    // Act + Assess
    expect(() => decideRoute(input, context)).toThrow(CapabilityError);
    expect(() => decideRoute(input, context)).toThrow(message);
  });
});
