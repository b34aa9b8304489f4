/**
 * @module pages/lineage/graph-model
 * What the graph canvas draws, independent of the API's two graph shapes: nodes (job, dataset or
 * column) with a label and, for jobs, their latest run's state; edges from origin to destination.
 * Built from `GET /api/v1/lineage` and `GET /api/v1/column-lineage` answers.
 */
import type { ColumnLineage, JobData, Lineage } from '../../api/types.ts';

/** A node to draw. */
export interface GraphNode {
  readonly id: string;
  readonly kind: 'job' | 'dataset' | 'field';
  /** The name, shown in both modes. */
  readonly label: string;
  /** The namespace (and for a column, its dataset), shown in full mode. */
  readonly detail: string;
  /** A job's latest run state (`FAILED` stands out); a dataset field's type. */
  readonly badge?: string;
}

/** An edge to draw, origin → destination. */
export interface GraphEdge {
  readonly id: string;
  readonly source: string;
  readonly target: string;
}

/** A graph to draw. */
export interface GraphModel {
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
}

const edgeId = (source: string, target: string): string => `${source}->${target}`;

/** Keeps each edge once (both of its nodes list it) and only between drawn nodes. */
const uniqueEdges = (pairs: readonly (readonly [string, string])[], nodeIds: ReadonlySet<string>): GraphEdge[] => {
  const seen = new Map<string, GraphEdge>();
  for (const [source, target] of pairs) {
    if (!nodeIds.has(source) || !nodeIds.has(target)) continue;
    const id = edgeId(source, target);
    if (!seen.has(id)) seen.set(id, { id, source, target });
  }
  return [...seen.values()].sort((a, b) => a.id.localeCompare(b.id));
};

/** The model of a lineage graph answer. */
export const lineageModel = (lineage: Lineage): GraphModel => {
  const nodes: GraphNode[] = lineage.graph.map((node) => {
    const data = node.data;
    if (node.type === 'JOB') {
      const job = data as JobData;
      return { id: node.id, kind: 'job', label: job.name, detail: job.namespace, ...(job.latestRun ? { badge: job.latestRun.state } : {}) };
    }
    return { id: node.id, kind: 'dataset', label: data.name, detail: data.namespace };
  });
  const ids = new Set(nodes.map((n) => n.id));
  const pairs = lineage.graph.flatMap((node) => [...node.inEdges, ...node.outEdges].map((e) => [e.origin, e.destination] as const));
  return { nodes, edges: uniqueEdges(pairs, ids) };
};

/**
 * The model of a column-lineage answer. Its `inEdges` point from a column to its inputs (Marquez's
 * convention), so every edge is drawn from the input column to the column it feeds.
 */
export const columnModel = (columns: ColumnLineage): GraphModel => {
  const nodes: GraphNode[] = columns.graph.map((node) => ({
    id: node.id,
    kind: 'field',
    label: node.data.field,
    detail: `${node.data.namespace} / ${node.data.dataset}`,
    ...(node.data.fieldType ? { badge: node.data.fieldType } : {}),
  }));
  const ids = new Set(nodes.map((n) => n.id));
  const pairs = columns.graph.flatMap((node) => [
    ...node.inEdges.map((e) => [e.destination, e.origin] as const),
    ...node.outEdges.map((e) => [e.origin, e.destination] as const),
  ]);
  return { nodes, edges: uniqueEdges(pairs, ids) };
};
