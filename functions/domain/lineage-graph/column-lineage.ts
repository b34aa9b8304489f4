/**
 * @module lineage-graph/column-lineage
 * Column lineage (`GET /api/v1/column-lineage`), in Marquez 0.51's shape (`ColumnLineageService`):
 * nodes `datasetField:ns:dataset:field` whose data lists the input fields each column comes from.
 * Read from the `columnLineage` facet of each dataset's latest write, in both layouts of the facet
 * (1-2-0): per-column `inputFields`, and the dataset-wide `dataset` entries (columns that shape
 * every row: joins, filters, grouping, sorting), which count as inputs of every column. The
 * transformation's type, subtype, description and masking are kept (`transformations`), and so is
 * the older `transformationType`/`transformationDescription` form.
 *
 * Like Marquez, a node's `inEdges` are `{origin: the node, destination: an input field}` and an
 * input field's `outEdges` are `{origin: the input field, destination: the node}`.
 */
import { answerForReadings } from './resolve-node-id.ts';
import { NotFoundError } from '../errors.ts';
import { datasetFieldNodeId, datasetIdOf, jobIdOf, type NodeId, type QualifiedName } from './ids.ts';
import type { LineageModelReader, LineageModelReads } from './ports.ts';
import type { DatasetColumnLineage } from './records.ts';
import { DatasetResolver, type DatasetGroup } from './resolve.ts';
import { laterEntry, type FacetEntry } from './facets.ts';
import type { EdgeView } from './graph.ts';
import { fieldsOf } from './views.ts';

/** One transformation of an input field (ColumnLineageDatasetFacet 1-2-0). */
export interface TransformationView {
  readonly type: string;
  readonly subtype: string | null;
  readonly description: string | null;
  readonly masking: boolean | null;
}

/** An input field of a column (Marquez's `InputFieldNodeData`, plus `transformations`). */
export interface InputFieldView {
  readonly namespace: string;
  readonly dataset: string;
  readonly datasetVersion: string | null;
  readonly field: string;
  readonly transformationDescription: string | null;
  readonly transformationType: string | null;
  readonly transformations: readonly TransformationView[];
}

/** A column node's data (Marquez's `ColumnLineageNodeData`). */
export interface ColumnLineageNodeDataView {
  readonly namespace: string;
  readonly dataset: string;
  readonly datasetVersion: string | null;
  readonly field: string;
  readonly fieldType: string | null;
  readonly transformationDescription: string | null;
  readonly transformationType: string | null;
  readonly inputFields: readonly InputFieldView[];
}

/** A node of the column-lineage graph. */
export interface ColumnLineageNodeView {
  readonly id: string;
  readonly type: 'DATASET_FIELD';
  readonly data: ColumnLineageNodeDataView;
  readonly inEdges: readonly EdgeView[];
  readonly outEdges: readonly EdgeView[];
}

/** `{graph: [...]}`. */
export interface ColumnLineageGraphView {
  readonly graph: readonly ColumnLineageNodeView[];
}

/** A column-lineage request, validated (see `params.ts`). */
export interface ColumnLineageQuery {
  /** A `datasetField:` node, a `dataset:` node (all of its columns) or a `job:` node (every column of its current outputs, as Marquez). */
  readonly nodeId: NodeId;
  /** The node id's other readings, when its colons leave more than one (`nodeIdReadings`). */
  readonly otherReadings?: readonly NodeId[];
  /** Edges to follow from the start columns, each way. */
  readonly depth: number;
  readonly withDownstream: boolean;
}

/** One input of a column as the facet states it, before names are resolved. */
export interface ColumnInput extends QualifiedName {
  readonly field: string;
  readonly transformations: readonly TransformationView[];
  readonly transformationType: string | null;
  readonly transformationDescription: string | null;
}

/** The facet read: inputs per column, and the dataset-wide inputs. */
export interface ParsedColumnLineage {
  readonly fields: ReadonlyMap<string, readonly ColumnInput[]>;
  readonly dataset: readonly ColumnInput[];
}

type Json = Record<string, unknown>;
const asRecord = (value: unknown): Json | undefined => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined);
const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

