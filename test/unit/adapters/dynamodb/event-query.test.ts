// planQuery: which index and partitions answer each kind of listing, and the expressions sent.
import { describe, expect, it } from 'vitest';
import { JOB_BUCKETS, NAMESPACE_BUCKETS, SHARD_COUNT, jobKey, namespaceKey } from '#adapters/dynamodb/event-item';
import { MAX_NAME_PARTITIONS, planQuery, resumePlan } from '#adapters/dynamodb/event-query';
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
    const directory = (jobNames: string[], namespaces: string[], complete = true) => ({ jobNames, namespaces, complete });
    const NAMES = directory(['daily_orders', 'daily_refunds', 'train_orders'], ['etl', 'ml']);
    const buckets = (count: number, key: (bucket: number) => string) => Array.from({ length: count }, (_, b) => key(b));

    it('Should read only the matching job names of the job index, keeping the substring filters', () => {
      // Act
      const plan = planQuery(ORG, { ...BASE, job: 'orders', states: ['FAIL'] }, NAMES);
      // Assess
      expect(plan?.indexName).toBe('byJob');
      expect(plan?.partitions).toEqual([...buckets(JOB_BUCKETS, (b) => jobKey(ORG, 'daily_orders', b)), ...buckets(JOB_BUCKETS, (b) => jobKey(ORG, 'train_orders', b))]);
      expect(plan?.filterExpression).toBe('#state IN (:s0) AND contains(#job, :job)');
      expect(plan?.keyCondition).toBe('#pk = :p AND #sk BETWEEN :lo AND :hi');
    });

    it('Should read only the matching namespace of the namespace index for a namespace filter', () => {
      // Act
      const plan = planQuery(ORG, { ...BASE, namespace: 'ml', states: ['COMPLETE', 'FAIL', 'START'] }, NAMES);
      // Assess
      expect(plan?.indexName).toBe('byNamespace');
      expect(plan?.partitions).toEqual(buckets(NAMESPACE_BUCKETS, (b) => namespaceKey(ORG, 'ml', b)));
      expect(plan?.filterExpression).toBe('#state IN (:s0, :s1, :s2) AND contains(#ns, :ns)');
    });

    it('Should read the name index with fewer partitions when both filters are given, filtering on the other', () => {
      // Act: one job name (2 partitions) against one namespace (8)
      const plan = planQuery(ORG, { ...BASE, namespace: 'et', job: 'daily_refunds' }, NAMES);
      // Assess
      expect(plan?.indexName).toBe('byJob');
      expect(plan?.partitions).toHaveLength(JOB_BUCKETS);
      expect(plan?.filterExpression).toBe('contains(#ns, :ns) AND contains(#job, :job)');
    });

    it('Should find one job name however many namespaces run a job of that name', () => {
      // Prepare: a warehouse running the same job names in 500 namespaces
      const wide = directory(['task_1', 'task_2'], Array.from({ length: 500 }, (_, i) => `ns_${i}`));
      // Act
      const plan = planQuery(ORG, { ...BASE, job: 'task_2' }, wide);
      // Assess
      expect(plan?.indexName).toBe('byJob');
      expect(plan?.partitions).toEqual(buckets(JOB_BUCKETS, (b) => jobKey(ORG, 'task_2', b)));
    });

    it('Should plan nothing when no name of a complete directory matches', () => {
      expect(planQuery(ORG, { ...BASE, namespace: 'finance' }, NAMES)).toBeUndefined();
      expect(planQuery(ORG, { ...BASE, namespace: 'etl', job: 'weekly' }, NAMES)).toBeUndefined();
    });

    it('Should fall back to filtering the time index when a chunk of the directory overflowed', () => {
      const plan = planQuery(ORG, { ...BASE, namespace: 'finance' }, directory(['daily_orders'], ['etl'], false));
      expect(plan?.indexName).toBe('byTime');
      expect(plan?.filterExpression).toBe('contains(#ns, :ns)');
    });

    it(`Should filter the time index when more than ${MAX_NAME_PARTITIONS} partitions of either name index would be read`, () => {
      const manyJobs = directory(Array.from({ length: MAX_NAME_PARTITIONS / JOB_BUCKETS + 1 }, (_, i) => `job_${i}`), ['etl']);
      const manyNamespaces = directory(['daily'], Array.from({ length: MAX_NAME_PARTITIONS / NAMESPACE_BUCKETS + 1 }, (_, i) => `etl_${i}`));
      expect(planQuery(ORG, { ...BASE, job: 'job_' }, manyJobs)?.indexName).toBe('byTime');
      expect(planQuery(ORG, { ...BASE, namespace: 'etl_' }, manyNamespaces)?.indexName).toBe('byTime');
      expect(planQuery(ORG, { ...BASE, namespace: 'etl_', states: ['FAIL'] }, manyNamespaces)?.indexName).toBe('byState');
    });

    it('Should keep size order on the size index, and a run on the run index', () => {
      expect(planQuery(ORG, { ...BASE, job: 'orders', sortBy: 'EVENT_SIZE_IN_BYTES' }, NAMES)?.indexName).toBe('bySize');
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
