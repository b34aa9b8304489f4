/**
 * @module staged-lineage
 * A large lineage graph of known shape, for the console's 500-node benchmark and browser test:
 * 240 jobs in 10 stages of 24, each reading two datasets of its stage and writing one of the next
 * (264 datasets, 720 edges). Any job's graph at the default depth is the whole of it.
 */

/** Stages of jobs. */
export const STAGES = 10;
/** Jobs per stage (and datasets per stage boundary). */
export const WIDTH = 24;
/** Nodes of the whole graph: the jobs and the datasets between and around the stages. */
export const STAGED_NODES = STAGES * WIDTH + (STAGES + 1) * WIDTH;
/** Edges of the whole graph: two inputs and one output per job. */
export const STAGED_EDGES = STAGES * WIDTH * 3;

const PRODUCER = 'https://github.com/OpenLineage/OpenLineage/tree/1.19.0/integration/spark';
const SCHEMA_URL = 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent';

const dataset = (namespace: string, stage: number, i: number) => ({ namespace, name: `stage${stage}.table${(i + WIDTH) % WIDTH}` });

/** The COMPLETE event of job `i` of `stage`: two inputs of its stage, one output in the next. */
export const stagedJobEvent = (namespace: string, stage: number, i: number) => ({
  eventType: 'COMPLETE',
  eventTime: new Date(Date.UTC(2026, 0, 1, stage, i)).toISOString(),
  producer: PRODUCER,
  schemaURL: SCHEMA_URL,
  run: { runId: `0194c000-0000-7000-8000-${String(stage * 1000 + i).padStart(12, '0')}` },
  job: { namespace, name: `stage${stage}.job${i}` },
  inputs: [dataset(namespace, stage, i), dataset(namespace, stage, i + 1)],
  outputs: [dataset(namespace, stage + 1, i)],
});

/** Every job's event, stage by stage. */
export const stagedJobEvents = (namespace: string) => Array.from({ length: STAGES * WIDTH }, (_, k) => stagedJobEvent(namespace, Math.floor(k / WIDTH), k % WIDTH));

/** The node id of a job in the middle of the graph. */
export const stagedMiddleJob = (namespace: string): string => `job:${namespace}:stage${STAGES / 2}.job0`;
