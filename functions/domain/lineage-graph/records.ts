/**
 * @module lineage-graph/records
 * The facts the lineage read model stores, per organization: merged runs, job heads (a job's
 * current version), datasets (one record per name a dataset was sent under), and the small
 * entries that order runs and versions in time. Every record is the join of the events that made
 * it, so it is the same whatever order those events were applied in.
 */
import type { FacetEntry, FacetMap } from './facets.ts';
import type { QualifiedName } from './ids.ts';

/** A dataset name with its id (`datasetIdOf`). */
export interface DatasetRef extends QualifiedName {
  readonly id: string;
}

/** A dataset as one run saw it: its facets (dataset facets) and its input or output facets. */
export interface RunDataset extends QualifiedName {
  readonly facets: FacetMap;
  readonly ioFacets: FacetMap;
}

/** The terminal states of OpenLineage's run cycle. */
export type TerminalState = 'COMPLETE' | 'FAIL' | 'ABORT';

/**
 * A run: every event of it merged (OpenLineage's run cycle is accumulative). Inputs and outputs
 * are unions, times are minima and maxima, the terminal state is the one with the latest
 * (eventTime, event id), facets are last-writer-wins registers.
 */
export interface RunRecord {
  readonly runId: string;
  /** The job, as a register: producers that disagree about a run's job resolve to the latest event's. */
  readonly job: QualifiedName & { readonly k: string };
  /** Earliest event time: the run's place in its job's history ("its time"). */
  readonly t0: string;
  /** Latest event time. */
  readonly tMax: string;
  /** Earliest START or RUNNING event time; null when none arrived (a COMPLETE-only run). */
  readonly startedAt: string | null;
  /** The terminal event with the latest (eventTime, id); null while running. */
  readonly terminal: { readonly k: string; readonly state: TerminalState; readonly time: string } | null;
  readonly runFacets: FacetMap;
  readonly jobFacets: FacetMap;
  /** By dataset id. */
  readonly inputs: Readonly<Record<string, RunDataset>>;
  /** By dataset id. */
  readonly outputs: Readonly<Record<string, RunDataset>>;
  /** A job version from a JobEvent (static lineage): no run happened, so it has no state. */
  readonly static: boolean;
}

/** Marquez's run states. */
export type MarquezRunState = 'NEW' | 'RUNNING' | 'COMPLETED' | 'ABORTED' | 'FAILED';

/** What a job head keeps of its current run. */
export interface RunSummary {
  readonly runId: string;
  readonly state: MarquezRunState;
  readonly t0: string;
  readonly tMax: string;
  readonly startedAt: string | null;
  readonly endedAt: string | null;
  readonly nominalStartTime: string | null;
  readonly nominalEndTime: string | null;
  /** The run's facets (tombstones dropped), so a graph shows the latest run without reading it. */
  readonly facets: Readonly<Record<string, unknown>>;
}

/** The place of a run in its job's history: `<t0>|<runId>`, ordered as a string. */
export interface CurrentRunPointer {
  readonly ord: string;
  readonly runId: string;
  /** The run record's store revision the head copied, so a stale copy never replaces a fresher one. */
  readonly runRev: number;
}

/** Marquez's job types. */
export type JobType = 'BATCH' | 'STREAM';

/**
 * A job and its current version: the inputs, outputs and facets of its latest run (by run time,
 * ties by run id), copied here so a graph reads one item per job.
 */
export interface JobHeadRecord extends QualifiedName {
  readonly jobId: string;
  /** Earliest event time of the job. */
  readonly createdAt: string;
  /** Latest event time of the job. */
  readonly updatedAt: string;
  readonly current: CurrentRunPointer | null;
  /** The current version's inputs, by id. */
  readonly inputs: readonly DatasetRef[];
  /** The current version's outputs, by id. */
  readonly outputs: readonly DatasetRef[];
  /** The current run; null when the current version is a JobEvent's (no run). */
  readonly run: RunSummary | null;
  /** The current version's job facets. */
  readonly jobFacets: Readonly<Record<string, unknown>>;
  /** From the current run's `parent` facet. */
  readonly parent: ParentRef | null;
  readonly type: JobType;
}

