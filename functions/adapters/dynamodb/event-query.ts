/**
 * @module event-query
 * Turns a listing request into DynamoDB Queries on the Events table's indexes: which index, which
 * partitions (one per write shard, or one run), the key condition on the time range, and the
 * filter on the small projected attributes. Pure: the store runs the plan (event-store.ts).
 */
import type { EventListQuery } from '#domain/lineage/ports';
import { MAX_EPOCH_MICROS, MIN_EPOCH_MICROS, sortableTime } from '#domain/lineage/event-time';
import { EVENT_INDEXES, JOB_BUCKETS, NAMESPACE_BUCKETS, SHARD_COUNT, jobKey, namespaceKey, runKey, shardKey, stateKey } from './event-item.ts';
import type { NameDirectoryView } from './name-directory.ts';

/**
 * With at most this many states asked for, the state index is read (states × shards partitions,
 * each holding only matching events); with more, the time index is read with a state filter,
 * since most of what it reads then matches anyway and fewer partitions mean fewer requests.
 */
export const MAX_STATES_ON_STATE_INDEX = 2;

/**
 * Most name-index partitions one listing merges (job names matched × {@link JOB_BUCKETS}, or
 * namespaces matched × {@link NAMESPACE_BUCKETS}). A filter that matches more names is not
 * selective in the usual case, so the time or state index with a filter reads little more than it
 * returns.
 */
export const MAX_NAME_PARTITIONS = 64;

/** Whether a listing filters by job or job namespace, so the name directory can narrow it. */
export const usesNameDirectory = (query: EventListQuery): boolean => query.runId === undefined && (query.namespace !== undefined || query.job !== undefined);

/** The partitions of the name index a listing reads: the job index or the namespace index. */
interface NamePartitions {
  readonly indexName: string;
  readonly partitionAttribute: string;
  readonly partitions: string[];
}

/**
 * The directory's names matching the query's `job` and `namespace` substrings (folded), as the
 * partitions of whichever name index has fewer of them (the other filter runs on its entries);
 * `'none'` when a filter matches no name of a complete directory, so nothing can match; undefined
 * when neither index is selective enough ({@link MAX_NAME_PARTITIONS}).
 */
export function namePartitions(orgId: string, query: EventListQuery, directory: NameDirectoryView): NamePartitions | 'none' | undefined {
  const { job, namespace } = query;
  const jobs = job === undefined ? undefined : directory.jobNames.filter((name) => name.includes(job));
  const namespaces = namespace === undefined ? undefined : directory.namespaces.filter((name) => name.includes(namespace));
  if (jobs?.length === 0 || namespaces?.length === 0) return 'none';
  const byJob = jobs === undefined ? Number.POSITIVE_INFINITY : jobs.length * JOB_BUCKETS;
  const byNamespace = namespaces === undefined ? Number.POSITIVE_INFINITY : namespaces.length * NAMESPACE_BUCKETS;
  if (Math.min(byJob, byNamespace) > MAX_NAME_PARTITIONS) return undefined;
  if (jobs !== undefined && byJob <= byNamespace) {
    return { indexName: EVENT_INDEXES.byJob, partitionAttribute: 'jobKey', partitions: jobs.flatMap((name) => Array.from({ length: JOB_BUCKETS }, (_, b) => jobKey(orgId, name, b))) };
  }
  return {
    indexName: EVENT_INDEXES.byNamespace,
    partitionAttribute: 'namespaceKey',
    partitions: (namespaces ?? []).flatMap((name) => Array.from({ length: NAMESPACE_BUCKETS }, (_, b) => namespaceKey(orgId, name, b))),
  };
}

/** The Queries that answer a listing request. */
export interface QueryPlan {
  readonly indexName: string;
  /** Partition key attribute of the index. */
  readonly partitionAttribute: string;
  /** One Query stream per value, merged by sort key. */
  readonly partitions: readonly string[];
  /** Sort key attribute of the index: `timeKey` (`<time>#<id>`) or `sizeKey` (`<size>#<time>#<id>`). */
  readonly sortAttribute: 'timeKey' | 'sizeKey';
  /** Whether DynamoDB returns entries in the requested order (false: DESC). */
  readonly forward: boolean;
  /**
   * Size order on an index sorted by time (the run index): every matching entry of the partition
   * is read and sorted in memory. Runs are small; documented in docs/adr/0010-event-keys-sharding-and-listing.md.
   */
  readonly sortBySizeInMemory: boolean;
  /** Whether a filter may drop entries (pages may then yield few items; the merge reads ahead more). */
  readonly filtered: boolean;
  readonly keyCondition: string;
  readonly filterExpression?: string;
  readonly names: Readonly<Record<string, string>>;
  /** Values of the expressions; the partition value is bound per Query as `:p`. */
  readonly values: Readonly<Record<string, unknown>>;
}

/**
 * Plans a listing for one org, or returns `undefined` when nothing can match (an empty window, or
 * a complete directory with no job matching the name filters).
 *
 * Paths: a run → the run index (one partition); size order → the size index (shards), with the time
 * window as a filter; a `job` or `namespace` filter matching few names of the directory → the job
 * index (job names × buckets) or the namespace index (namespaces × buckets), whichever reads fewer
 * partitions; one or two states in time order → the state index (states × shards); otherwise → the
 * time index (shards). The time window is a key condition wherever the index is sorted by time.
 * Substring and list filters run on the index entries (the attributes are projected) on every
 * path, so a shared name-index partition never lets a wrong event through.
 *
 * @param directory - the org's name directory, when the query filters by name ({@link usesNameDirectory})
 */
