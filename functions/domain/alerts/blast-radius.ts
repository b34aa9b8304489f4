/**
 * @module alerts/blast-radius
 * What an alert breaks downstream: the jobs and datasets below its job or dataset in the lineage
 * graph (the current graph, read when the alert is shown or notified, so it is as fresh as the
 * model), nearest first, bounded in depth and in count (the rest counted), each with the owners an
 * `ownership` facet names.
 */
import { NotFoundError } from '../errors.ts';
import { lineageGraph, type GraphNodeView } from '../lineage-graph/graph.ts';
import type { LineageModelReads } from '../lineage-graph/ports.ts';
import type { AlertSubject } from './types.ts';

/** Job hops followed downstream. */
export const BLAST_RADIUS_DEPTH = 5;
/** Jobs and datasets listed each; more are counted. */
export const BLAST_RADIUS_LIMIT = 25;

/** One downstream job or dataset. */
export interface AffectedNode {
  readonly type: 'JOB' | 'DATASET';
  readonly namespace: string;
  readonly name: string;
  /** Edges from the alert's job or dataset. */
  readonly distance: number;
  /** Owner names from its `ownership` facet. */
  readonly owners: readonly string[];
}

/** An alert's blast radius. */
export interface BlastRadius {
  readonly depth: number;
  readonly jobs: readonly AffectedNode[];
  readonly datasets: readonly AffectedNode[];
  /** All downstream jobs and datasets within the depth, listed or not. */
  readonly jobCount: number;
  readonly datasetCount: number;
  /** Every owner named downstream (listed or not), distinct, sorted. */
  readonly owners: readonly string[];
}

const EMPTY: BlastRadius = { depth: BLAST_RADIUS_DEPTH, jobs: [], datasets: [], jobCount: 0, datasetCount: 0, owners: [] };

const ownersOf = (node: GraphNodeView): string[] => {
  const facets = (node.data as { facets?: Readonly<Record<string, unknown>> }).facets ?? {};
  const ownership = facets.ownership as { owners?: unknown } | undefined;
  if (!ownership || !Array.isArray(ownership.owners)) return [];
  return ownership.owners.flatMap((o: unknown) => (typeof o === 'object' && o !== null && typeof (o as { name?: unknown }).name === 'string' ? [(o as { name: string }).name] : []));
};

/** Downstream of a job or dataset; empty when the lineage model does not know it (yet). */
export const blastRadiusOf = async (store: LineageModelReads, orgId: string, subject: AlertSubject): Promise<BlastRadius> => {
  let graph;
  try {
    graph = await lineageGraph(store, orgId, { nodeId: { type: subject.type, namespace: subject.namespace, name: subject.name }, depth: BLAST_RADIUS_DEPTH, direction: 'downstream' });
  } catch (err) {
    if (err instanceof NotFoundError) return EMPTY;
    throw err;
  }
  const nodes = new Map(graph.graph.map((node) => [node.id, node]));
  const start = graph.graph.find((node) => node.type === subject.type && node.data.namespace === subject.namespace && node.data.name === subject.name);
  if (!start) return EMPTY;
  // Breadth first along out-edges: each node's distance is its nearest path.
  const distance = new Map<string, number>([[start.id, 0]]);
  const queue = [start.id];
  while (queue.length > 0) {
    const id = queue.shift() as string;
    for (const edge of nodes.get(id)?.outEdges ?? []) {
      if (distance.has(edge.destination) || !nodes.has(edge.destination)) continue;
      distance.set(edge.destination, (distance.get(id) as number) + 1);
      queue.push(edge.destination);
    }
  }
  const affected: AffectedNode[] = [];
  for (const [id, d] of distance) {
    const node = nodes.get(id) as GraphNodeView;
    if (id === start.id) continue;
    affected.push({ type: node.type, namespace: node.data.namespace, name: node.data.name, distance: d, owners: ownersOf(node) });
  }
  affected.sort((a, b) => a.distance - b.distance || a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name));
  const jobs = affected.filter((n) => n.type === 'JOB');
  const datasets = affected.filter((n) => n.type === 'DATASET');
  return {
    depth: BLAST_RADIUS_DEPTH,
    jobs: jobs.slice(0, BLAST_RADIUS_LIMIT),
    datasets: datasets.slice(0, BLAST_RADIUS_LIMIT),
    jobCount: jobs.length,
    datasetCount: datasets.length,
    owners: [...new Set(affected.flatMap((n) => n.owners))].sort(),
  };
};
