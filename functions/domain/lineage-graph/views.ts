/**
 * @module lineage-graph/views
 * The model's records in Marquez 0.51's JSON shapes (`marquez.service.models.*`, as its web
 * client types them in `web/src/types/api.ts` and `lineage.ts`), so tools and people who know
 * Marquez read lakeline's answers without translation. Optional values are `null`, never left out.
 * Times are the fixed-width UTC form of the events API (`2024-01-01T00:00:00.000000+00:00`).
 */
import { liveFacet, liveFacets, mergeFacetMaps, type FacetMap } from './facets.ts';
import { datasetVersionIdOf, jobIdOf, jobVersionIdOf, type QualifiedName } from './ids.ts';
import { runSummaryOf } from './merge.ts';
import type { DatasetRecord, JobHeadRecord, JobType, MarquezRunState, RunRecord, RunSummary } from './records.ts';

/** `{namespace, name}`. */
export interface NameView {
  readonly namespace: string;
  readonly name: string;
}

/** A dataset version: `{namespace, name, version}`. */
export interface DatasetVersionIdView extends NameView {
  readonly version: string;
}

/** A dataset version a run read or wrote, with the run's facets for it. */
export interface RunDatasetVersionView {
  readonly datasetVersionId: DatasetVersionIdView;
  readonly facets: Readonly<Record<string, unknown>>;
}

/** Marquez's `Run`. */
export interface RunView {
  readonly id: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly nominalStartTime: string | null;
  readonly nominalEndTime: string | null;
  readonly state: MarquezRunState;
  readonly jobVersion: DatasetVersionIdView;
  readonly startedAt: string | null;
  readonly endedAt: string | null;
  readonly durationMs: number | null;
  readonly args: Readonly<Record<string, string>>;
  readonly facets: Readonly<Record<string, unknown>>;
  /** Left out of graph nodes (see the graph's notes); present on run and job endpoints. */
  readonly inputDatasetVersions?: readonly RunDatasetVersionView[];
  readonly outputDatasetVersions?: readonly RunDatasetVersionView[];
}

/** Marquez's `JobData`: a job node of the lineage graph. */
export interface JobDataView {
  readonly id: NameView;
  readonly type: JobType;
  readonly name: string;
  readonly simpleName: string;
  readonly parentJobName: string | null;
  readonly parentJobUuid: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly namespace: string;
  readonly inputs: readonly NameView[];
  readonly outputs: readonly NameView[];
  readonly location: string | null;
  readonly description: string | null;
  readonly latestRun: RunView | null;
}

/** Marquez's `Job` (`/api/v1/namespaces/{ns}/jobs/{job}`). */
export interface JobView extends JobDataView {
  readonly facets: Readonly<Record<string, unknown>>;
  /** The current job version (a function of the job and its current inputs and outputs). */
  readonly currentVersion: string | null;
  readonly labels: readonly string[];
  readonly tags: readonly string[];
}

/** A column of a dataset. */
export interface FieldView {
  readonly name: string;
  readonly type: string | null;
  readonly tags: readonly string[];
  readonly description: string | null;
}

/** Marquez's `DatasetData`: a dataset node of the lineage graph. */
export interface DatasetDataView {
  readonly id: NameView;
  readonly type: 'DB_TABLE' | 'STREAM';
  readonly name: string;
  readonly physicalName: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly namespace: string;
  readonly sourceName: string;
  readonly fields: readonly FieldView[];
  readonly tags: readonly string[];
  readonly lastModifiedAt: string | null;
  readonly description: string | null;
  readonly lastLifecycleState: string | null;
  readonly facets: Readonly<Record<string, unknown>>;
  /** Only in `runId` graphs: the version the run read or wrote. */
  readonly version?: string | null;
}

/** One input of a column, in Marquez's `Dataset.columnLineage`. */
export interface ColumnLineageInputView {
  readonly namespace: string;
  readonly dataset: string;
  readonly field: string;
  readonly transformationDescription: string | null;
  readonly transformationType: string | null;
}

/** Marquez's `Dataset` (`/api/v1/namespaces/{ns}/datasets/{dataset}`). */
export interface DatasetView extends DatasetDataView {
  readonly currentVersion: string | null;
  readonly columnLineage: ReadonlyArray<{ readonly name: string; readonly inputFields: readonly ColumnLineageInputView[] }> | null;
  readonly deleted: boolean;
  /** lakeline's addition: the job of the run that last wrote the dataset. */
  readonly producedBy: NameView | null;
}