export function planQuery(orgId: string, query: EventListQuery, directory?: NameDirectoryView): QueryPlan | undefined {
  if (query.startMicros >= query.endMicros) return undefined;
  const byName = directory?.complete && usesNameDirectory(query) ? namePartitions(orgId, query, directory) : undefined;
  if (byName === 'none') return undefined;
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const filters: string[] = [];
  const timeLo = sortableTime(query.startMicros);
  const timeHi = sortableTime(query.endMicros - 1n);
  const shards = Array.from({ length: SHARD_COUNT }, (_, shard) => shard);
  const bySize = query.sortBy === 'EVENT_SIZE_IN_BYTES';

  let indexName: string;
  let partitionAttribute: string;
  let partitions: string[];
  let sortAttribute: QueryPlan['sortAttribute'] = 'timeKey';
  let stateFilter = query.states !== undefined;
  if (query.runId !== undefined) {
    indexName = EVENT_INDEXES.byRun;
    partitionAttribute = 'runKey';
    partitions = [runKey(orgId, query.runId)];
  } else if (bySize) {
    indexName = EVENT_INDEXES.bySize;
    partitionAttribute = 'shardKey';
    partitions = shards.map((s) => shardKey(orgId, s));
    sortAttribute = 'sizeKey';
  } else if (byName !== undefined) {
    ({ indexName, partitionAttribute, partitions } = byName);
  } else if (query.states !== undefined && query.states.length <= MAX_STATES_ON_STATE_INDEX) {
    indexName = EVENT_INDEXES.byState;
    partitionAttribute = 'stateKey';
    const states = query.states;
    partitions = states.flatMap((state) => shards.map((s) => stateKey(orgId, state, s)));
    stateFilter = false;
  } else {
    indexName = EVENT_INDEXES.byTime;
    partitionAttribute = 'shardKey';
    partitions = shards.map((s) => shardKey(orgId, s));
  }

  names['#pk'] = partitionAttribute;
  let keyCondition = '#pk = :p';
  if (sortAttribute === 'timeKey') {
    names['#sk'] = 'timeKey';
    // Keys are `<18-digit time>#<uuid>`: every key of the last microsecond is below `<time>#~`.
    keyCondition += ' AND #sk BETWEEN :lo AND :hi';
    values[':lo'] = timeLo;
    values[':hi'] = `${timeHi}#~`;
  } else {
    names['#time'] = 'eventTime';
    filters.push('#time BETWEEN :lo AND :hi');
    values[':lo'] = timeLo;
    values[':hi'] = timeHi;
  }
  if (stateFilter && query.states !== undefined) {
    names['#state'] = 'runState';
    filters.push(`#state IN (${query.states.map((state, i) => bind(values, `:s${i}`, state)).join(', ')})`);
  }
  if (query.namespace !== undefined) {
    names['#ns'] = 'namespaceLc';
    filters.push(`contains(#ns, ${bind(values, ':ns', query.namespace)})`);
  }
  if (query.job !== undefined) {
    names['#job'] = 'jobLc';
    filters.push(`contains(#job, ${bind(values, ':job', query.job)})`);
  }
  if (query.integrations !== undefined) {
    names['#int'] = 'integrationLc';
    filters.push(`#int IN (${query.integrations.map((name, i) => bind(values, `:i${i}`, name)).join(', ')})`);
  }
  return {
    indexName,
    partitionAttribute,
    partitions,
    sortAttribute,
    forward: query.order === 'ASC',
    sortBySizeInMemory: query.runId !== undefined && bySize,
    // On the size index the time window is a filter too, unless it covers every storable time.
    filtered:
      stateFilter ||
      query.namespace !== undefined ||
      query.job !== undefined ||
      query.integrations !== undefined ||
      (sortAttribute === 'sizeKey' && (query.startMicros > MIN_EPOCH_MICROS || query.endMicros <= MAX_EPOCH_MICROS)),
    keyCondition,
    ...(filters.length > 0 ? { filterExpression: filters.join(' AND ') } : {}),
    names,
    values,
  };
}

function bind(values: Record<string, unknown>, name: string, value: unknown): string {
  values[name] = value;
  return name;
}

/**
 * The same listing, started just after the entry with sort key `after` (a continuation): the range
 * on the sort key begins (ASC) or ends (DESC) there. The entry itself is within the range and must
 * be skipped by the caller.
 */
export function resumePlan(plan: QueryPlan, after: string): QueryPlan {
  if (plan.sortAttribute === 'timeKey') {
    return { ...plan, values: { ...plan.values, [plan.forward ? ':lo' : ':hi']: after } };
  }
  return {
    ...plan,
    keyCondition: `${plan.keyCondition} AND #resume ${plan.forward ? '>=' : '<='} :resume`,
    names: { ...plan.names, '#resume': plan.sortAttribute },
    values: { ...plan.values, ':resume': after },
  };
}

/** A canonical description of a listing without its offset and limit: pages of one listing share it. */
export function listingKey(orgId: string, query: EventListQuery): string {
  return JSON.stringify([
    orgId,
    String(query.startMicros),
    String(query.endMicros),
    query.sortBy,
    query.order,
    query.runId ?? null,
    query.states ?? null,
    query.namespace ?? null,
    query.job ?? null,
    query.integrations ?? null,
  ]);
}
