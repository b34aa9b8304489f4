/**
 * @module lineage-graph/graph
 * The lineage graph (`GET /api/v1/lineage`), as Marquez 0.51 answers it (`LineageService`,
 * `LineageDao.getLineage`): from a job, every job within `depth` job-hops through a shared dataset
 * (whichever way the edges point, so a sibling reader of a shared input appears), with all their
 * current inputs and outputs as dataset nodes, edges input → job → output, nodes sorted by id. A
 * dataset start node is first resolved to a job (the latest current writer, else the latest
 * current reader), and a dataset no current version touches comes back alone. lakeline adds
 * `direction` (`upstream`/`downstream` follow edges one way only), `asOf` (each job as its latest
 * run at or before that moment left it) and `runId` (one run, the versions it read and wrote).
 *
 * Cost: a traversal reads, per level, the datasets of the frontier (one batched read, two more
 * when some names have symlinks) and the jobs they link to (one batched read); then, once, the
 * full records of what the graph shows.
 */
import { answerForReadings, resolveNodeId } from './resolve-node-id.ts';
import { NotFoundError, ValidationError } from '../errors.ts';
import { latestLiveRun } from './apply.ts';
import { datasetIdOf, datasetNodeId, datasetVersionIdOf, jobIdOf, jobNodeId, type NodeId, type QualifiedName } from './ids.ts';
import type { LineageModelReader, LineageModelReads } from './ports.ts';
import { emptyJobHead, ordOf, type DatasetLinks, type DatasetNode, type DatasetRef, type JobHeadRecord, type RunRecord } from './records.ts';
import { DatasetResolver, type DatasetGroup } from './resolve.ts';
import {
  compareNames,
  datasetDataView,
  headRunView,
  jobDataView,
  mergeDatasetNames,
  runDatasetVersions,
  runView,
  type DatasetDataView,
  type JobDataView,
  type RunView,
} from './views.ts';

/** Which way a traversal follows edges. */
export type Direction = 'both' | 'upstream' | 'downstream';

/** A graph request, its parameters already validated (see `params.ts`). */
export interface LineageGraphQuery {
  /** A `job:` or `dataset:` node; may be left out when `runId` is given. */
  readonly nodeId?: NodeId;
  /** The node id's other readings, when its colons leave more than one (`nodeIdReadings`). */
  readonly otherReadings?: readonly NodeId[];
  /** Job hops from the start job. */
  readonly depth: number;
  readonly direction: Direction;
  /** Fixed-width UTC time: the graph as it stood then. */
  readonly asOf?: string;
  /** One run's graph. */
  readonly runId?: string;
}

/** An edge between two nodes, by id. */
export interface EdgeView {
  readonly origin: string;
  readonly destination: string;
}

/** A node of the graph (Marquez's `Node`). */
export interface GraphNodeView<T = JobDataView | DatasetDataView> {
  readonly id: string;
  readonly type: 'JOB' | 'DATASET';
  readonly data: T;
  readonly inEdges: readonly EdgeView[];
  readonly outEdges: readonly EdgeView[];
}

/** Marquez's `Lineage`: `{graph: [...]}`. */
export interface LineageGraphView {
  readonly graph: readonly GraphNodeView[];
}

/** A job as of the time asked: the inputs and outputs of one version. */
interface JobVersion {
  readonly jobId: string;
  readonly ord: string;
  readonly inputs: readonly DatasetRef[];
  readonly outputs: readonly DatasetRef[];
  /** The job's head, when the traversal read it (the current graph reads each job once). */
  readonly head?: JobHeadRecord;
  /** The version's run, when the traversal had to read it (asOf). */
  readonly run?: RunRecord;
}

type VersionSource = (jobIds: readonly string[]) => Promise<Map<string, JobVersion>>;

const currentVersions =
  (model: LineageModelReader): VersionSource =>
  async (jobIds) => {
    const heads = await model.getJobHeads(jobIds);
    const out = new Map<string, JobVersion>();
    for (const [id, { value: head }] of heads) if (head.current) out.set(id, { jobId: id, ord: head.current.ord, inputs: head.inputs, outputs: head.outputs, head });
    return out;
  };

const refsOf = (datasets: RunRecord['inputs']): DatasetRef[] => Object.entries(datasets).map(([id, d]) => ({ id, namespace: d.namespace, name: d.name }));

