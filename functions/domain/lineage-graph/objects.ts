/**
 * @module lineage-graph/objects
 * The objects of the lineage model, as Marquez's object endpoints answer them: namespaces, the
 * jobs of a namespace, a job (latest run, current inputs and outputs, facets), a job's runs
 * (newest first), the datasets of a namespace, a dataset (columns, facets, last modification, the
 * job that last wrote it), a dataset's versions (newest first: its schema history), and a lineage
 * run (its events merged, parent, children, the versions it read and wrote). Every list is paged
 * (`limit`/`offset`, with `totalCount`) in a stable order. A dataset is found by any of its names.
 */
import { NotFoundError } from '../errors.ts';
import { liveFacet, liveFacets } from './facets.ts';
import { datasetColumnLineage } from './column-lineage.ts';
import { readVersionsOf } from './graph.ts';
import { datasetIdOf, datasetVersionIdOf, jobIdOf, jobVersionIdOf, type QualifiedName } from './ids.ts';
import { parentOf } from './merge.ts';
import type { LineageModelReader, LineageModelReads, Page } from './ports.ts';
import { ordOf, type DatasetRecord, type JobHeadRecord, type MarquezRunState, type RunRecord } from './records.ts';
import { DatasetResolver, type DatasetGroup } from './resolve.ts';
import {
  datasetDataView,
  datasetVersionView,
  headRunView,
  jobView,
  mergeDatasetNames,
  namespaceView,
  runDatasetVersions,
  runView,
  type DatasetVersionView,
  type DatasetView,
  type JobView,
  type NameView,
  type NamespaceView,
  type RunView,
} from './views.ts';

/** `{namespaces, totalCount}`. */
export interface NamespacesView {
  readonly namespaces: readonly NamespaceView[];
  readonly totalCount: number;
}

/** `{jobs, totalCount}`. */
export interface JobsView {
  readonly jobs: readonly JobView[];
  readonly totalCount: number;
}

/** `{runs, totalCount}`. */
export interface RunsView {
  readonly runs: readonly RunView[];
  readonly totalCount: number;
}

/** `{datasets, totalCount}`. */
export interface DatasetsView {
  readonly datasets: readonly DatasetView[];
  readonly totalCount: number;
}

/** `{versions, totalCount}`. */
export interface DatasetVersionsView {
  readonly versions: readonly DatasetVersionView[];
  readonly totalCount: number;
}

/** A child run, as its parent lists it. */
export interface ChildRunView {
  readonly runId: string;
  readonly job: NameView;
  readonly state: MarquezRunState;
}

/** `GET /api/v1/lineage-runs/{runId}`: a run with its job, parent and children. */
export interface LineageRunView extends RunView {
  readonly job: NameView;
  /** The job facets the run's events carried. */
  readonly jobFacets: Readonly<Record<string, unknown>>;
  readonly parent: { readonly runId: string | null; readonly job: NameView } | null;
  readonly children: readonly ChildRunView[];
}

/** The org's namespaces by name. */
export async function listNamespaces(store: LineageModelReads, orgId: string, page: Page): Promise<NamespacesView> {
  const model = await store.model(orgId);
  const { namespaces, total } = await model.listNamespaces(page);
  return { namespaces: namespaces.map(namespaceView), totalCount: total };
}

/** Resolved names of a version's datasets. */
async function resolvedIo(resolver: DatasetResolver, head: Pick<JobHeadRecord, 'inputs' | 'outputs'>): Promise<{ inputs: QualifiedName[]; outputs: QualifiedName[] }> {
  const groups = await resolver.resolve([...head.inputs, ...head.outputs].map((d) => d.id));
  const nameOf = (d: QualifiedName & { id: string }): QualifiedName => groups.get(d.id)?.name ?? d;
  const unique = (names: QualifiedName[]) => [...new Map(names.map((n) => [`${n.namespace}\u0000${n.name}`, n])).values()];
  return { inputs: unique(head.inputs.map(nameOf)), outputs: unique(head.outputs.map(nameOf)) };
}