const transformationsOf = (value: unknown): TransformationView[] =>
  Array.isArray(value)
    ? value.flatMap((t) => {
        const r = asRecord(t);
        if (typeof r?.type !== 'string') return [];
        return [{ type: r.type, subtype: stringOrNull(r.subtype), description: stringOrNull(r.description), masking: typeof r.masking === 'boolean' ? r.masking : null }];
      })
    : [];

const inputOf = (value: unknown, legacy: { type: string | null; description: string | null }): ColumnInput | undefined => {
  const r = asRecord(value);
  if (typeof r?.namespace !== 'string' || typeof r.name !== 'string' || typeof r.field !== 'string') return undefined;
  const transformations = transformationsOf(r.transformations);
  const first = transformations[0];
  return {
    namespace: r.namespace,
    name: r.name,
    field: r.field,
    transformations,
    // The older form puts type and description on the column; the newer on each input, where the
    // subtype (IDENTITY, TRANSFORMATION, …) is the closest to the older vocabulary.
    transformationType: legacy.type ?? first?.subtype ?? first?.type ?? null,
    transformationDescription: legacy.description ?? first?.description ?? null,
  };
};

/** Reads a `columnLineage` facet value in either layout. */
export function parseColumnLineage(facet: unknown): ParsedColumnLineage {
  const value = asRecord(facet);
  const fields = new Map<string, ColumnInput[]>();
  for (const [name, entry] of Object.entries(asRecord(value?.fields) ?? {})) {
    const column = asRecord(entry);
    const legacy = { type: stringOrNull(column?.transformationType), description: stringOrNull(column?.transformationDescription) };
    const inputs = Array.isArray(column?.inputFields) ? column.inputFields.flatMap((f) => inputOf(f, legacy) ?? []) : [];
    fields.set(name, inputs);
  }
  const dataset = Array.isArray(value?.dataset) ? value.dataset.flatMap((f) => inputOf(f, { type: null, description: null }) ?? []) : [];
  return { fields, dataset };
}

/**
 * The inputs of one column: its own, then the dataset-wide ones; the same input field listed both
 * ways is one input with both transformations.
 */
export function inputsOfColumn(parsed: ParsedColumnLineage, column: string): ColumnInput[] {
  const merged = new Map<string, ColumnInput>();
  for (const input of [...(parsed.fields.get(column) ?? []), ...parsed.dataset]) {
    const key = `${input.namespace}\u0000${input.name}\u0000${input.field}`;
    const known = merged.get(key);
    merged.set(key, known ? { ...known, transformations: [...known.transformations, ...input.transformations], transformationType: known.transformationType ?? input.transformationType } : input);
  }
  return [...merged.values()];
}

/** A column in the graph: its resolved dataset and its name. */
interface Column {
  readonly group: DatasetGroup<DatasetColumnLineage>;
  readonly field: string;
}

const columnKey = (group: DatasetGroup, field: string): string => datasetFieldNodeId(group.name, field);

/** The facet of the latest write among a dataset's names. */
const groupFacet = (group: { readonly members: readonly DatasetColumnLineage[] }, name: 'columnLineage' | 'schema'): unknown => {
  let winner: FacetEntry | undefined;
  for (const member of group.members) winner = laterEntry(winner, member[name] ?? undefined);
  return winner && !winner.d ? winner.v : undefined;
};

/** The column-lineage graph. @throws {NotFoundError} for an unknown dataset or column */
export async function columnLineageGraph(store: LineageModelReads, orgId: string, query: ColumnLineageQuery): Promise<ColumnLineageGraphView> {
  const model = await store.model(orgId);
  return answerForReadings(model, query.nodeId, query.otherReadings, (nodeId) => columnGraph(model, query, nodeId));
}

