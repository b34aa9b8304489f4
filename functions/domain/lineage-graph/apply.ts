/**
 * @module lineage-graph/apply
 * The consumer: applies a batch of stored events to an organization's lineage model. It runs
 * after ingestion, not in the ingest request (DynamoDB Streams → a Lambda in AWS; the same code
 * in-process locally), and may run several times at once, on overlapping batches, or again on a
 * batch it already applied: every write is a merge (see `merge.ts`) behind a compare-and-set, so
 * the model converges to the same state whatever happens.
 *
 * Order of writes, chosen so that a crash anywhere loses nothing when the batch is applied again
 * (and so that a reader never sees a job head naming a dataset that does not know the job):
 * runs → order and parent entries → dataset names (listings, sets, records) → namespaces, tags and
 * job listings → job heads.
 */
import { floorToHour, liveFacet, liveFacets } from './facets.ts';
import { datasetIdOf, jobIdOf, type QualifiedName } from './ids.ts';
import {
  columnLineageInputIds,
  datasetContributions,
  jobTypeOf,
  mergeDatasets,
  mergeRuns,
  parentOf,
  runOfEvent,
  runSummaryOf,
  sameRecord,
  type DatasetContribution,
  type ModelEvent,
} from './merge.ts';
import type { DatasetSetAdd, IndexEntry, LineageModelReader, LineageModelWriter, LineageModelWrites, Versioned } from './ports.ts';
import { mergeTags } from './tags.ts';
import { emptyJobHead, ordOf, type DatasetRecord, type DatasetRef, type JobHeadRecord, type NamespaceRecord, type RunRecord } from './records.ts';

/** What applying a batch did, for logs and benchmarks. */
export interface ApplySummary {
  readonly events: number;
  readonly runs: number;
  readonly jobs: number;
  readonly datasets: number;
  /** Compare-and-set writes that lost to a concurrent writer and were redone. */
  readonly conflicts: number;
}

/** Attempts per record before giving up on a compare-and-set (each attempt re-reads). */
const MAX_ATTEMPTS = 50;

/**
 * Applies stored events to an organization's lineage model: the current generation, and the one a
 * rebuild is filling, if any. Safe to call concurrently and repeatedly with overlapping batches.
 *
 * @param events - stored events in any order (duplicates allowed), e.g. a DynamoDB Streams batch
 * @throws when the store fails; the whole batch may then be applied again
 */
export async function applyEventsToLineageModel(store: Pick<LineageModelWrites, 'modelsToWrite'>, orgId: string, events: readonly ModelEvent[]): Promise<ApplySummary> {
  const models = await store.modelsToWrite(orgId);
  let summary: ApplySummary | undefined;
  for (const model of models) summary = await applyEventsToModel(model, events);
  return summary ?? { events: 0, runs: 0, jobs: 0, datasets: 0, conflicts: 0 };
}

/** What the batch did to one run. */
interface RunChange {
  readonly before: RunRecord | undefined;
  readonly after: RunRecord;
  readonly rev: number;
}

interface Counters {
  conflicts: number;
}

/**
 * Applies stored events to one model (one generation), then tells readers which records it touched
 * — also when it fails part way, since what it wrote before failing stays. See
 * {@link applyEventsToLineageModel}.
 */
export async function applyEventsToModel(model: LineageModelWriter, events: readonly ModelEvent[]): Promise<ApplySummary> {
  let summary: ApplySummary;
  try {
    summary = await mergeEvents(model, events);
  } catch (err) {
    await model.publishChanges().catch(() => undefined);
    throw err;
  }
  await model.publishChanges();
  return summary;
}

