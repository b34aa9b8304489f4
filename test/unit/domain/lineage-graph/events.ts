// Builds stored events the way ingestion derives them, for the lineage-graph domain tests: from
// the OpenLineage example files, or from small run-event descriptions.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { prepareEvent } from '#domain/lineage/derive';
import type { StoredLineageEvent } from '#domain/lineage/types';
import { EXAMPLES_DIR } from '../lineage/examples.ts';

/** A stored event derived from a parsed OpenLineage event, as ingestion stores it. */
export const stored = (raw: unknown): StoredLineageEvent => {
  const text = JSON.stringify(raw);
  const prepared = prepareEvent(JSON.parse(text), Buffer.byteLength(text), new Date('2030-01-01T00:00:00Z'));
  if (!prepared.ok) throw new Error(`invalid test event: ${prepared.error}`);
  return prepared.event;
};

/** Stored events of example files (`marquez/apples/1_pick_apples.json`, …). */
export const exampleEvents = (...names: string[]): StoredLineageEvent[] => names.map((name) => stored(JSON.parse(readFileSync(path.join(EXAMPLES_DIR, name), 'utf8'))));

/** The eight apples events, in file order. */
export const APPLES = ['1_pick_apples', '2_apple_filling', '3_apple_cider', '5_apple_vinegar', '6_apple_pie', '7_pick_different_apples', '8_apple_filling', '9_apple_pie'].map(
  (n) => `marquez/apples/${n}.json`,
);

/** A dataset in an event. */
export interface DatasetSpec {
  namespace: string;
  name: string;
  facets?: Record<string, unknown>;
  inputFacets?: Record<string, unknown>;
  outputFacets?: Record<string, unknown>;
}

/** A compact run event. */
export interface RunEventSpec {
  eventType?: 'START' | 'RUNNING' | 'COMPLETE' | 'FAIL' | 'ABORT' | 'OTHER';
  time: string;
  runId: string;
  job: string | { namespace: string; name: string };
  inputs?: Array<string | DatasetSpec>;
  outputs?: Array<string | DatasetSpec>;
  runFacets?: Record<string, unknown>;
  jobFacets?: Record<string, unknown>;
}

const PRODUCER = 'https://github.com/OpenLineage/OpenLineage/tree/1.19.0/integration/spark';
const SCHEMA_URL = 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent';

/** `ns:name` (split at the last colon) or a full dataset. */
const dataset = (d: string | DatasetSpec): DatasetSpec => {
  if (typeof d !== 'string') return d;
  const at = d.lastIndexOf(':');
  return { namespace: d.slice(0, at), name: d.slice(at + 1) };
};

/** The OpenLineage JSON of a compact run event. */
export const runEventJson = (spec: RunEventSpec): Record<string, unknown> => {
  const job = typeof spec.job === 'string' ? { namespace: 'etl', name: spec.job } : spec.job;
  return {
    ...(spec.eventType === undefined ? {} : { eventType: spec.eventType }),
    eventTime: spec.time,
    producer: PRODUCER,
    schemaURL: SCHEMA_URL,
    run: { runId: spec.runId, ...(spec.runFacets ? { facets: spec.runFacets } : {}) },
    job: { ...job, ...(spec.jobFacets ? { facets: spec.jobFacets } : {}) },
    inputs: (spec.inputs ?? []).map(dataset),
    outputs: (spec.outputs ?? []).map(dataset),
  };
};

/** A stored run event. */
export const runEvent = (spec: RunEventSpec): StoredLineageEvent => stored(runEventJson(spec));

/** A fresh run id. */
export const newRunId = (): string => randomUUID();

/** A seeded pseudo-random generator (mulberry32), for reproducible shuffles. */
export const seeded = (seed: number): (() => number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

/** A shuffled copy (Fisher–Yates). */
export const shuffled = <T>(items: readonly T[], random: () => number): T[] => {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
};