/** A job's head before any of its runs is applied: known by name and times, no current version. */
export const emptyJobHead = (jobId: string, job: QualifiedName, createdAt: string, updatedAt: string): JobHeadRecord => ({
  jobId,
  namespace: job.namespace,
  name: job.name,
  createdAt,
  updatedAt,
  current: null,
  inputs: [],
  outputs: [],
  run: null,
  jobFacets: {},
  parent: null,
  type: 'BATCH',
});

/** A parent run (`parent` run facet): the run, when given as a UUID, and its job. */
export interface ParentRef extends QualifiedName {
  readonly runId: string | null;
}

/** What a graph traversal reads of a job: its current inputs and outputs. */
export type JobHeadLinks = Pick<JobHeadRecord, 'jobId' | 'namespace' | 'name' | 'current' | 'inputs' | 'outputs' | 'updatedAt'>;

/** Which run wrote a dataset last (a register over the events that name it as an output). */
export interface DatasetWriter {
  readonly k: string;
  readonly runId: string;
  readonly job: QualifiedName;
}

/**
 * One name of a dataset: registers only (its sets of jobs and links are kept apart, see
 * {@link DatasetLinks}).
 */
export interface DatasetRecord extends QualifiedName {
  readonly datasetId: string;
  /** Earliest event time that named it. */
  readonly createdAt: string;
  /** Latest event time that wrote it (see `merge.ts`); `''` while it has only been observed. */
  readonly updatedAt: string;
  /** Latest COMPLETE event that had it as an output. */
  readonly lastModifiedAt: string | null;
  /** Dataset facets: writes (outputs, DatasetEvents) outrank observations (inputs), see `facets.ts`. */
  readonly facets: FacetMap;
  /** The run of the latest output event. */
  readonly writer: DatasetWriter | null;
  /** `TABLE` identifiers of its `symlinks` facets, ever seen (sorted, distinct). */
  readonly symlinkTargets: readonly QualifiedName[];
}

/** The grow-only sets kept per dataset name. */
export type DatasetSetName = 'writers' | 'readers' | 'clDown' | 'members';

/** What traversals read of a dataset name: its links to jobs and other names. */
export interface DatasetLinks extends QualifiedName {
  readonly datasetId: string;
  /** Whether the name has a record (an event named it), not only links made by other names. */
  readonly exists: boolean;
  readonly symlinkTargets: readonly QualifiedName[];
  /** Ids of jobs that ever wrote it. */
  readonly writers: readonly string[];
  /** Ids of jobs that ever read it. */
  readonly readers: readonly string[];
  /** Ids of dataset names whose `columnLineage` facet ever named one of its fields. */
  readonly clDown: readonly string[];
  /** Ids of dataset names that ever named it as their `TABLE` symlink. */
  readonly members: readonly string[];
}

/** What a graph reads of a dataset name: its links and its record, without the `columnLineage` facet. */
export interface DatasetNode extends DatasetLinks {
  readonly record: DatasetRecord | null;
}

/** What column-lineage traversals read of a dataset name. */
export interface DatasetColumnLineage extends DatasetLinks {
  /** The `columnLineage` facet register. */
  readonly columnLineage: FacetEntry | null;
  /** The `schema` facet register, for column types. */
  readonly schema: FacetEntry | null;
}

/** An entry ordering a run in its job's history or a version in its dataset's: `<t0>|<runId>`. */
export interface OrderEntry {
  readonly ord: string;
  readonly runId: string;
}

/** A run that named another as its parent. */
export interface ChildEntry {
  readonly runId: string;
  /** The parent's job as the child's `parent` facet names it. */
  readonly parentJob: QualifiedName;
}

/** A namespace: when it was first and last seen. */
export interface NamespaceRecord {
  readonly name: string;
  readonly createdAt: string;
  /** The first event time of the latest hour an event in it was seen (a hot aggregate, moved at most once an hour). */
  readonly updatedAt: string;
}

/** One name in the search index. */
export interface SearchEntry {
  readonly type: 'JOB' | 'DATASET';
  readonly id: string;
  readonly namespace: string;
  readonly name: string;
  /** Latest event time, to the minute (exact times are read for the page). */
  readonly updatedAtMinute: string;
  /** For a dataset name that is a symlink of another: the name it resolves to. */
  readonly canonical?: QualifiedName;
}

/** The order key of a run: `<t0>|<runId>`. */
export const ordOf = (run: Pick<RunRecord, 't0' | 'runId'>): string => `${run.t0}|${run.runId}`;