async function mergeEvents(model: LineageModelWriter, events: readonly ModelEvent[]): Promise<ApplySummary> {
  const unique = [...new Map(events.map((e) => [e.id, e])).values()];
  const counters: Counters = { conflicts: 0 };

  const batchRuns = new Map<string, RunRecord>();
  const jobTimes = new Map<string, { job: QualifiedName; min: string; max: string }>();
  for (const event of unique) {
    const run = runOfEvent(event);
    if (run === undefined) continue;
    const known = batchRuns.get(run.runId);
    batchRuns.set(run.runId, known ? mergeRuns(known, run) : run);
    const jobId = jobIdOf(run.job);
    const times = jobTimes.get(jobId);
    jobTimes.set(jobId, {
      job: { namespace: run.job.namespace, name: run.job.name },
      min: times && times.min < event.event_time ? times.min : event.event_time,
      max: times && times.max > event.event_time ? times.max : event.event_time,
    });
  }

  const contributions = unique.map((event) => ({ event, datasets: datasetContributions(event) }));
  const runChanges = await mergeRunRecords(model, batchRuns, counters);
  await writeIndexEntries(model, runChanges);
  const previousHeads = await model.getJobHeads([...jobTimes.keys()]);
  const datasetCount = await mergeDatasetRecords(model, contributions, previousHeads, counters);
  await mergeNamespaces(model, contributions, counters);
  await mergeTags(model, unique);
  const newJobs = [...jobTimes].filter(([jobId]) => !previousHeads.has(jobId)).map(([jobId, { job }]) => ({ ...job, jobId }));
  if (newJobs.length > 0) await model.putJobListings(newJobs);
  await updateJobHeads(model, jobTimes, runChanges, counters);
  return { events: unique.length, runs: batchRuns.size, jobs: jobTimes.size, datasets: datasetCount, conflicts: counters.conflicts };
}

/** Merges the batch's runs into the stored ones (compare-and-set, re-read on conflict). */
async function mergeRunRecords(model: LineageModelWriter, batchRuns: ReadonlyMap<string, RunRecord>, counters: Counters): Promise<RunChange[]> {
  const changes: RunChange[] = [];
  let pending = [...batchRuns.keys()];
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt >= MAX_ATTEMPTS) throw new Error(`lineage model: runs kept changing under ${MAX_ATTEMPTS} attempts (${pending.length} left)`);
    const stored = await model.getRuns(pending);
    const retry: string[] = [];
    await Promise.all(
      pending.map(async (runId) => {
        const incoming = batchRuns.get(runId) as RunRecord;
        const current = stored.get(runId);
        const after = current ? mergeRuns(current.value, incoming) : incoming;
        if (current && sameRecord(current.value, after)) {
          changes.push({ before: current.value, after, rev: current.rev });
          return;
        }
        const rev = await model.putRun(after, current?.rev ?? null);
        if (rev === null) {
          counters.conflicts++;
          retry.push(runId);
        } else changes.push({ before: current?.value, after, rev });
      }),
    );
    pending = retry;
  }
  return changes;
}

/** The order and parent entries a run's state calls for. */
const entriesOf = (run: RunRecord): IndexEntry[] => {
  const ord = ordOf(run);
  const entries: IndexEntry[] = [{ kind: 'run-order', jobId: jobIdOf(run.job), ord, ...(run.static ? { static: true as const } : {}) }];
  if (!run.static) for (const datasetId of Object.keys(run.outputs)) entries.push({ kind: 'version-order', datasetId, ord });
  const parent = parentOf(run);
  if (parent?.runId) entries.push({ kind: 'child', parentRunId: parent.runId, childRunId: run.runId, parentJob: { namespace: parent.namespace, name: parent.name } });
  return entries;
};

const entryKey = (e: IndexEntry): string =>
  e.kind === 'run-order' ? `o|${e.jobId}|${e.ord}` : e.kind === 'version-order' ? `v|${e.datasetId}|${e.ord}` : `c|${e.parentRunId}|${e.childRunId}`;

/**
 * Writes the entries that place each run in its job's and its outputs' histories (only those not
 * stored yet), drops the ones its previous time called for, then re-reads the runs: an entry
 * written for a time a concurrent consumer has since moved the run away from is deleted again.
 * Readers check entries against the runs anyway, so a leftover is never shown.
 */
