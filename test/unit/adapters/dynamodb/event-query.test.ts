// planQuery: which index and partitions answer each kind of listing, and the expressions sent.
import { describe, expect, it } from 'vitest';
import { JOB_BUCKETS, SHARD_COUNT, jobKey } from '#adapters/dynamodb/event-item';
import { MAX_JOB_PARTITIONS, planQuery, resumePlan } from '#adapters/dynamodb/event-query';
import type { EventListQuery } from '#domain/lineage/ports';

const ORG = 'o1';
const BASE: EventListQuery = {
  startMicros: 1_000_000n,
  endMicros: 2_000_000n,
  sortBy: 'EVENT_TIME',
  order: 'DESC',
  limit: 30,
  offset: 0,
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

  describe('with the name directory', () => {
    const directory = (jobs: [string, string][], complete = true) => ({ jobs: jobs.map(([namespace, job]) => ({ namespace, job })), complete });
    const JOBS = directory([
      ['etl', 'daily_orders'],
      ['etl', 'daily_refunds'],
      ['ml', 'train_orders'],
    ]);

    it('Should read only the matching jobs of the job index, keeping the substring filters', () => {
      // Act
      const plan = planQuery(ORG, { ...BASE, job: 'orders', states: ['FAIL'] }, JOBS);
      // Assess
      expect(plan?.indexName).toBe('byJob');
      expect(plan?.partitions).toEqual([
        ...Array.from({ length: JOB_BUCKETS }, (_, b) => jobKey(ORG, 'etl', 'daily_orders', b)),
        ...Array.from({ length: JOB_BUCKETS }, (_, b) => jobKey(ORG, 'ml', 'train_orders', b)),
      ]);
      expect(plan?.filterExpression).toBe('#state IN (:s0) AND contains(#job, :job)');
      expect(plan?.keyCondition).toBe('#pk = :p AND #sk BETWEEN :lo AND :hi');
    });

    it('Should match namespace and job substrings together', () => {
      const plan = planQuery(ORG, { ...BASE, namespace: 'et', job: 'daily' }, JOBS);
      expect(plan?.partitions).toHaveLength(2 * JOB_BUCKETS);
    });

    it('Should plan nothing when no job of a complete directory matches', () => {
      expect(planQuery(ORG, { ...BASE, namespace: 'finance' }, JOBS)).toBeUndefined();
    });

    it('Should fall back to filtering the time index when a chunk of the directory overflowed', () => {
      const plan = planQuery(ORG, { ...BASE, namespace: 'finance' }, directory([['etl', 'daily_orders']], false));
      expect(plan?.indexName).toBe('byTime');
      expect(plan?.filterExpression).toBe('contains(#ns, :ns)');
    });

    it(`Should filter the time index when more than ${MAX_JOB_PARTITIONS / JOB_BUCKETS} jobs match`, () => {
      const many = directory(Array.from({ length: MAX_JOB_PARTITIONS / JOB_BUCKETS + 1 }, (_, i) => ['etl', `job_${i}`] as [string, string]));
      expect(planQuery(ORG, { ...BASE, namespace: 'etl' }, many)?.indexName).toBe('byTime');
    });

    it('Should keep size order on the size index, and a run on the run index', () => {
      expect(planQuery(ORG, { ...BASE, job: 'orders', sortBy: 'EVENT_SIZE_IN_BYTES' }, JOBS)?.indexName).toBe('bySize');
      expect(planQuery(ORG, { ...BASE, job: 'orders', runId: '3f2504e0-4f89-41d3-9a0c-0305e82c3301' })?.indexName).toBe('byRun');
    });
  });

  describe('resumePlan', () => {
    it('Should end a DESC time range at the continuation, and start an ASC one there', () => {
      const desc = planQuery(ORG, BASE);
      const asc = planQuery(ORG, { ...BASE, order: 'ASC' });
      expect(desc && resumePlan(desc, '000000000001500000#x').values).toEqual({ ':lo': '000000000001000000', ':hi': '000000000001500000#x' });
      expect(asc && resumePlan(asc, '000000000001500000#x').values).toEqual({ ':lo': '000000000001500000#x', ':hi': '000000000001999999#~' });
    });

    it('Should bound the size index by the continuation in the key condition', () => {
      const plan = planQuery(ORG, { ...BASE, sortBy: 'EVENT_SIZE_IN_BYTES' });
      const resumed = plan && resumePlan(plan, '000000000100#000000000001500000#x');
      expect(resumed?.keyCondition).toBe('#pk = :p AND #resume <= :resume');
      expect(resumed?.values[':resume']).toBe('000000000100#000000000001500000#x');
    });
  });
});
