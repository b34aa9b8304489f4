/**
 * @module core/query-job
 * The lineage job of a query: the same normalized SQL is the same job, whichever endpoint ran it,
 * so the job name is a hash of the firewall's normalized text. The autosave table of a query is
 * keyed by the same hash.
 */
import { createHash } from 'node:crypto';

/** Job namespace of every query lakeline runs (routed, legacy): the scheduler, in Naming.md's terms. */
export const QUERY_JOB_NAMESPACE = 'lakeline';

/**
 * Hex digits of SHA-256 kept in a query hash: 128 bits, so two different queries of one org
 * never share a job or, worse, an autosaved result.
 */
export const QUERY_HASH_HEX_DIGITS = 32;

/** The hash of a normalized query (lower-case hex). */
export const queryHash = (normalizedSql: string): string =>
  createHash('sha256').update(normalizedSql, 'utf8').digest('hex').slice(0, QUERY_HASH_HEX_DIGITS);

/** A lineage job identity. */
export interface JobIdentity {
  readonly namespace: string;
  readonly name: string;
}

/** The job of a query: `{namespace: 'lakeline', name: 'q_<hash>'}`. */
export const queryJob = (normalizedSql: string): JobIdentity => ({ namespace: QUERY_JOB_NAMESPACE, name: `q_${queryHash(normalizedSql)}` });
