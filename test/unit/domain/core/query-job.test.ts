/**
 * Query identity: the job name is a stable hash of the normalized SQL.
 */
import { describe, expect, it } from 'vitest';
import { queryHash, queryJob } from '#domain/core/query-job';

describe('queryJob', () => {
  it('Should name the job q_ and 32 hex digits of SHA-256 of the normalized text, in the lakeline namespace', () => {
    // Act
    const job = queryJob('select 1');
    // Assess
    expect(job).toEqual({ namespace: 'lakeline', name: `q_${queryHash('select 1')}` });
    expect(job.name).toMatch(/^q_[0-9a-f]{32}$/);
    expect(queryHash('select 1')).toBe(queryHash('select 1'));
    expect(queryHash('select 1')).not.toBe(queryHash('select 2'));
  });
});