/** A run with what it read and wrote. */
async function runWithVersions(model: LineageModelReader, resolver: DatasetResolver, run: RunRecord): Promise<RunView> {
  return runView(run, runDatasetVersions(run, await readVersionsOf(model, resolver, run)));
}

/** Jobs in Marquez's shape; `withVersions` reads the latest runs for the versions they read and wrote. */
async function jobViews(model: LineageModelReader, heads: readonly JobHeadRecord[], withVersions: boolean): Promise<JobView[]> {
  const resolver = DatasetResolver.forLinks(model);
  const runs = withVersions ? await model.getRuns(heads.flatMap((h) => (h.run ? [h.run.runId] : []))) : new Map<string, { value: RunRecord }>();
  return Promise.all(
    heads.map(async (head) => {
      const run = head.run ? runs.get(head.run.runId)?.value : undefined;
      const latestRun = run ? await runWithVersions(model, resolver, run) : headRunView(head);
      return jobView(head, await resolvedIo(resolver, head), latestRun);
    }),
  );
}

/** One namespace. @throws {NotFoundError} */
export async function getNamespace(store: LineageModelReads, orgId: string, name: string): Promise<NamespaceView> {
  const model = await store.model(orgId);
  const record = (await model.getNamespaces([name])).get(name)?.value;
  if (!record) throw new NotFoundError(`namespace ${name} not found`);
  return namespaceView(record);
}

/** A namespace's jobs by name, each with its latest run. */
export async function listJobs(store: LineageModelReads, orgId: string, namespace: string, page: Page): Promise<JobsView> {
  const model = await store.model(orgId);
  const { ids, total } = await model.listJobs(namespace, page);
  const heads = await model.getJobHeads(ids);
  const found = ids.flatMap((id) => (heads.has(id) ? [(heads.get(id) as { value: JobHeadRecord }).value] : []));
  return { jobs: await jobViews(model, found, false), totalCount: total };
}

/** One job. @throws {NotFoundError} */
export async function getJob(store: LineageModelReads, orgId: string, job: QualifiedName): Promise<JobView> {
  const model = await store.model(orgId);
  const head = (await model.getJobHeads([jobIdOf(job)])).get(jobIdOf(job))?.value;
  if (!head) throw new NotFoundError(`job ${job.namespace}:${job.name} not found`);
  return (await jobViews(model, [head], true))[0] as JobView;
}

/** A job's runs, newest (latest start) first. JobEvent versions are not runs and are left out. @throws {NotFoundError} */
export async function listJobRuns(store: LineageModelReads, orgId: string, job: QualifiedName, page: Page): Promise<RunsView> {
  const model = await store.model(orgId);
  const jobId = jobIdOf(job);
  if (!(await model.getJobHeads([jobId])).has(jobId)) throw new NotFoundError(`job ${job.namespace}:${job.name} not found`);
  const [entries, total] = await Promise.all([model.listRunOrder(jobId, { limit: page.limit, offset: page.offset, runsOnly: true }), model.countRunOrder(jobId, true)]);
  const runs = await model.getRuns(entries.map((e) => e.runId));
  const live = entries.flatMap((e) => {
    const run = runs.get(e.runId)?.value;
    return run && ordOf(run) === e.ord && jobIdOf(run.job) === jobId && !run.static ? [run] : [];
  });
  const resolver = DatasetResolver.forLinks(model);
  return { runs: await Promise.all(live.map((r) => runWithVersions(model, resolver, r))), totalCount: total };
}

/**
 * One run in Marquez's `Run` shape, with the versions it read and wrote (Marquez's
 * `GET /api/v1/jobs/runs/{id}`). A JobEvent's version is no run, and a parent known only from its
 * children has no run record: both are 404 here (`/api/v1/lineage-runs/{runId}` shows the latter).
 * @throws {NotFoundError}
 */
export async function getJobRun(store: LineageModelReads, orgId: string, runId: string): Promise<RunView> {
  const model = await store.model(orgId);
  const run = (await model.getRuns([runId])).get(runId)?.value;
  if (run === undefined || run.static) throw new NotFoundError(`run ${runId} not found`);
  return runWithVersions(model, DatasetResolver.forLinks(model), run);
}