const versionsAt =
  (model: LineageModelReader, asOf: string): VersionSource =>
  async (jobIds) => {
    const out = new Map<string, JobVersion>();
    const found = await Promise.all(jobIds.map(async (id) => [id, await latestLiveRun(model, id, `${asOf}|~`)] as const));
    for (const [id, hit] of found) {
      if (hit) out.set(id, { jobId: id, ord: ordOf(hit.run), inputs: refsOf(hit.run.inputs), outputs: refsOf(hit.run.outputs), run: hit.run });
    }
    return out;
  };

const intersects = (refs: readonly DatasetRef[], ids: ReadonlySet<string>): boolean => refs.some((r) => ids.has(r.id));

/** Reads the lineage graph of an organization. @throws {NotFoundError} for an unknown node or run */
export async function lineageGraph(store: LineageModelReads, orgId: string, query: LineageGraphQuery): Promise<LineageGraphView> {
  const model = await store.model(orgId);
  // With a run, the node only has to be part of it: the reading that exists is the one meant.
  if (query.runId !== undefined) return runGraph(model, query.runId, query.nodeId && (await resolveNodeId(model, query.nodeId, query.otherReadings)));
  if (query.nodeId === undefined) throw new ValidationError('nodeId: is required (unless runId is given)');
  return answerForReadings(model, query.nodeId, query.otherReadings, (nodeId) => nodeGraph(model, query, nodeId));
}

/** The graph around one job or dataset node. @throws {NotFoundError} for an unknown node */
async function nodeGraph(model: LineageModelReader, query: LineageGraphQuery, nodeId: NodeId): Promise<LineageGraphView> {
  const resolver = nodeResolver(model);
  const versions = query.asOf === undefined ? currentVersions(model) : versionsAt(model, query.asOf);
  const when = query.asOf === undefined ? '' : ` at ${query.asOf}`;

  let startJobs: string[];
  let startGroup: NodeGroup | undefined;
  if (nodeId.type === 'JOB') {
    const jobId = jobIdOf(nodeId);
    const found = await versions([jobId]);
    if (!found.has(jobId)) throw new NotFoundError(`nodeId: job ${nodeId.namespace}:${nodeId.name} not found${when}`);
    startJobs = [jobId];
  } else {
    const id = datasetIdOf(nodeId);
    startGroup = (await resolver.resolve([id])).get(id);
    if (startGroup === undefined) throw new NotFoundError(`nodeId: dataset ${nodeId.namespace}:${nodeId.name} not found`);
    startJobs = await jobsTouching(startGroup, versions, query.direction);
  }
  const jobs = await traverse(startJobs, query.depth, query.direction, resolver, versions);
  if (startGroup !== undefined && (jobs.size === 0 || !graphHasDataset(jobs, startGroup))) {
    return { graph: [orphanNode(startGroup)] };
  }
  return buildGraph(model, resolver, jobs, query.direction, startGroup);
}

/**
 * The jobs a dataset start node leads to. Both ways: one job, the latest (by version time) whose
 * version writes it, else the latest that reads it (Marquez's `getJobFromInputOrOutput` prefers
 * writers and the latest version). Upstream: every current writer; downstream: every current reader.
 */
async function jobsTouching(group: DatasetGroup, versions: VersionSource, direction: Direction): Promise<string[]> {
  const writers = [...new Set(group.members.flatMap((m) => m.writers))];
  const readers = [...new Set(group.members.flatMap((m) => m.readers))];
  const found = await versions([...new Set([...(direction === 'downstream' ? [] : writers), ...(direction === 'upstream' ? [] : readers)])]);
  const writing = writers.flatMap((id) => (found.get(id) && intersects((found.get(id) as JobVersion).outputs, group.memberIds) ? [found.get(id) as JobVersion] : []));
  const reading = readers.flatMap((id) => (found.get(id) && intersects((found.get(id) as JobVersion).inputs, group.memberIds) ? [found.get(id) as JobVersion] : []));
  if (direction === 'upstream') return writing.map((v) => v.jobId);
  if (direction === 'downstream') return reading.map((v) => v.jobId);
  const latest = (list: JobVersion[]) => list.reduce<JobVersion | undefined>((best, v) => (best === undefined || v.ord > best.ord ? v : best), undefined);
  const pick = latest(writing) ?? latest(reading);
  return pick ? [pick.jobId] : [];
}