/** Marquez's `DatasetVersion`. */
export interface DatasetVersionView {
  readonly id: NameView;
  readonly type: 'DB_TABLE' | 'STREAM';
  readonly name: string;
  readonly physicalName: string;
  readonly createdAt: string;
  readonly version: string;
  readonly namespace: string;
  readonly sourceName: string;
  readonly fields: readonly FieldView[];
  readonly tags: readonly string[];
  readonly lifecycleState: string | null;
  readonly description: string | null;
  readonly currentSchemaVersion: null;
  readonly createdByRun: RunView;
  readonly facets: Readonly<Record<string, unknown>>;
}

/** Marquez's `Namespace`. */
export interface NamespaceView {
  readonly name: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly ownerName: string;
  readonly description: string | null;
  readonly isHidden: boolean;
}

type Json = Record<string, unknown>;
const asRecord = (value: unknown): Json | undefined => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined);
const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** One entry of an OpenLineage `tags` facet (job or dataset): `{key, value, source?, field?}`. */
interface TagEntry {
  readonly name: string;
  /** The column it tags (dataset facets only); undefined for the whole job or dataset. */
  readonly field: string | undefined;
}

/**
 * The entries of a `tags` facet as Marquez's tag names: the `key`, or `key:value` when the value
 * says more than that the tag applies (Marquez's tags are bare names; OpenLineage's are pairs,
 * `{key: 'pii', value: 'true'}` and `{key: 'tier', value: 'gold'}`). ADR 0042.
 */
function tagEntries(facet: unknown): TagEntry[] {
  const tags = asRecord(facet)?.tags;
  if (!Array.isArray(tags)) return [];
  return tags.flatMap((t) => {
    const tag = asRecord(t);
    if (typeof tag?.key !== 'string' || tag.key === '') return [];
    const value = typeof tag.value === 'string' ? tag.value : '';
    const name = value === '' || value.toLowerCase() === 'true' ? tag.key : `${tag.key}:${value}`;
    return [{ name, field: typeof tag.field === 'string' && tag.field !== '' ? tag.field : undefined }];
  });
}

/** Every tag name of a `tags` facet, the columns' included, each once (the org's tag list). */
export const allTagNamesOf = (facet: unknown): string[] => [...new Set(tagEntries(facet).map((t) => t.name))];

/** Tag names of a job or dataset from its `tags` facet (entries naming a column left out), each once. */
export const tagsOf = (facet: unknown): string[] => [...new Set(tagEntries(facet).flatMap((t) => (t.field === undefined ? [t.name] : [])))];

/** Tag names of each column, from a dataset's `tags` facet. */
const fieldTagsOf = (facet: unknown): Map<string, string[]> => {
  const byField = new Map<string, string[]>();
  for (const t of tagEntries(facet)) {
    if (t.field === undefined) continue;
    const names = byField.get(t.field) ?? [];
    if (!names.includes(t.name)) names.push(t.name);
    byField.set(t.field, names);
  }
  return byField;
};

/** Milliseconds since the epoch of a fixed-width UTC time. */
const millis = (time: string): number => Date.parse(`${time.slice(0, 23)}Z`);

/** The owner Marquez gives namespaces nobody claimed. */
export const DEFAULT_OWNER = 'anonymous';

/** A run in Marquez's shape from what a job head keeps of it (no dataset versions). */
export function summaryView(summary: RunSummary, jobVersion: DatasetVersionIdView, datasetVersions?: { inputs: RunDatasetVersionView[]; outputs: RunDatasetVersionView[] }): RunView {
  return {
    id: summary.runId,
    createdAt: summary.t0,
    updatedAt: summary.tMax,
    nominalStartTime: summary.nominalStartTime,
    nominalEndTime: summary.nominalEndTime,
    state: summary.state,
    jobVersion,
    startedAt: summary.startedAt,
    endedAt: summary.endedAt,
    durationMs: summary.startedAt !== null && summary.endedAt !== null ? Math.max(0, millis(summary.endedAt) - millis(summary.startedAt)) : null,
    args: {},
    facets: summary.facets,
    ...(datasetVersions ? { inputDatasetVersions: datasetVersions.inputs, outputDatasetVersions: datasetVersions.outputs } : {}),
  };
}

/** A job head's latest run in Marquez's shape, or null when its current version is a JobEvent's. */
export const headRunView = (head: JobHeadRecord): RunView | null =>
  head.run ? summaryView(head.run, { namespace: head.namespace, name: head.name, version: jobVersionIdOf(head, head.inputs, head.outputs) }) : null;

