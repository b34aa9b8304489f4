/**
 * @module lineage-graph/merge
 * What one stored event contributes to the model, and how contributions join. Every join here is
 * commutative, associative and idempotent (a state-based CRDT), so events in any order, duplicates
 * and replays give the same records, and a rebuild from the stored events gives exactly what
 * incremental maintenance gave.
 */
import { canonicalJson } from '../lineage/event-id.ts';
import { parseEventTime } from '../lineage/event-time.ts';
import type { StoredLineageEvent } from '../lineage/types.ts';
import { eventKey, facetWrites, hourlyKey, liveFacet, liveFacets, mergeFacetMaps, type FacetMap } from './facets.ts';
import { datasetIdOf, jobIdOf, staticRunIdOf, type QualifiedName } from './ids.ts';
import type { DatasetRecord, DatasetWriter, JobType, MarquezRunState, ParentRef, RunDataset, RunRecord, RunSummary, TerminalState } from './records.ts';

/**
 * A stored event as the model reads it: the events endpoint's stored event (fields derived by
 * `lineage/derive.ts`) or any object with these fields. `event_time` is the fixed-width UTC form
 * derive.ts writes, so times compare as strings.
 */
export type ModelEvent = Pick<StoredLineageEvent, 'id' | 'event_schema' | 'event_time' | 'run_id' | 'run_state' | 'job_namespace' | 'job_name' | 'event_raw'>;

type Json = Record<string, unknown>;
const asRecord = (value: unknown): Json | undefined => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined);
const TERMINAL: ReadonlySet<string> = new Set(['COMPLETE', 'FAIL', 'ABORT']);

const minOf = (a: string, b: string): string => (a <= b ? a : b);
const maxOf = (a: string, b: string): string => (a >= b ? a : b);
const minNullable = (a: string | null, b: string | null): string | null => (a === null ? b : b === null ? a : minOf(a, b));
const maxNullable = (a: string | null, b: string | null): string | null => (a === null ? b : b === null ? a : maxOf(a, b));
const laterByKey = <T extends { readonly k: string }>(a: T | null, b: T | null): T | null => {
  if (a === null) return b;
  if (b === null) return a;
  if (a.k !== b.k) return a.k > b.k ? a : b;
  return canonicalJson(a) >= canonicalJson(b) ? a : b;
};

/** The datasets of an event's `inputs` or `outputs`, by id, with the facets the event sets. */
const runDatasets = (list: unknown, ioFacetsKey: 'inputFacets' | 'outputFacets', key: string): Record<string, RunDataset> => {
  const out: Record<string, RunDataset> = {};
  if (!Array.isArray(list)) return out;
  for (const item of list) {
    const dataset = asRecord(item);
    if (typeof dataset?.namespace !== 'string' || typeof dataset.name !== 'string') continue;
    const entry: RunDataset = {
      namespace: dataset.namespace,
      name: dataset.name,
      facets: facetWrites(dataset.facets, () => key),
      ioFacets: facetWrites(dataset[ioFacetsKey], () => key),
    };
    const id = datasetIdOf(entry);
    out[id] = out[id] ? mergeRunDataset(out[id], entry) : entry;
  }
  return out;
};

const mergeRunDataset = (a: RunDataset, b: RunDataset): RunDataset => ({
  namespace: a.namespace,
  name: a.name,
  facets: mergeFacetMaps(a.facets, b.facets),
  ioFacets: mergeFacetMaps(a.ioFacets, b.ioFacets),
});

const mergeDatasetMaps = (a: Readonly<Record<string, RunDataset>>, b: Readonly<Record<string, RunDataset>>): Record<string, RunDataset> => {
  const out: Record<string, RunDataset> = { ...a };
  for (const [id, entry] of Object.entries(b)) out[id] = out[id] ? mergeRunDataset(out[id], entry) : entry;
  return out;
};

/**
 * The run an event describes on its own: a RunEvent's run, or the job version of a JobEvent
 * (static lineage, a synthetic run keyed by the event). DatasetEvents describe no run.
 */
export function runOfEvent(event: ModelEvent): RunRecord | undefined {
  const raw = event.event_raw as Json;
  const isRun = event.event_schema === 'RunEvent' && event.run_id !== null;
  if (!isRun && event.event_schema !== 'JobEvent') return undefined;
  if (event.job_namespace === null || event.job_name === null) return undefined;
  const key = eventKey(event.event_time, event.id);
  const time = event.event_time;
  const state = event.run_state;
  return {
    runId: isRun ? (event.run_id as string) : staticRunIdOf(event.id),
    job: { k: key, namespace: event.job_namespace, name: event.job_name },
    t0: time,
    tMax: time,
    startedAt: isRun && (state === 'START' || state === 'RUNNING') ? time : null,
    terminal: isRun && TERMINAL.has(state) ? { k: key, state: state as TerminalState, time } : null,
    runFacets: isRun ? facetWrites(asRecord(raw.run)?.facets, () => key) : {},
    jobFacets: facetWrites(asRecord(raw.job)?.facets, () => key),
    inputs: runDatasets(raw.inputs, 'inputFacets', key),
    outputs: runDatasets(raw.outputs, 'outputFacets', key),
    static: !isRun,
  };
}

