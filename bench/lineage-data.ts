/**
 * @module lineage-data
 * Realistic OpenLineage events for the lineage benchmarks: Spark/Airflow/dbt producers, runs with
 * START/RUNNING/COMPLETE/FAIL lifecycles, jobs spread over namespaces, and sizes from about 1 KB to
 * 50 KB made of what real events carry (schema and column-lineage facets, SQL), so they compress
 * like real events do rather than like padding.
 */
import { randomUUID } from 'node:crypto';

/** Deterministic pseudo-random numbers in [0, 1). */
export const seededRandom = (seed: number) => () => {
  // mulberry32: 32-bit integer arithmetic throughout (a float LCG such as seed * 1103515245 loses
  // precision past 2^53 and collapses into a short cycle).
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
};

const PRODUCERS = [
  'https://github.com/OpenLineage/OpenLineage/tree/1.19.0/integration/spark',
  'https://github.com/apache/airflow/tree/providers-openlineage/1.10.0',
  'https://github.com/OpenLineage/OpenLineage/tree/1.20.0/integration/dbt',
  'https://github.com/OpenLineage/OpenLineage/tree/1.18.0/integration/flink',
];
const WORDS = ['orders', 'customers', 'payments', 'events', 'sessions', 'inventory', 'shipments', 'invoices', 'products', 'clicks', 'refunds', 'ledger'];
const TYPES = ['VARCHAR', 'BIGINT', 'DOUBLE', 'TIMESTAMP', 'BOOLEAN', 'DECIMAL(18,2)', 'DATE'];

/** The target size (bytes) of the next event: 1–50 KB, most of them small, as producers send. */
export const sizeMix = (random: () => number): number => {
  const r = random();
  if (r < 0.5) return 1_024 + Math.floor(random() * 3 * 1_024); // 1–4 KB: Airflow task events
  if (r < 0.8) return 4 * 1_024 + Math.floor(random() * 12 * 1_024); // 4–16 KB: with schema facets
  return 16 * 1_024 + Math.floor(random() * 34 * 1_024); // 16–50 KB: Spark with column lineage
};

/** What one generated event is about. */
export interface EventShape {
  readonly runId: string;
  readonly state: 'START' | 'RUNNING' | 'COMPLETE' | 'FAIL' | 'ABORT' | 'OTHER';
  readonly namespace: string;
  readonly job: string;
  readonly epochMs: number;
  readonly targetBytes: number;
  readonly producer: string;
}

/** A schema facet with enough fields to bring the event near `bytes`. */
const schemaFields = (random: () => number, bytes: number): { name: string; type: string; description: string }[] => {
  const fields: { name: string; type: string; description: string }[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const word = WORDS[Math.floor(random() * WORDS.length)] as string;
    const field = { name: `${word}_${i}`, type: TYPES[Math.floor(random() * TYPES.length)] as string, description: `${word} attribute ${i} (${Math.floor(random() * 1e6)})` };
    fields.push(field);
    size += JSON.stringify(field).length + 1;
  }
  return fields;
};

/** The JSON text of an event of about `shape.targetBytes` bytes. */
export function eventJson(shape: EventShape, random: () => number): string {
  const base = {
    eventType: shape.state,
    eventTime: new Date(shape.epochMs).toISOString(),
    producer: shape.producer,
    schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
    run: {
      runId: shape.runId,
      facets: {
        parent: { _producer: shape.producer, _schemaURL: 'https://openlineage.io/spec/facets/1-0-1/ParentRunFacet.json#/$defs/ParentRunFacet', run: { runId: randomUUID() }, job: { namespace: shape.namespace, name: 'scheduler_dag' } },
        processing_engine: { _producer: shape.producer, _schemaURL: 'https://openlineage.io/spec/facets/1-1-1/ProcessingEngineRunFacet.json#/$defs/ProcessingEngineRunFacet', version: '3.5.1', name: 'spark', openlineageAdapterVersion: '1.19.0' },
      },
    },
    job: {
      namespace: shape.namespace,
      name: shape.job,
      facets: { sql: { _producer: shape.producer, _schemaURL: 'https://openlineage.io/spec/facets/1-0-1/SQLJobFacet.json#/$defs/SQLJobFacet', query: `INSERT INTO ${shape.job} SELECT * FROM staging.${shape.job} WHERE ds = '2024-01-01'` } },
    },
    inputs: [{ namespace: 's3://raw', name: `landing/${shape.job}`, facets: {} as Record<string, unknown> }],
    outputs: [{ namespace: 's3://lake', name: `warehouse/${shape.job}`, facets: {} as Record<string, unknown> }],
  };
  const room = shape.targetBytes - JSON.stringify(base).length;
  if (room > 200) {
    base.inputs[0] = {
      ...(base.inputs[0] as { namespace: string; name: string }),
      facets: { schema: { _producer: shape.producer, _schemaURL: 'https://openlineage.io/spec/facets/1-1-1/SchemaDatasetFacet.json#/$defs/SchemaDatasetFacet', fields: schemaFields(random, room) } },
    };
  }
  return JSON.stringify(base);
}

/** Run lifecycles: most runs complete, some fail or are aborted, a few report progress. */
export const lifecycle = (random: () => number): EventShape['state'][] => {
  const r = random();
  if (r < 0.8) return random() < 0.3 ? ['START', 'RUNNING', 'COMPLETE'] : ['START', 'COMPLETE'];
  if (r < 0.92) return ['START', 'FAIL'];
  if (r < 0.96) return ['START', 'ABORT'];
  return ['OTHER'];
};

/** Jobs of the generated events: each is about 0.1% of them, so a full job name is a selective filter. */
export const JOBS = 1_000;

/** Job names: `<word>_pipeline.task_<n>`, so a substring such as `orders` matches about 1 in 12 and `task_421` one job. */
export const jobName = (random: () => number, jobs: number): string => {
  const n = Math.floor(random() * jobs);
  return `${WORDS[n % WORDS.length]}_pipeline.task_${n}`;
};

/**
 * Namespaces as a warehouse has them: 20 large ones (`ns_0`…`ns_19`) hold 90% of the events, and
 * 100 small ones (`ns_tail_0`…`ns_tail_99`) about 0.1% each — the selective filters of the listing
 * benchmark.
 */
export const namespaceName = (random: () => number): string => (random() < 0.1 ? `ns_tail_${Math.floor(random() * 100)}` : `ns_${Math.floor(random() * 20)}`);

/**
 * Events of `runs` runs whose START times spread over `spanMs` from `fromMs`.
 *
 * @param sizeOf - target size of each event
 */
export function* runEvents(random: () => number, runs: number, fromMs: number, spanMs: number, sizeOf: (random: () => number) => number): Generator<{ shape: EventShape; text: string }> {
  for (let r = 0; r < runs; r++) {
    const runId = randomUUID();
    const namespace = namespaceName(random);
    const job = jobName(random, JOBS);
    const producer = PRODUCERS[Math.floor(random() * PRODUCERS.length)] as string;
    let t = fromMs + Math.floor(random() * spanMs);
    for (const state of lifecycle(random)) {
      const shape: EventShape = { runId, state, namespace, job, epochMs: t, targetBytes: sizeOf(random), producer };
      yield { shape, text: eventJson(shape, random) };
      t += 1_000 + Math.floor(random() * 600_000);
    }
  }
}