/** A run in Marquez's shape. `datasetVersions` adds what it read and wrote (see {@link runDatasetVersions}). */
export function runView(run: RunRecord, datasetVersions?: { inputs: RunDatasetVersionView[]; outputs: RunDatasetVersionView[] }): RunView {
  const jobVersion = { namespace: run.job.namespace, name: run.job.name, version: jobVersionIdOf(run.job, Object.values(run.inputs), Object.values(run.outputs)) };
  return summaryView(runSummaryOf(run), jobVersion, datasetVersions);
}

/** The facets of a dataset version: its dataset facets and the run's input or output facets for it. */
const versionFacets = (entry: { facets: FacetMap; ioFacets: FacetMap }): Record<string, unknown> => ({ ...liveFacets(entry.facets), ...liveFacets(entry.ioFacets) });

/**
 * What a run read and wrote, with versions: an output's version is the one the run made; an
 * input's is its `version` facet when the producer sent one, else the version `readVersions`
 * found (the input's latest version written before the run began), else `unknown` (nothing wrote
 * it before: a source the model has no version of).
 */
export function runDatasetVersions(run: RunRecord, readVersions: ReadonlyMap<string, string>): { inputs: RunDatasetVersionView[]; outputs: RunDatasetVersionView[] } {
  const inputs = Object.entries(run.inputs).map(([id, entry]) => {
    const declared = stringOrNull(asRecord(liveFacet(entry.facets, 'version'))?.datasetVersion);
    return { datasetVersionId: { namespace: entry.namespace, name: entry.name, version: declared ?? readVersions.get(id) ?? 'unknown' }, facets: versionFacets(entry) };
  });
  const outputs = Object.values(run.outputs).map((entry) => ({
    datasetVersionId: { namespace: entry.namespace, name: entry.name, version: datasetVersionIdOf(entry, run.runId) },
    facets: versionFacets(entry),
  }));
  const byName = (a: RunDatasetVersionView, b: RunDatasetVersionView) => compareNames(a.datasetVersionId, b.datasetVersionId);
  return { inputs: inputs.sort(byName), outputs: outputs.sort(byName) };
}

/** Orders names by namespace, then name (code units). */
export const compareNames = (a: QualifiedName, b: QualifiedName): number =>
  a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;

/** A job in Marquez's `JobData` shape; `inputs`/`outputs` are resolved dataset names. */
export function jobDataView(head: JobHeadRecord, version: { inputs: readonly QualifiedName[]; outputs: readonly QualifiedName[] }, latestRun: RunView | null): JobDataView {
  const facets = head.jobFacets;
  return {
    id: { namespace: head.namespace, name: head.name },
    type: head.type,
    name: head.name,
    simpleName: head.name,
    parentJobName: head.parent?.name ?? null,
    parentJobUuid: head.parent ? jobIdOf(head.parent) : null,
    createdAt: head.createdAt,
    updatedAt: head.updatedAt,
    namespace: head.namespace,
    inputs: [...version.inputs].sort(compareNames).map((n) => ({ namespace: n.namespace, name: n.name })),
    outputs: [...version.outputs].sort(compareNames).map((n) => ({ namespace: n.namespace, name: n.name })),
    location: stringOrNull(asRecord(facets.sourceCodeLocation)?.url),
    description: stringOrNull(asRecord(facets.documentation)?.description),
    latestRun,
  };
}

/** A job in Marquez's `Job` shape. */
export function jobView(head: JobHeadRecord, version: { inputs: readonly QualifiedName[]; outputs: readonly QualifiedName[] }, latestRun: RunView | null): JobView {
  return {
    ...jobDataView(head, version, latestRun),
    facets: head.jobFacets,
    currentVersion: head.current ? jobVersionIdOf(head, head.inputs, head.outputs) : null,
    labels: [],
    tags: tagsOf(head.jobFacets.tags),
  };
}

/** Columns of a `schema` facet (top level), with the tags a `tags` facet gives them. */
export function fieldsOf(schema: unknown, tags?: unknown): FieldView[] {
  const fields = asRecord(schema)?.fields;
  if (!Array.isArray(fields)) return [];
  const fieldTags = fieldTagsOf(tags);
  return fields.flatMap((f) => {
    const field = asRecord(f);
    if (typeof field?.name !== 'string') return [];
    return [{ name: field.name, type: stringOrNull(field.type), tags: fieldTags.get(field.name) ?? [], description: stringOrNull(field.description) }];
  });
}

const datasetTypeOf = (facets: Record<string, unknown>): 'DB_TABLE' | 'STREAM' => {
  const type = String(asRecord(facets.datasetType)?.datasetType ?? '').toUpperCase();
  return type === 'STREAM' || type === 'TOPIC' ? 'STREAM' : 'DB_TABLE';
};