/** Joins two states of the same run. */
export function mergeRuns(a: RunRecord, b: RunRecord): RunRecord {
  return {
    runId: a.runId,
    job: laterByKey(a.job, b.job) as RunRecord['job'],
    t0: minOf(a.t0, b.t0),
    tMax: maxOf(a.tMax, b.tMax),
    startedAt: minNullable(a.startedAt, b.startedAt),
    terminal: laterByKey(a.terminal, b.terminal),
    runFacets: mergeFacetMaps(a.runFacets, b.runFacets),
    jobFacets: mergeFacetMaps(a.jobFacets, b.jobFacets),
    inputs: mergeDatasetMaps(a.inputs, b.inputs),
    outputs: mergeDatasetMaps(a.outputs, b.outputs),
    static: a.static || b.static,
  };
}

/**
 * Whether a merge left a record as it was, to skip writes that would change nothing. The merges
 * keep the key order of the record they start from, so plain JSON text compares; a difference in
 * order alone would only cost a needless write.
 */
export const sameRecord = (a: unknown, b: unknown): boolean => a === b || JSON.stringify(a) === JSON.stringify(b);

/** Marquez's state of a run: the terminal state, else RUNNING once started, else NEW. */
export const marquezState = (run: RunRecord): MarquezRunState => {
  if (run.terminal) return ({ COMPLETE: 'COMPLETED', FAIL: 'FAILED', ABORT: 'ABORTED' } as const)[run.terminal.state];
  return run.startedAt === null ? 'NEW' : 'RUNNING';
};

/** A time from a facet, normalized like `event_time`; null when absent or not a date-time. */
const facetTime = (value: unknown): string | null => {
  if (typeof value !== 'string') return null;
  try {
    return parseEventTime(value).iso;
  } catch {
    return null;
  }
};

/** The summary a job head keeps of a run. */
export const runSummaryOf = (run: RunRecord): RunSummary => {
  const nominal = asRecord(liveFacet(run.runFacets, 'nominalTime'));
  return {
    runId: run.runId,
    state: marquezState(run),
    t0: run.t0,
    tMax: run.tMax,
    startedAt: run.startedAt,
    endedAt: run.terminal?.time ?? null,
    nominalStartTime: facetTime(nominal?.nominalStartTime),
    nominalEndTime: facetTime(nominal?.nominalEndTime),
    facets: liveFacets(run.runFacets),
  };
};

/** The parent run and job of a run (`parent` run facet), when it names a job. */
export const parentOf = (run: RunRecord): ParentRef | null => {
  const parent = asRecord(liveFacet(run.runFacets, 'parent'));
  const job = asRecord(parent?.job);
  if (typeof job?.namespace !== 'string' || typeof job.name !== 'string') return null;
  const runId = asRecord(parent?.run)?.runId;
  const uuid = typeof runId === 'string' ? /^(?:urn:uuid:)?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i.exec(runId)?.[1] : undefined;
  return { runId: uuid?.toLowerCase() ?? null, namespace: job.namespace, name: job.name };
};

/** STREAM when the `jobType` job facet says `processingType: STREAMING`, else BATCH. */
export const jobTypeOf = (jobFacets: FacetMap): JobType =>
  String(asRecord(liveFacet(jobFacets, 'jobType'))?.processingType ?? '').toUpperCase() === 'STREAMING' ? 'STREAM' : 'BATCH';

/** What one event tells about one dataset name. */
export interface DatasetContribution {
  readonly record: DatasetRecord;
  /** The job that wrote it (outputs of RunEvents and JobEvents). */
  readonly writerJobId?: string;
  /** The job that read it. */
  readonly readerJobId?: string;
}

/** `TABLE` identifiers of a `symlinks` facet, other than the dataset itself. */
export const symlinkTargetsOf = (self: QualifiedName, symlinks: unknown): QualifiedName[] => {
  const identifiers = asRecord(symlinks)?.identifiers;
  if (!Array.isArray(identifiers)) return [];
  const out: QualifiedName[] = [];
  for (const item of identifiers) {
    const id = asRecord(item);
    if (typeof id?.namespace !== 'string' || typeof id.name !== 'string' || typeof id.type !== 'string') continue;
    if (id.type.toUpperCase() !== 'TABLE' || (id.namespace === self.namespace && id.name === self.name)) continue;
    out.push({ namespace: id.namespace, name: id.name });
  }
  return out;
};

const compareNames = (a: QualifiedName, b: QualifiedName): number =>
  a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;

const unionNames = (a: readonly QualifiedName[], b: readonly QualifiedName[]): QualifiedName[] => {
  if (b.length === 0) return [...a];
  const all = [...a, ...b].sort(compareNames);
  return all.filter((n, i) => i === 0 || compareNames(n, all[i - 1] as QualifiedName) !== 0);
};