/** The column graph of one field, dataset or job node. @throws {NotFoundError} for an unknown node */
async function columnGraph(model: LineageModelReader, query: ColumnLineageQuery, nodeId: NodeId): Promise<ColumnLineageGraphView> {
  const resolver = new DatasetResolver<DatasetColumnLineage>((ids) => model.getDatasetColumnLineage(ids));
  const what = nodeId.type === 'DATASET_FIELD' ? `column ${nodeId.namespace}:${nodeId.name}:${nodeId.field}` : `${nodeId.type === 'JOB' ? 'job' : 'dataset'} ${nodeId.namespace}:${nodeId.name}`;
  // A job's column lineage is its current outputs' (Marquez: the fields of the job's datasets).
  let startIds = [datasetIdOf(nodeId)];
  if (nodeId.type === 'JOB') {
    const head = (await model.getJobHeads([jobIdOf(nodeId)])).get(jobIdOf(nodeId))?.value;
    if (!head) throw new NotFoundError(`nodeId: ${what} not found`);
    startIds = head.outputs.map((o) => o.id);
  }
  const resolved = await resolver.resolve(startIds);
  const startGroups = [...new Map(startIds.flatMap((id) => (resolved.has(id) ? [resolved.get(id) as Column['group']] : [])).map((g) => [g.id, g])).values()];
  const startGroup = startGroups[0];
  if (startGroup === undefined && nodeId.type !== 'JOB') throw new NotFoundError(`nodeId: ${what} not found`);
  const parsedOf = new Map<string, ParsedColumnLineage>();
  const parsed = (group: Column['group']): ParsedColumnLineage => {
    let known = parsedOf.get(group.id);
    if (!known) parsedOf.set(group.id, (known = parseColumnLineage(groupFacet(group, 'columnLineage'))));
    return known;
  };
  const schemaColumns = (group: Column['group']) => fieldsOf(groupFacet(group, 'schema'));
  const columnsOf = (group: Column['group']): Column[] =>
    [...new Set([...schemaColumns(group).map((f) => f.name), ...parsed(group).fields.keys()])].sort().map((field) => ({ group, field }));
  const startColumns: Column[] = nodeId.type === 'DATASET_FIELD' ? [{ group: startGroup as Column['group'], field: nodeId.field }] : startGroups.flatMap(columnsOf);
  const known = (field: string) => startGroup !== undefined && (schemaColumns(startGroup).some((f) => f.name === field) || parsed(startGroup).fields.has(field));

  const nodes = new Map<string, Column>();
  const inputsOf = new Map<string, Map<string, ColumnInput & { readonly node: string }>>();
  const addEdge = (output: Column, input: Column, how: ColumnInput) => {
    const out = columnKey(output.group, output.field);
    const inKey = columnKey(input.group, input.field);
    nodes.set(out, output);
    nodes.set(inKey, input);
    const list = inputsOf.get(out) ?? new Map<string, ColumnInput & { node: string }>();
    list.set(inKey, { ...how, namespace: input.group.name.namespace, name: input.group.name.name, node: inKey });
    inputsOf.set(out, list);
  };
  for (const column of startColumns) nodes.set(columnKey(column.group, column.field), column);

  let upstream: Column[] = startColumns;
  let downstream: Column[] = query.withDownstream ? upstream : [];
  const seenUp = new Set(upstream.map((c) => columnKey(c.group, c.field)));
  const seenDown = new Set(seenUp);
  for (let level = 0; level < query.depth && (upstream.length > 0 || downstream.length > 0); level++) {
    upstream = await stepUpstream(resolver, upstream, parsed, seenUp, addEdge);
    downstream = await stepDownstream(resolver, downstream, parsed, seenDown, addEdge);
  }
  if (nodeId.type === 'DATASET_FIELD' && !known(nodeId.field) && inputsOf.size === 0) throw new NotFoundError(`nodeId: ${what} not found`);
  return { graph: render(nodes, inputsOf, schemaColumns) };
}

async function stepUpstream(
  resolver: DatasetResolver<DatasetColumnLineage>,
  frontier: readonly Column[],
  parsed: (group: Column['group']) => ParsedColumnLineage,
  seen: Set<string>,
  addEdge: (output: Column, input: Column, how: ColumnInput) => void,
): Promise<Column[]> {
  const pending = frontier.map((c) => ({ column: c, inputs: inputsOfColumn(parsed(c.group), c.field) }));
  const groups = await resolver.resolve(pending.flatMap((p) => p.inputs.map((i) => datasetIdOf(i))));
  const next: Column[] = [];
  for (const { column, inputs } of pending) {
    for (const input of inputs) {
      const group = groups.get(datasetIdOf(input));
      if (!group) continue;
      const inColumn = { group, field: input.field };
      addEdge(column, inColumn, input);
      const key = columnKey(group, input.field);
      if (!seen.has(key)) {
        seen.add(key);
        next.push(inColumn);
      }
    }
  }
  return next;
}