/** A dataset group's records, joined, in Marquez's `Dataset` shape. */
async function datasetView(model: LineageModelReader, group: DatasetGroup, records: ReadonlyMap<string, DatasetRecord>): Promise<DatasetView> {
  const members = [...group.memberIds].flatMap((id) => (records.has(id) ? [records.get(id) as DatasetRecord] : []));
  const merged = mergeDatasetNames(group.name, members);
  const data = datasetDataView(merged);
  return {
    ...data,
    currentVersion: merged.writer && merged.writerName ? datasetVersionIdOf(merged.writerName, merged.writer.runId) : null,
    columnLineage: await datasetColumnLineage(model, liveFacet(merged.facets, 'columnLineage')),
    deleted: String(data.lastLifecycleState ?? '').toUpperCase() === 'DROP',
    producedBy: merged.writer ? { namespace: merged.writer.job.namespace, name: merged.writer.job.name } : null,
  };
}

async function datasetViews(model: LineageModelReader, groups: readonly DatasetGroup[]): Promise<DatasetView[]> {
  const records = await model.getDatasets([...new Set(groups.flatMap((g) => [...g.memberIds]))]);
  const values = new Map([...records].map(([id, v]) => [id, v.value]));
  return Promise.all(groups.map((g) => datasetView(model, g, values)));
}

/** A namespace's datasets by name (names that resolve to another name are listed under that one). */
export async function listDatasets(store: LineageModelReads, orgId: string, namespace: string, page: Page): Promise<DatasetsView> {
  const model = await store.model(orgId);
  const { ids, total } = await model.listDatasets(namespace, page);
  const groups = await DatasetResolver.forLinks(model).resolve(ids);
  const list = ids.flatMap((id) => (groups.has(id) ? [groups.get(id) as DatasetGroup] : []));
  return { datasets: await datasetViews(model, list), totalCount: total };
}

async function groupOf(model: LineageModelReader, dataset: QualifiedName): Promise<DatasetGroup> {
  const id = datasetIdOf(dataset);
  const group = (await DatasetResolver.forLinks(model).resolve([id])).get(id);
  if (!group) throw new NotFoundError(`dataset ${dataset.namespace}:${dataset.name} not found`);
  return group;
}

/** One dataset, found by any of its names. @throws {NotFoundError} */
export async function getDataset(store: LineageModelReads, orgId: string, dataset: QualifiedName): Promise<DatasetView> {
  const model = await store.model(orgId);
  return (await datasetViews(model, [await groupOf(model, dataset)]))[0] as DatasetView;
}

/**
 * A dataset's versions, newest first: one per run that wrote it (under any of its names), each
 * with the columns and facets that run wrote, so the list is the dataset's schema history.
 * @throws {NotFoundError}
 */
export async function listDatasetVersions(store: LineageModelReads, orgId: string, dataset: QualifiedName, page: Page): Promise<DatasetVersionsView> {
  const model = await store.model(orgId);
  const group = await groupOf(model, dataset);
  const members = [...group.memberIds];
  const [lists, counts] = await Promise.all([
    Promise.all(members.map(async (id) => (await model.listVersionOrder(id, { limit: page.offset + page.limit })).map((e) => ({ ...e, datasetId: id })))),
    Promise.all(members.map((id) => model.countVersionOrder(id))),
  ]);
  const merged = lists.flat().sort((a, b) => (a.ord > b.ord ? -1 : a.ord < b.ord ? 1 : a.datasetId < b.datasetId ? -1 : 1));
  const pageEntries = merged.slice(page.offset, page.offset + page.limit);
  const runs = await model.getRuns([...new Set(pageEntries.map((e) => e.runId))]);
  const versions = pageEntries.flatMap((e) => {
    const run = runs.get(e.runId)?.value;
    if (!run || ordOf(run) !== e.ord) return [];
    // The physical name of a version is the name the run wrote it under.
    const view = datasetVersionView(group.name, run.outputs[e.datasetId]?.name ?? group.name.name, run, e.datasetId);
    return view ? [view] : [];
  });
  return { versions, totalCount: counts.reduce((a, b) => a + b, 0) };
}