/** The records of a dataset's names joined: facets (last writer wins across names), earliest and latest times. */
export interface MergedDataset {
  readonly name: QualifiedName;
  readonly physicalName: string;
  readonly facets: FacetMap;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly lastModifiedAt: string | null;
  readonly writer: DatasetRecord['writer'];
  /** The name the last writer wrote it under. */
  readonly writerName: QualifiedName | null;
}

/**
 * Joins the records of a dataset's names. `physicalName` is the least name other than the
 * resolved one (the storage path behind a catalog table), or the name itself.
 */
export function mergeDatasetNames(name: QualifiedName, records: readonly DatasetRecord[]): MergedDataset {
  let facets: FacetMap = {};
  let createdAt = '';
  let updatedAt = '';
  let lastModifiedAt: string | null = null;
  let writer: DatasetRecord['writer'] = null;
  let writerName: QualifiedName | null = null;
  for (const r of records) {
    facets = mergeFacetMaps(facets, r.facets);
    createdAt = createdAt === '' || r.createdAt < createdAt ? r.createdAt : createdAt;
    updatedAt = r.updatedAt > updatedAt ? r.updatedAt : updatedAt;
    if (r.lastModifiedAt !== null && (lastModifiedAt === null || r.lastModifiedAt > lastModifiedAt)) lastModifiedAt = r.lastModifiedAt;
    if (r.writer && (writer === null || r.writer.k > writer.k)) {
      writer = r.writer;
      writerName = { namespace: r.namespace, name: r.name };
    }
  }
  const others = records.filter((r) => r.namespace !== name.namespace || r.name !== name.name).sort(compareNames);
  return {
    name,
    physicalName: others[0]?.name ?? name.name,
    facets,
    createdAt,
    // A dataset only ever read was last updated when it was first seen.
    updatedAt: updatedAt || createdAt,
    lastModifiedAt,
    writer,
    writerName,
  };
}

/** A dataset in Marquez's `DatasetData` shape. */
export function datasetDataView(dataset: MergedDataset): DatasetDataView {
  const facets = liveFacets(dataset.facets);
  return {
    id: { namespace: dataset.name.namespace, name: dataset.name.name },
    type: datasetTypeOf(facets),
    name: dataset.name.name,
    physicalName: dataset.physicalName,
    createdAt: dataset.createdAt,
    updatedAt: dataset.updatedAt,
    namespace: dataset.name.namespace,
    sourceName: stringOrNull(asRecord(facets.dataSource)?.name) ?? dataset.name.namespace,
    fields: fieldsOf(facets.schema, facets.tags),
    tags: tagsOf(facets.tags),
    lastModifiedAt: dataset.lastModifiedAt,
    description: stringOrNull(asRecord(facets.documentation)?.description),
    lastLifecycleState: stringOrNull(asRecord(facets.lifecycleStateChange)?.lifecycleStateChange),
    facets,
  };
}

/** A dataset version in Marquez's shape, from the run that made it. */
export function datasetVersionView(dataset: QualifiedName, physicalName: string, run: RunRecord, datasetId: string): DatasetVersionView | undefined {
  const entry = run.outputs[datasetId];
  if (entry === undefined) return undefined;
  const facets = versionFacets(entry);
  return {
    id: { namespace: dataset.namespace, name: dataset.name },
    type: datasetTypeOf(facets),
    name: dataset.name,
    physicalName,
    createdAt: run.t0,
    version: datasetVersionIdOf(entry, run.runId),
    namespace: dataset.namespace,
    sourceName: stringOrNull(asRecord(facets.dataSource)?.name) ?? dataset.namespace,
    fields: fieldsOf(facets.schema, facets.tags),
    tags: tagsOf(facets.tags),
    lifecycleState: stringOrNull(asRecord(facets.lifecycleStateChange)?.lifecycleStateChange),
    description: stringOrNull(asRecord(facets.documentation)?.description),
    currentSchemaVersion: null,
    createdByRun: runView(run),
    facets,
  };
}

/** A namespace in Marquez's shape. */
export const namespaceView = (record: { name: string; createdAt: string; updatedAt: string }): NamespaceView => ({
  name: record.name,
  createdAt: record.createdAt,
  // The record keeps the latest hour an event was seen in (rounded down); within the namespace's
  // first hour that is before its first event, which Marquez's clients would read as time running back.
  updatedAt: record.updatedAt < record.createdAt ? record.createdAt : record.updatedAt,
  ownerName: DEFAULT_OWNER,
  description: null,
  isHidden: false,
});

