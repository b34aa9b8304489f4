/**
 * @module lineage-fixtures
 * Synthetic OpenLineage events for the event store and HTTP suites: a deterministic data set with
 * chosen times (including exact ties), sizes (including ties), states, runs, jobs, namespaces and
 * producers, and a reference implementation of the listing contract to compare pages against.
 */
import { randomUUID } from 'node:crypto';
import { eventId } from '#domain/lineage/event-id';
import { parseEventTime, sortableTime } from '#domain/lineage/event-time';
import type { EventListQuery } from '#domain/lineage/ports';
import { foldForSearch } from '#domain/lineage/search-fold';
import type { RunState } from '#domain/lineage/types';

/** What a synthetic event is made of. */
export interface EventSpec {
  /** RFC 3339 time. */
  readonly time: string;
  readonly runId: string;
  readonly state: RunState;
  readonly job: string;
  readonly namespace: string;
  readonly producer: string;
  /** Length of a padding facet, to control the event's size. */
  readonly padding: number;
  /** Makes otherwise equal specs distinct events. */
  readonly seq: number;
}

/** A synthetic event's JSON text (compact, so its byte size is predictable). */
export const eventText = (spec: EventSpec): string =>
  JSON.stringify({
    eventType: spec.state,
    eventTime: spec.time,
    run: { runId: spec.runId, facets: { padding: { _producer: 'https://example.com/p', _schemaURL: 'https://example.com/s', seq: spec.seq, text: 'p'.repeat(spec.padding) } } },
    job: { namespace: spec.namespace, name: spec.job },
    inputs: [{ namespace: 'postgres://db:5432', name: `public.in_${spec.seq % 5}` }],
    outputs: [{ namespace: 's3://lake', name: `out/${spec.job}` }],
    producer: spec.producer,
    schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
  });

/** What the reference listing needs to know of a stored event. */
export interface ReferenceEvent {
  readonly id: string;
  readonly micros: bigint;
  readonly timeKey: string;
  readonly size: number;
  readonly runId: string;
  readonly state: RunState;
  readonly jobLc: string;
  readonly namespaceLc: string;
  readonly integration: string;
  readonly text: string;
}

const PRODUCERS: readonly [string, string][] = [
  ['https://github.com/OpenLineage/OpenLineage/tree/1.19.0/integration/spark', 'spark'],
  ['https://github.com/apache/airflow/tree/providers-openlineage/1.10.0', 'airflow'],
  ['https://github.com/OpenLineage/OpenLineage/tree/1.20.0/integration/dbt', 'dbt'],
  ['urn:lakeline:test-producer', 'unknown'],
];
const STATES: readonly RunState[] = ['START', 'RUNNING', 'COMPLETE', 'COMPLETE', 'FAIL', 'ABORT', 'OTHER'];
const JOBS = ['Daily_Orders', 'daily_customers', 'ÉTL_Ünïcode', 'hourly.rollup', 'ml-train'];
const NAMESPACES = ['Prod-Airflow', 'staging', 'prod-spark'];

/** Deterministic pseudo-random numbers in [0, 1). */
export const seededRandom = (seed: number) => () => {
  // mulberry32: 32-bit integer arithmetic throughout (a float LCG such as seed * 1103515245 loses
  // precision past 2^53 and collapses into a short cycle).
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
};

/**
 * A data set of `count` events: times drawn from few distinct seconds (so exact ties happen),
 * sizes from few distinct paddings (so size ties happen), and a handful of runs.
 *
 * @param baseSeconds - epoch seconds of the earliest event
 */
export function dataset(count: number, seed = 1, baseSeconds = 1_700_000_000): ReferenceEvent[] {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const runs = Array.from({ length: 6 }, () => randomUUID());
  return Array.from({ length: count }, (_, seq) => {
    const second = baseSeconds + Math.floor(random() * 40);
    // Half of the events share whole seconds exactly; the others carry microseconds.
    const fraction = random() < 0.5 ? '' : `.${String(Math.floor(random() * 1e6)).padStart(6, '0')}`;
    const time = `${new Date(second * 1000).toISOString().slice(0, 19)}${fraction}Z`;
    const [producer, integration] = pick(PRODUCERS);
    const spec: EventSpec = { time, runId: pick(runs), state: pick(STATES), job: pick(JOBS), namespace: pick(NAMESPACES), producer, padding: 20 * Math.floor(random() * 4), seq };
    const text = eventText(spec);
    const micros = parseEventTime(time).epochMicros;
    const id = eventId(JSON.parse(text));
    return {
      id,
      micros,
      timeKey: `${sortableTime(micros)}#${id}`,
      size: Buffer.byteLength(text),
      runId: spec.runId,
      state: spec.state,
      jobLc: foldForSearch(spec.job),
      namespaceLc: foldForSearch(spec.namespace),
      integration,
      text,
    };
  });
}

/** The ids the listing contract asks for, computed directly over the data set. */
export function referencePage(events: readonly ReferenceEvent[], query: EventListQuery): string[] {
  const sortKey = (e: ReferenceEvent) => (query.sortBy === 'EVENT_TIME' ? e.timeKey : `${String(e.size).padStart(12, '0')}#${e.timeKey}`);
  return events
    .filter((e) => e.micros >= query.startMicros && e.micros < query.endMicros)
    .filter((e) => query.runId === undefined || e.runId === query.runId)
    .filter((e) => query.states === undefined || query.states.includes(e.state))
    .filter((e) => query.namespace === undefined || e.namespaceLc.includes(query.namespace))
    .filter((e) => query.job === undefined || e.jobLc.includes(query.job))
    .filter((e) => query.integrations === undefined || query.integrations.includes(e.integration))
    .sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : 1) * (query.order === 'ASC' ? 1 : -1))
    .slice(query.offset, query.offset + query.limit)
    .map((e) => e.id);
}