async function writeIndexEntries(model: LineageModelWriter, changes: readonly RunChange[]): Promise<void> {
  const runOfEntry = new Map<string, string>();
  const wanted: IndexEntry[] = [];
  for (const change of changes) {
    for (const entry of entriesOf(change.after)) {
      runOfEntry.set(entryKey(entry), change.after.runId);
      wanted.push(entry);
    }
  }
  const missing = await model.findMissingEntries(wanted);
  if (missing.length > 0) await model.putEntries(missing);
  const obsolete = changes.flatMap((c) => (c.before ? entriesOf(c.before) : [])).filter((e) => e.kind !== 'child' && !runOfEntry.has(entryKey(e)));
  if (obsolete.length > 0) await model.deleteEntries(obsolete);
  const ordered = missing.filter((e) => e.kind !== 'child');
  if (ordered.length === 0) return;
  const now = await model.getRuns([...new Set(ordered.map((e) => runOfEntry.get(entryKey(e)) as string))]);
  const valid = new Set([...now.values()].flatMap((r) => entriesOf(r.value).map(entryKey)));
  const stale = ordered.filter((e) => !valid.has(entryKey(e)));
  if (stale.length > 0) await model.deleteEntries(stale);
}

/** What the batch tells about one dataset name. */
interface DatasetBatch {
  record: DatasetRecord;
  writers: Set<string>;
  readers: Set<string>;
}

/**
 * Merges the batch's dataset facts: lists new names in their namespace, adds jobs to the names'
 * writer and reader sets (skipping a job whose current version already had the name in that role:
 * it was added before that version became current), links column-lineage inputs and symlink
 * targets, then merges the records (compare-and-set). A name's writer and reader additions go in
 * the same write as its record when the batch changes the record (both or neither), else on their
 * own; the job heads that would skip them are written last, so a replay after a crash adds them
 * again. The links to other names are added before the record that calls for them is written, so
 * a replay adds them again too.
 */
/** An event with what it tells about each dataset it names. */
interface Contributions {
  readonly event: ModelEvent;
  readonly datasets: readonly DatasetContribution[];
}