/**
 * Breadth-first over jobs: each level reads the datasets the frontier touches (on the side the
 * direction follows), then the jobs those datasets name, and keeps the jobs whose version really
 * touches one of them (the dataset's job sets hold every job that ever touched it).
 */
async function traverse(start: readonly string[], depth: number, direction: Direction, resolver: NodeResolver, versions: VersionSource): Promise<Map<string, JobVersion>> {
  const visited = await versions(start);
  let frontier = [...visited.values()];
  const expanded = new Set<string>();
  // Versions read for jobs a dataset named but whose version did not touch it (they touched it in
  // an older one): another dataset may name them again, and they are not read twice.
  const read = new Map<string, JobVersion | null>();
  for (let level = 0; level < depth && frontier.length > 0; level++) {
    const side = (v: JobVersion) => (direction === 'upstream' ? v.inputs : direction === 'downstream' ? v.outputs : [...v.inputs, ...v.outputs]);
    const datasetIds = [...new Set(frontier.flatMap((v) => side(v).map((d) => d.id)))].filter((id) => !expanded.has(id));
    if (datasetIds.length === 0) break;
    const groups = await resolver.resolve(datasetIds);
    const nominated = new Map<string, Set<string>>();
    for (const group of new Set(groups.values())) {
      for (const memberId of group.memberIds) expanded.add(memberId);
      for (const member of group.members) {
        const jobs = direction === 'upstream' ? member.writers : direction === 'downstream' ? member.readers : [...member.writers, ...member.readers];
        for (const jobId of jobs) {
          if (visited.has(jobId)) continue;
          const ids = nominated.get(jobId) ?? new Set<string>();
          group.memberIds.forEach((id) => ids.add(id));
          nominated.set(jobId, ids);
        }
      }
    }
    for (const id of datasetIds) expanded.add(id);
    const found = await versions([...nominated.keys()].filter((id) => !read.has(id)));
    for (const id of nominated.keys()) if (!read.has(id)) read.set(id, found.get(id) ?? null);
    frontier = [];
    for (const [jobId, ids] of nominated) {
      const version = read.get(jobId);
      if (!version) continue;
      const linked = direction === 'upstream' ? intersects(version.outputs, ids) : direction === 'downstream' ? intersects(version.inputs, ids) : intersects(version.inputs, ids) || intersects(version.outputs, ids);
      if (!linked) continue;
      visited.set(jobId, version);
      frontier.push(version);
    }
  }
  return visited;
}

/** The dataset ids the graph shows for a job: all its datasets, or only the side a direction follows. */
const shownDatasets = (version: JobVersion, direction: Direction): readonly DatasetRef[] =>
  direction === 'upstream' ? version.inputs : direction === 'downstream' ? version.outputs : [...version.inputs, ...version.outputs];

const graphHasDataset = (jobs: ReadonlyMap<string, JobVersion>, group: DatasetGroup): boolean =>
  [...jobs.values()].some((v) => intersects([...v.inputs, ...v.outputs], group.memberIds));

/** Groups whose names were read with their records (one read per name serves traversal and node data). */
type NodeGroup = DatasetGroup<DatasetNode>;
type NodeResolver = DatasetResolver<DatasetNode>;
const nodeResolver = (model: LineageModelReader): NodeResolver => new DatasetResolver<DatasetNode>((ids) => model.getDatasetNodes(ids));

/** A dataset group's node data: its names' records merged. */
const datasetNodeData = (group: NodeGroup): DatasetDataView =>
  datasetDataView(mergeDatasetNames(group.name, group.members.flatMap((m) => (m.record ? [m.record] : []))));

function orphanNode(group: NodeGroup): GraphNodeView {
  return { id: datasetNodeId(group.name), type: 'DATASET', data: datasetNodeData(group), inEdges: [], outEdges: [] };
}

const byEdge = (a: EdgeView, b: EdgeView): number =>
  a.origin < b.origin ? -1 : a.origin > b.origin ? 1 : a.destination < b.destination ? -1 : a.destination > b.destination ? 1 : 0;

