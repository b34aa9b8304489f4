// planQuery: which index and partitions answer each kind of listing, and the expressions sent.
import { describe, expect, it } from 'vitest';
import { SHARD_COUNT } from '#adapters/dynamodb/event-item';
import { planQuery } from '#adapters/dynamodb/event-query';
import type { EventListQuery } from '#domain/lineage/ports';

const ORG = 'o1';
const BASE: EventListQuery = {
  startMicros: 1_000_000n,
  endMicros: 2_000_000n,
  sortBy: 'EVENT_TIME',
  order: 'DESC',
  limit: 30,
  offset: 0,
  maxPageBytes: 1 << 20,
};

describe('planQuery', () => {
  it('Should read every shard of the time index with the window as key condition by default', () => {
    // Act
    const plan = planQuery(ORG, BASE);

    // Assess
    expect(plan).toMatchObject({ indexName: 'byTime', sortAttribute: 'timeKey', forward: false, filtered: false, sortBySizeInMemory: false });
    expect(plan?.partitions).toEqual(Array.from({ length: SHARD_COUNT }, (_, s) => `o1#${s}`));
    expect(plan?.keyCondition).toBe('#pk = :p AND #sk BETWEEN :lo AND :hi');
    expect(plan?.values).toEqual({ ':lo': '000000000001000000', ':hi': '000000000001999999#~' });
    expect(plan?.filterExpression).toBeUndefined();
  });

  it('Should read the size index with the window as a filter when sorting by size', () => {
    // Act
    const plan = planQuery(ORG, { ...BASE, sortBy: 'EVENT_SIZE_IN_BYTES', order: 'ASC' });

    // Assess
    expect(plan).toMatchObject({ indexName: 'bySize', sortAttribute: 'sizeKey', forward: true, keyCondition: '#pk = :p' });
    expect(plan?.filterExpression).toBe('#time BETWEEN :lo AND :hi');
    expect(plan?.names['#time']).toBe('eventTime');
    expect(plan?.filtered).toBe(true);
  });

  it('Should not count a window covering every storable time as a filter on the size index', () => {
    // Act
    const plan = planQuery(ORG, { ...BASE, sortBy: 'EVENT_SIZE_IN_BYTES', startMicros: 0n, endMicros: 253_402_300_800_000_000n });

    // Assess
    expect(plan?.filtered).toBe(false);
  });

  it('Should read one partition per state and shard of the state index for one or two states', () => {
    // Act
    const plan = planQuery(ORG, { ...BASE, states: ['COMPLETE', 'FAIL'] });

    // Assess
    expect(plan?.indexName).toBe('byState');
    expect(plan?.partitions).toHaveLength(2 * SHARD_COUNT);
    expect(plan?.partitions[0]).toBe('o1#COMPLETE#0');
    expect(plan?.filterExpression).toBeUndefined();
  });

  it('Should filter the time index by state when many states are asked for', () => {
    // Act
    const plan = planQuery(ORG, { ...BASE, states: ['START', 'RUNNING', 'COMPLETE'] });

    // Assess
    expect(plan?.indexName).toBe('byTime');
    expect(plan?.filterExpression).toBe('#state IN (:s0, :s1, :s2)');
    expect(plan?.filtered).toBe(true);
  });

  it('Should read the single run partition for a run, sorting by size in memory when asked', () => {
    // Act
    const byTime = planQuery(ORG, { ...BASE, runId: 'r1', states: ['FAIL'] });
    const bySize = planQuery(ORG, { ...BASE, runId: 'r1', sortBy: 'EVENT_SIZE_IN_BYTES' });

    // Assess
    expect(byTime).toMatchObject({ indexName: 'byRun', partitions: ['o1#r1'], filterExpression: '#state IN (:s0)', sortBySizeInMemory: false });
    expect(bySize).toMatchObject({ indexName: 'byRun', sortAttribute: 'timeKey', sortBySizeInMemory: true });
  });

  it('Should combine substring and integration filters with AND on the projected attributes', () => {
    // Act
    const plan = planQuery(ORG, { ...BASE, namespace: 'prod', job: 'etl', integrations: ['spark', 'dbt'] });

    // Assess
    expect(plan?.filterExpression).toBe('contains(#ns, :ns) AND contains(#job, :job) AND #int IN (:i0, :i1)');
    expect(plan?.names).toMatchObject({ '#ns': 'namespaceLc', '#job': 'jobLc', '#int': 'integrationLc' });
    expect(plan?.values).toMatchObject({ ':ns': 'prod', ':job': 'etl', ':i0': 'spark', ':i1': 'dbt' });
  });

  it('Should plan nothing for an empty window', () => {
    // Act & Assess
    expect(planQuery(ORG, { ...BASE, startMicros: 5n, endMicros: 5n })).toBeUndefined();
  });
});