async function mergeDatasetRecords(
  model: LineageModelWriter,
  events: readonly Contributions[],
  previousHeads: ReadonlyMap<string, Versioned<JobHeadRecord>>,
  counters: Counters,
): Promise<number> {
  const batch = new Map<string, DatasetBatch>();
  for (const { datasets } of events) {
    for (const c of datasets) {
      const known = batch.get(c.record.datasetId);
      const entry = known ?? { record: c.record, writers: new Set<string>(), readers: new Set<string>() };
      if (known) entry.record = mergeDatasets(known.record, c.record);
      if (c.writerJobId) entry.writers.add(c.writerJobId);
      if (c.readerJobId) entry.readers.add(c.readerJobId);
      batch.set(c.record.datasetId, entry);
    }
  }
  if (batch.size === 0) return 0;

  const already = (jobId: string, datasetId: string, role: 'inputs' | 'outputs'): boolean =>
    previousHeads.get(jobId)?.value[role].some((d) => d.id === datasetId) ?? false;
  // Writer and reader sets not yet added, by dataset: added in the same write as the dataset's
  // record when the batch changes it (one request per dataset, not two), else on their own.
  const unsentSetAdds = new Map<string, DatasetSetAdd[]>();
  for (const [datasetId, { record, writers, readers }] of batch) {
    const ref = { datasetId, namespace: record.namespace, name: record.name };
    const newWriters = [...writers].filter((j) => !already(j, datasetId, 'outputs'));
    const newReaders = [...readers].filter((j) => !already(j, datasetId, 'inputs'));
    const adds: DatasetSetAdd[] = [];
    if (newWriters.length > 0) adds.push({ ...ref, set: 'writers', members: newWriters.sort() });
    if (newReaders.length > 0) adds.push({ ...ref, set: 'readers', members: newReaders.sort() });
    if (adds.length > 0) unsentSetAdds.set(datasetId, adds);
  }
  /** Takes a dataset's set additions not sent yet (each is sent once). */
  const takeSetAdds = (datasetId: string): DatasetSetAdd[] => {
    const adds = unsentSetAdds.get(datasetId) ?? [];
    unsentSetAdds.delete(datasetId);
    return adds;
  };

  // What this call already added or listed: a retry after a conflict need not send it again.
  const done = new Set<string>();
  const once = <T>(items: readonly T[], key: (item: T) => string): T[] =>
    items.filter((item) => {
      const k = key(item);
      if (done.has(k)) return false;
      done.add(k);
      return true;
    });
  // Set additions of records whose write lost its compare-and-set: sent on their own before the
  // retry (folded again, they could keep failing on a full set's room condition).
  let separateSetAdds: DatasetSetAdd[] = [];
  let pending = [...batch.keys()];
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt >= MAX_ATTEMPTS) throw new Error(`lineage model: datasets kept changing under ${MAX_ATTEMPTS} attempts`);
    const stored = await model.getDatasets(pending);
    const retry: string[] = [];
    const links: DatasetSetAdd[] = separateSetAdds;
    separateSetAdds = [];
    const listings: Array<Parameters<LineageModelWriter['putDatasetListing']>[0]> = [];
    const writes: Array<{ id: string; after: DatasetRecord; rev: number | null; setAdds: DatasetSetAdd[] }> = [];
    for (const id of pending) {
      const incoming = (batch.get(id) as DatasetBatch).record;
      const current = stored.get(id);
      const after = current ? mergeDatasets(current.value, incoming) : incoming;
      if (current && sameRecord(current.value, after)) {
        links.push(...takeSetAdds(id));
        continue;
      }
      links.push(...newLinks(current?.value, after));
      const aliased = after.symlinkTargets.length > 0;
      if (!current || aliased !== current.value.symlinkTargets.length > 0) listings.push({ datasetId: id, namespace: after.namespace, name: after.name, aliased });
      for (const target of after.symlinkTargets.filter((t) => !current?.value.symlinkTargets.some((c) => sameName(c, t)))) {
        listings.push({ datasetId: datasetIdOf(target), ...target, aliased: false });
      }
      writes.push({ id, after, rev: current?.rev ?? null, setAdds: takeSetAdds(id) });
    }
    const newAdds = once(links, (l) => `${l.datasetId}|${l.set}|${l.members.join(',')}`);
    const newListings = once(listings, (l) => `${l.datasetId}|${l.aliased}`);
    await Promise.all([newAdds.length > 0 ? model.addToDatasetSets(newAdds) : undefined, ...newListings.map((l) => model.putDatasetListing(l))]);
    await Promise.all(
      writes.map(async ({ id, after, rev, setAdds }) => {
        if ((await model.putDataset(after, rev, setAdds)) === null) {
          counters.conflicts++;
          separateSetAdds.push(...setAdds);
          retry.push(id);
        }
      }),
    );
    pending = retry;
  }
  return batch.size;
}

const sameName = (a: QualifiedName, b: QualifiedName): boolean => a.namespace === b.namespace && a.name === b.name;

/**
 * Links a record's new state calls for: each input its (new) `columnLineage` facet names learns
 * that this dataset's columns come from it, and each new `TABLE` symlink target learns this name
 * as a member.
 */
function newLinks(before: DatasetRecord | undefined, after: DatasetRecord): DatasetSetAdd[] {
  const adds: DatasetSetAdd[] = [];
  const self = [after.datasetId];
  const previousInputs = new Set(columnLineageInputIds(before ? liveFacet(before.facets, 'columnLineage') : undefined));
  const facet = liveFacet(after.facets, 'columnLineage');
  for (const input of columnLineageInputRefs(facet)) {
    if (!previousInputs.has(input.datasetId)) adds.push({ ...input, set: 'clDown', members: self });
  }
  for (const target of after.symlinkTargets) {
    if (before?.symlinkTargets.some((t) => sameName(t, target))) continue;
    adds.push({ datasetId: datasetIdOf(target), ...target, set: 'members', members: self });
  }
  return adds;
}