/** Nodes and edges of the jobs found, with their data read once. */
async function buildGraph(model: LineageModelReader, resolver: NodeResolver, jobs: ReadonlyMap<string, JobVersion>, direction: Direction, startGroup?: NodeGroup): Promise<LineageGraphView> {
  const allIds = [...new Set([...jobs.values()].flatMap((v) => [...v.inputs, ...v.outputs].map((d) => d.id)))];
  const shownIds = new Set([...jobs.values()].flatMap((v) => shownDatasets(v, direction).map((d) => d.id)));
  const headless = [...jobs.values()].filter((v) => v.head === undefined).map((v) => v.jobId);
  const [groups, readHeads] = await Promise.all([resolver.resolve(allIds), headless.length > 0 ? model.getJobHeads(headless) : new Map<string, { value: JobHeadRecord }>()]);
  const shownGroups = new Map<string, NodeGroup>();
  for (const id of shownIds) {
    const group = groups.get(id);
    if (group) shownGroups.set(group.id, group);
  }
  if (startGroup) shownGroups.set(startGroup.id, startGroup);
  const heads = new Map([...jobs.values()].flatMap((v) => {
    const head = v.head ?? readHeads.get(v.jobId)?.value;
    return head ? [[v.jobId, head] as const] : [];
  }));

  const nodes = new Map<string, { type: 'JOB' | 'DATASET'; data: JobDataView | DatasetDataView; inEdges: EdgeView[]; outEdges: EdgeView[] }>();
  for (const group of shownGroups.values()) {
    nodes.set(datasetNodeId(group.name), { type: 'DATASET', data: datasetNodeData(group), inEdges: [], outEdges: [] });
  }
  for (const version of jobs.values()) {
    const head = heads.get(version.jobId);
    if (head === undefined) continue;
    const nameOf = (ref: DatasetRef): QualifiedName => groups.get(ref.id)?.name ?? ref;
    const inputs = version.inputs.map(nameOf);
    const outputs = version.outputs.map(nameOf);
    // asOf: the run of that moment; otherwise what the head keeps of its latest run.
    const latestRun: RunView | null = version.run ? (version.run.static ? null : runView(version.run)) : headRunView(head);
    const jobId = jobNodeId(head);
    const node = { type: 'JOB' as const, data: jobDataView(head, { inputs: uniqueNames(inputs), outputs: uniqueNames(outputs) }, latestRun), inEdges: [] as EdgeView[], outEdges: [] as EdgeView[] };
    nodes.set(jobId, node);
    for (const input of uniqueNames(inputs)) {
      const datasetId = datasetNodeId(input);
      const dataset = nodes.get(datasetId);
      if (!dataset) continue;
      node.inEdges.push({ origin: datasetId, destination: jobId });
      dataset.outEdges.push({ origin: datasetId, destination: jobId });
    }
    for (const output of uniqueNames(outputs)) {
      const datasetId = datasetNodeId(output);
      const dataset = nodes.get(datasetId);
      if (!dataset) continue;
      node.outEdges.push({ origin: jobId, destination: datasetId });
      dataset.inEdges.push({ origin: jobId, destination: datasetId });
    }
  }
  return {
    graph: [...nodes]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([id, n]) => ({ id, type: n.type, data: n.data, inEdges: n.inEdges.sort(byEdge), outEdges: n.outEdges.sort(byEdge) })),
  };
}

const uniqueNames = (names: readonly QualifiedName[]): QualifiedName[] => {
  const sorted = [...names].sort(compareNames);
  return sorted.filter((n, i) => i === 0 || compareNames(n, sorted[i - 1] as QualifiedName) !== 0);
};

/**
 * The latest version of a dataset (any of its names) written by a run earlier than `before`
 * (an order key), checked against the runs. The version a run read when its producer did not say.
 */
export async function latestVersionBefore(model: LineageModelReader, memberIds: Iterable<string>, before: string): Promise<{ datasetId: string; runId: string; ord: string } | undefined> {
  const candidates = await Promise.all(
    [...memberIds].map(async (datasetId) => {
      let bound = before;
      for (;;) {
        const entries = await model.listVersionOrder(datasetId, { before: bound, limit: 4 });
        if (entries.length === 0) return undefined;
        const runs = await model.getRuns(entries.map((e) => e.runId));
        for (const entry of entries) {
          const run = runs.get(entry.runId)?.value;
          if (run && ordOf(run) === entry.ord && run.outputs[datasetId] !== undefined) return { datasetId, runId: run.runId, ord: entry.ord };
        }
        bound = (entries.at(-1) as { ord: string }).ord;
      }
    }),
  );
  return candidates.reduce<{ datasetId: string; runId: string; ord: string } | undefined>((best, c) => (c && (best === undefined || c.ord > best.ord) ? c : best), undefined);
}