/** The name a dataset resolves to: its least `TABLE` symlink target, else itself. */
export const canonicalNameOf = (dataset: QualifiedName & { readonly symlinkTargets: readonly QualifiedName[] }): QualifiedName =>
  dataset.symlinkTargets[0] ?? { namespace: dataset.namespace, name: dataset.name };

const contribution = (ref: QualifiedName, facets: FacetMap, symlinks: unknown, time: string, updatedAt: string, extra: Partial<DatasetRecord>): DatasetRecord => ({
  datasetId: datasetIdOf(ref),
  namespace: ref.namespace,
  name: ref.name,
  createdAt: time,
  updatedAt,
  lastModifiedAt: null,
  facets,
  writer: null,
  symlinkTargets: symlinkTargetsOf(ref, symlinks).sort(compareNames),
  ...extra,
});

/** Facet registers re-keyed as observations (hour + value hash, see `facets.ts`). */
const observed = (facets: FacetMap, time: string): FacetMap =>
  Object.fromEntries(Object.entries(facets).map(([name, entry]) => [name, { ...entry, k: hourlyKey(time, entry.d ? { _deleted: true } : entry.v) }]));

/**
 * What an event tells about each dataset it names. Only *writes* move a dataset's registers: the
 * outputs of COMPLETE events (and of RUNNING events: a streaming job writes while it runs) and
 * DatasetEvents. Their facets win over anything observed, stamped with the event's (time, id); they
 * set `updatedAt`, and an output records the run that wrote it (its current version) and, for a
 * COMPLETE, the modification time. Everything else only *observes* a dataset — inputs, the outputs
 * a START announces, a JobEvent's static lineage: its facets fill what no write set, stamped by
 * the hour, and it moves no time but `createdAt`. So a dataset is rewritten about once per run that
 * writes it, and a source read by thousands of jobs is not rewritten on every event.
 */
export function datasetContributions(event: ModelEvent): DatasetContribution[] {
  const raw = event.event_raw as Json;
  const time = event.event_time;
  const key = eventKey(time, event.id);
  const out: DatasetContribution[] = [];
  if (event.event_schema === 'DatasetEvent') {
    const dataset = asRecord(raw.dataset);
    if (typeof dataset?.namespace === 'string' && typeof dataset.name === 'string') {
      const ref = { namespace: dataset.namespace, name: dataset.name };
      out.push({ record: contribution(ref, facetWrites(dataset.facets, () => key), asRecord(dataset.facets)?.symlinks, time, time, {}) });
    }
    return out;
  }
  const run = runOfEvent(event);
  if (run === undefined) return out;
  const jobId = jobIdOf(run.job);
  const writes = !run.static && (event.run_state === 'COMPLETE' || event.run_state === 'RUNNING');
  const writer: DatasetWriter | null = writes ? { k: key, runId: run.runId, job: { namespace: run.job.namespace, name: run.job.name } } : null;
  for (const dataset of Object.values(run.outputs)) {
    const symlinks = liveFacet(dataset.facets, 'symlinks');
    const record = writes
      ? contribution(dataset, dataset.facets, symlinks, time, time, { writer, lastModifiedAt: event.run_state === 'COMPLETE' ? time : null })
      : contribution(dataset, observed(dataset.facets, time), symlinks, time, '', {});
    out.push({ record, writerJobId: jobId });
  }
  for (const dataset of Object.values(run.inputs)) {
    out.push({ record: contribution(dataset, observed(dataset.facets, time), liveFacet(dataset.facets, 'symlinks'), time, '', {}), readerJobId: jobId });
  }
  return out;
}

/** Joins two states of one dataset name. */
export function mergeDatasets(a: DatasetRecord, b: DatasetRecord): DatasetRecord {
  return {
    datasetId: a.datasetId,
    namespace: a.namespace,
    name: a.name,
    createdAt: minOf(a.createdAt, b.createdAt),
    updatedAt: maxOf(a.updatedAt, b.updatedAt),
    lastModifiedAt: maxNullable(a.lastModifiedAt, b.lastModifiedAt),
    facets: mergeFacetMaps(a.facets, b.facets),
    writer: laterByKey(a.writer, b.writer),
    symlinkTargets: unionNames(a.symlinkTargets, b.symlinkTargets),
  };
}

/** The input datasets a `columnLineage` facet names (both layouts), as ids. */
export function columnLineageInputIds(facet: unknown): string[] {
  const ids = new Set<string>();
  const add = (field: unknown) => {
    const f = asRecord(field);
    if (typeof f?.namespace === 'string' && typeof f.name === 'string') ids.add(datasetIdOf({ namespace: f.namespace, name: f.name }));
  };
  const value = asRecord(facet);
  for (const entry of Object.values(asRecord(value?.fields) ?? {})) {
    const inputs = asRecord(entry)?.inputFields;
    if (Array.isArray(inputs)) inputs.forEach(add);
  }
  if (Array.isArray(value?.dataset)) value.dataset.forEach(add);
  return [...ids].sort();
}