/** The input dataset names a `columnLineage` facet refers to. */
function columnLineageInputRefs(facet: unknown): Array<QualifiedName & { datasetId: string }> {
  const refs = new Map<string, QualifiedName & { datasetId: string }>();
  const visit = (field: unknown) => {
    const f = field as { namespace?: unknown; name?: unknown } | null;
    if (typeof f?.namespace !== 'string' || typeof f.name !== 'string') return;
    const ref = { namespace: f.namespace, name: f.name };
    refs.set(datasetIdOf(ref), { ...ref, datasetId: datasetIdOf(ref) });
  };
  const value = facet as { fields?: Record<string, { inputFields?: unknown }>; dataset?: unknown } | null;
  for (const entry of Object.values(value?.fields ?? {})) if (Array.isArray(entry?.inputFields)) entry.inputFields.forEach(visit);
  if (Array.isArray(value?.dataset)) value.dataset.forEach(visit);
  return [...refs.values()];
}

/**
 * Namespaces: first event time and last event hour in each. The last is kept to the hour, so a busy
 * namespace's record is rewritten at most once an hour, and as the latest hour seen it is the same
 * whatever order events arrive in (the model's merges are order-independent, ADR 0031); the view
 * shows it no earlier than the first event time (`namespaceView`).
 */
async function mergeNamespaces(model: LineageModelWriter, events: readonly Contributions[], counters: Counters): Promise<void> {
  const seen = new Map<string, { min: string; max: string }>();
  const note = (namespace: string, time: string) => {
    const t = seen.get(namespace);
    const hour = floorToHour(time);
    seen.set(namespace, { min: t && t.min < time ? t.min : time, max: t && t.max > hour ? t.max : hour });
  };
  for (const { event, datasets } of events) {
    if (event.job_namespace !== null && event.event_schema !== 'DatasetEvent') note(event.job_namespace, event.event_time);
    for (const c of datasets) {
      note(c.record.namespace, event.event_time);
      for (const t of c.record.symlinkTargets) note(t.namespace, event.event_time);
    }
  }
  let pending = [...seen.keys()];
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt >= MAX_ATTEMPTS) throw new Error(`lineage model: namespaces kept changing under ${MAX_ATTEMPTS} attempts`);
    const stored = await model.getNamespaces(pending);
    const retry: string[] = [];
    await Promise.all(
      pending.map(async (name) => {
        const { min, max } = seen.get(name) as { min: string; max: string };
        const current = stored.get(name)?.value;
        const next: NamespaceRecord = {
          name,
          createdAt: current && current.createdAt < min ? current.createdAt : min,
          updatedAt: current && current.updatedAt > max ? current.updatedAt : max,
        };
        if (current && sameRecord(current, next)) return;
        if ((await model.putNamespace(next, stored.get(name)?.rev ?? null)) === null) {
          counters.conflicts++;
          retry.push(name);
        }
      }),
    );
    pending = retry;
  }
}