/** The versions a run read: per input id, the version id of the input's latest version before the run. */
export async function readVersionsOf(model: LineageModelReader, resolver: DatasetResolver<DatasetLinks>, run: RunRecord): Promise<Map<string, string>> {
  const ids = Object.keys(run.inputs);
  const groups = await resolver.resolve(ids);
  const out = new Map<string, string>();
  await Promise.all(
    ids.map(async (id) => {
      const group = groups.get(id);
      const found = await latestVersionBefore(model, group?.memberIds ?? [id], ordOf(run));
      if (!found) return;
      const member = group?.members.find((m) => m.datasetId === found.datasetId);
      const name = member ?? run.inputs[id];
      if (name) out.set(id, datasetVersionIdOf(name, found.runId));
    }),
  );
  return out;
}

/** One run's graph: its job, the datasets it read and wrote, and the versions of each. */
async function runGraph(model: LineageModelReader, runId: string, nodeId: NodeId | undefined): Promise<LineageGraphView> {
  const stored = (await model.getRuns([runId])).get(runId)?.value;
  if (stored === undefined || stored.static) throw new NotFoundError(`runId: run ${runId} not found`);
  const run = stored;
  const resolver = nodeResolver(model);
  const groups = await resolver.resolve([...Object.keys(run.inputs), ...Object.keys(run.outputs)]);
  if (nodeId !== undefined) {
    const matches =
      nodeId.type === 'JOB'
        ? nodeId.namespace === run.job.namespace && nodeId.name === run.job.name
        : [...groups.values()].some((g) => g.memberIds.has(datasetIdOf(nodeId)) || g.id === datasetIdOf(nodeId));
    if (!matches) throw new ValidationError(`nodeId: ${nodeId.type === 'JOB' ? 'job' : 'dataset'} ${nodeId.namespace}:${nodeId.name} is not part of run ${runId}`);
  }
  const [head, readVersions] = await Promise.all([model.getJobHeads([jobIdOf(run.job)]), readVersionsOf(model, resolver, run)]);
  const headRecord = head.get(jobIdOf(run.job))?.value;
  const versions = runDatasetVersions(run, readVersions);
  const jobHead: JobHeadRecord = headRecord ?? emptyJobHead(jobIdOf(run.job), run.job, run.t0, run.tMax);
  const nameOf = (id: string, entry: QualifiedName): QualifiedName => groups.get(id)?.name ?? entry;
  const inputNames = Object.entries(run.inputs).map(([id, e]) => nameOf(id, e));
  const outputNames = Object.entries(run.outputs).map(([id, e]) => nameOf(id, e));
  const jobNode = jobDataView(jobHead, { inputs: uniqueNames(inputNames), outputs: uniqueNames(outputNames) }, runView(run, versions));
  const shown = new Map<string, NodeGroup>();
  for (const id of [...Object.keys(run.inputs), ...Object.keys(run.outputs)]) {
    const group = groups.get(id);
    if (group) shown.set(group.id, group);
  }
  const versionOf = new Map<string, string>();
  for (const v of [...versions.inputs, ...versions.outputs]) {
    const group = groups.get(datasetIdOf(v.datasetVersionId));
    if (group) versionOf.set(group.id, v.datasetVersionId.version);
  }
  const jobId = jobNodeId(run.job);
  const nodes: GraphNodeView[] = [];
  const inputIds = new Set(uniqueNames(inputNames).map(datasetNodeId));
  const outputIds = new Set(uniqueNames(outputNames).map(datasetNodeId));
  for (const group of shown.values()) {
    const id = datasetNodeId(group.name);
    nodes.push({
      id,
      type: 'DATASET',
      data: { ...datasetNodeData(group), version: versionOf.get(group.id) ?? null },
      inEdges: outputIds.has(id) ? [{ origin: jobId, destination: id }] : [],
      outEdges: inputIds.has(id) ? [{ origin: id, destination: jobId }] : [],
    });
  }
  nodes.push({
    id: jobId,
    type: 'JOB',
    data: jobNode,
    inEdges: [...inputIds].sort().map((id) => ({ origin: id, destination: jobId })),
    outEdges: [...outputIds].sort().map((id) => ({ origin: jobId, destination: id })),
  });
  return { graph: nodes.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)) };
}