/** Version-order entries read per round trip while looking for one version. */
const VERSION_SCAN_PAGE = 1_000;

/**
 * One version of a dataset, by the id its versions list gives (Marquez's
 * `GET /api/v1/namespaces/{ns}/datasets/{ds}/versions/{version}`). A version id is a hash of the
 * name written and the run that wrote it, so each name's history is scanned newest first for it.
 * @throws {NotFoundError}
 */
export async function getDatasetVersion(store: LineageModelReads, orgId: string, dataset: QualifiedName, version: string): Promise<DatasetVersionView> {
  const model = await store.model(orgId);
  const group = await groupOf(model, dataset);
  const wanted = version.toLowerCase();
  for (const member of group.members) {
    for (let before: string | undefined; ; ) {
      const entries = await model.listVersionOrder(member.datasetId, { limit: VERSION_SCAN_PAGE, ...(before === undefined ? {} : { before }) });
      const hit = entries.find((e) => datasetVersionIdOf(member, e.runId) === wanted);
      if (hit) {
        const run = (await model.getRuns([hit.runId])).get(hit.runId)?.value;
        const view = run && ordOf(run) === hit.ord ? datasetVersionView(group.name, run.outputs[member.datasetId]?.name ?? group.name.name, run, member.datasetId) : undefined;
        if (view) return view;
      }
      if (entries.length < VERSION_SCAN_PAGE) break;
      before = (entries.at(-1) as { ord: string }).ord;
    }
  }
  throw new NotFoundError(`version ${version} of dataset ${dataset.namespace}:${dataset.name} not found`);
}

/**
 * A lineage run: its events merged, its job, its parent (from the `parent` facet) and its
 * children (runs naming it as their parent), and the dataset versions it read and wrote. A parent
 * that never sent events of its own but has children is shown from what the children say of it.
 * @throws {NotFoundError}
 */
export async function getLineageRun(store: LineageModelReads, orgId: string, runId: string): Promise<LineageRunView> {
  const model = await store.model(orgId);
  const [stored, childEntries] = await Promise.all([model.getRuns([runId]), model.listChildren(runId)]);
  const childRuns = await model.getRuns(childEntries.map((c) => c.runId));
  const children: ChildRunView[] = [];
  const childRecords: RunRecord[] = [];
  for (const entry of childEntries) {
    const child = childRuns.get(entry.runId)?.value;
    if (!child || parentOf(child)?.runId !== runId) continue;
    childRecords.push(child);
    children.push({ runId: child.runId, job: { namespace: child.job.namespace, name: child.job.name }, state: runView(child).state });
  }
  const run = stored.get(runId)?.value;
  if (run === undefined || run.static) {
    const first = childEntries.find((c) => childRecords.some((r) => r.runId === c.runId));
    if (!first) throw new NotFoundError(`run ${runId} not found`);
    const createdAt = childRecords.reduce((t, r) => (r.t0 < t ? r.t0 : t), (childRecords[0] as RunRecord).t0);
    const updatedAt = childRecords.reduce((t, r) => (r.tMax > t ? r.tMax : t), (childRecords[0] as RunRecord).tMax);
    return {
      id: runId,
      createdAt,
      updatedAt,
      nominalStartTime: null,
      nominalEndTime: null,
      state: 'NEW',
      jobVersion: { ...first.parentJob, version: jobVersionIdOf(first.parentJob, [], []) },
      startedAt: null,
      endedAt: null,
      durationMs: null,
      args: {},
      facets: {},
      inputDatasetVersions: [],
      outputDatasetVersions: [],
      job: { namespace: first.parentJob.namespace, name: first.parentJob.name },
      jobFacets: {},
      parent: null,
      children,
    };
  }
  const view = await runWithVersions(model, DatasetResolver.forLinks(model), run);
  const parent = parentOf(run);
  return {
    ...view,
    job: { namespace: run.job.namespace, name: run.job.name },
    jobFacets: liveFacets(run.jobFacets),
    parent: parent ? { runId: parent.runId, job: { namespace: parent.namespace, name: parent.name } } : null,
    children,
  };
}