const refsOf = (datasets: RunRecord['inputs']): DatasetRef[] =>
  Object.entries(datasets)
    .map(([id, d]) => ({ id, namespace: d.namespace, name: d.name }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

/** The head fields that come from the current run. */
const currentVersionOf = (run: RunRecord): Pick<JobHeadRecord, 'inputs' | 'outputs' | 'run' | 'jobFacets' | 'parent' | 'type'> => ({
  inputs: refsOf(run.inputs),
  outputs: refsOf(run.outputs),
  run: run.static ? null : runSummaryOf(run),
  jobFacets: liveFacets(run.jobFacets),
  parent: parentOf(run),
  type: jobTypeOf(run.jobFacets),
});

/** A job's latest live run at or before a bound, from its order entries checked against the runs. */
export async function latestLiveRun(
  model: Pick<LineageModelReader, 'listRunOrder' | 'getRuns'>,
  jobId: string,
  before?: string,
): Promise<{ readonly run: RunRecord; readonly rev: number } | undefined> {
  let bound = before;
  for (;;) {
    const entries = await model.listRunOrder(jobId, { limit: 8, ...(bound === undefined ? {} : { before: bound }) });
    if (entries.length === 0) return undefined;
    const runs = await model.getRuns(entries.map((e) => e.runId));
    for (const entry of entries) {
      const run = runs.get(entry.runId);
      if (run && ordOf(run.value) === entry.ord && jobIdOf(run.value.job) === jobId) return { run: run.value, rev: run.rev };
    }
    bound = (entries.at(-1) as { ord: string }).ord;
  }
}

/**
 * Moves each job's head to its latest run. A run that became later than the head takes its place;
 * a fresher state of the head's own run replaces the copy (revisions decide which is fresher);
 * when the head's run moved earlier (an earlier event of it arrived) or moved to another job, the
 * head is recomputed from the order entries. Heads are read in one batch and written with
 * compare-and-set, re-read one by one on conflict. A head is written on every batch that touches
 * its job, even when nothing in it changes, so that a recomputation racing with a new run's entry
 * always loses its compare-and-set and looks again.
 */
async function updateJobHeads(
  model: LineageModelWriter,
  jobTimes: ReadonlyMap<string, { job: QualifiedName; min: string; max: string }>,
  runChanges: readonly RunChange[],
  counters: Counters,
): Promise<void> {
  const joining = new Map<string, RunChange[]>();
  const leaving = new Map<string, RunChange[]>();
  for (const change of runChanges) {
    const to = jobIdOf(change.after.job);
    joining.set(to, [...(joining.get(to) ?? []), change]);
    const from = change.before ? jobIdOf(change.before.job) : to;
    if (from !== to) leaving.set(from, [...(leaving.get(from) ?? []), change]);
  }
  let pending = [...jobTimes.keys()];
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt >= MAX_ATTEMPTS) throw new Error(`lineage model: job heads kept changing under ${MAX_ATTEMPTS} attempts`);
    const stored = await model.getJobHeads(pending);
    const retry: string[] = [];
    await Promise.all(
      pending.map(async (jobId) => {
        const current = stored.get(jobId);
        const next = await nextHead(model, jobId, current?.value, jobTimes.get(jobId) as { job: QualifiedName; min: string; max: string }, joining.get(jobId) ?? [], leaving.get(jobId) ?? []);
        if ((await model.putJobHead(next, current?.rev ?? null)) === null) {
          counters.conflicts++;
          retry.push(jobId);
        }
      }),
    );
    pending = retry;
  }
}

/** A job's next head, from its stored head and the batch's changes to its runs. */
async function nextHead(
  model: LineageModelWriter,
  jobId: string,
  previous: JobHeadRecord | undefined,
  times: { job: QualifiedName; min: string; max: string },
  joining: readonly RunChange[],
  leaving: readonly RunChange[],
): Promise<JobHeadRecord> {
  let current = previous?.current ?? null;
  let content: RunRecord | undefined;
  let recompute = leaving.some((c) => c.after.runId === current?.runId);
  for (const change of joining) {
    const ord = ordOf(change.after);
    if (current?.runId === change.after.runId) {
      if (ord < current.ord) recompute = true;
      else if (change.rev >= current.runRev) {
        current = { ord, runId: change.after.runId, runRev: change.rev };
        content = change.after;
      }
    } else if (current === null || ord > current.ord) {
      current = { ord, runId: change.after.runId, runRev: change.rev };
      content = change.after;
    }
  }
  if (recompute) {
    const best = await latestLiveRun(model, jobId);
    current = best ? { ord: ordOf(best.run), runId: best.run.runId, runRev: best.rev } : null;
    content = best?.run;
  }
  const base: JobHeadRecord = previous ?? emptyJobHead(jobId, times.job, times.min, times.max);
  return {
    ...base,
    ...(content ? currentVersionOf(content) : current === null ? { inputs: [], outputs: [], run: null, jobFacets: {}, parent: null, type: 'BATCH' as const } : {}),
    createdAt: base.createdAt < times.min ? base.createdAt : times.min,
    updatedAt: base.updatedAt > times.max ? base.updatedAt : times.max,
    current,
  };
}