async function stepDownstream(
  resolver: DatasetResolver<DatasetColumnLineage>,
  frontier: readonly Column[],
  parsed: (group: Column['group']) => ParsedColumnLineage,
  seen: Set<string>,
  addEdge: (output: Column, input: Column, how: ColumnInput) => void,
): Promise<Column[]> {
  if (frontier.length === 0) return [];
  const consumers = await resolver.resolve(frontier.flatMap((c) => c.group.members.flatMap((m) => m.clDown)));
  const next: Column[] = [];
  const consumerGroups = [...new Map([...consumers.values()].map((g) => [g.id, g])).values()];
  for (const column of frontier) {
    for (const group of consumerGroups) {
      const lineage = parsed(group);
      for (const field of lineage.fields.keys()) {
        for (const input of inputsOfColumn(lineage, field)) {
          if (input.field !== column.field || !column.group.memberIds.has(datasetIdOf(input))) continue;
          const out = { group, field };
          addEdge(out, column, input);
          const key = columnKey(group, field);
          if (!seen.has(key)) {
            seen.add(key);
            next.push(out);
          }
        }
      }
    }
  }
  return next;
}

const byEdge = (a: EdgeView, b: EdgeView): number =>
  a.origin < b.origin ? -1 : a.origin > b.origin ? 1 : a.destination < b.destination ? -1 : a.destination > b.destination ? 1 : 0;

function render(
  nodes: ReadonlyMap<string, Column>,
  inputsOf: ReadonlyMap<string, ReadonlyMap<string, ColumnInput & { readonly node: string }>>,
  schemaColumns: (group: Column['group']) => ReturnType<typeof fieldsOf>,
): ColumnLineageNodeView[] {
  const outEdges = new Map<string, EdgeView[]>();
  for (const [out, inputs] of inputsOf) for (const input of inputs.values()) outEdges.set(input.node, [...(outEdges.get(input.node) ?? []), { origin: input.node, destination: out }]);
  return [...nodes]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([id, column]) => {
      const inputs = [...(inputsOf.get(id)?.values() ?? [])].sort((a, b) => (a.node < b.node ? -1 : a.node > b.node ? 1 : 0));
      const inputFields: InputFieldView[] = inputs.map((i) => ({
        namespace: i.namespace,
        dataset: i.name,
        datasetVersion: null,
        field: i.field,
        transformationDescription: i.transformationDescription,
        transformationType: i.transformationType,
        transformations: i.transformations,
      }));
      return {
        id,
        type: 'DATASET_FIELD' as const,
        data: {
          namespace: column.group.name.namespace,
          dataset: column.group.name.name,
          datasetVersion: null,
          field: column.field,
          fieldType: schemaColumns(column.group).find((f) => f.name === column.field)?.type ?? null,
          transformationDescription: inputFields[0]?.transformationDescription ?? null,
          transformationType: inputFields[0]?.transformationType ?? null,
          inputFields,
        },
        inEdges: inputs.map((i) => ({ origin: id, destination: i.node })).sort(byEdge),
        outEdges: (outEdges.get(id) ?? []).sort(byEdge),
      };
    });
}

/** Column lineage of a dataset for Marquez's `Dataset.columnLineage`: inputs per column, names resolved. */
export async function datasetColumnLineage(model: LineageModelReader, facet: unknown): Promise<Array<{ name: string; inputFields: Array<{ namespace: string; dataset: string; field: string; transformationDescription: string | null; transformationType: string | null }> }> | null> {
  if (facet === undefined || facet === null) return null;
  const parsed = parseColumnLineage(facet);
  const resolver = DatasetResolver.forLinks(model);
  const allInputs = [...parsed.fields.keys()].flatMap((f) => inputsOfColumn(parsed, f));
  const groups = await resolver.resolve(allInputs.map((i) => datasetIdOf(i)));
  return [...parsed.fields.keys()].sort().map((name) => ({
    name,
    inputFields: inputsOfColumn(parsed, name).map((i) => {
      const resolved = groups.get(datasetIdOf(i))?.name ?? i;
      return { namespace: resolved.namespace, dataset: resolved.name, field: i.field, transformationDescription: i.transformationDescription, transformationType: i.transformationType };
    }),
  }));
}
