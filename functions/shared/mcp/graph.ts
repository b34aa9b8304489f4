/**
 * @module mcp-graph
 * The lineage graph as the MCP tools give it to a model: compact (node ids, kinds, names, a job's
 * latest state, and edges) rather than Marquez's full objects, and the paths between two nodes
 * found by a bounded breadth-first search over one graph answer.
 */
import { z } from '../schemas/zod.ts';

/** A node of the compact graph. */
export const CompactNode = z.object({
  id: z.string(),
  type: z.enum(['JOB', 'DATASET']),
  namespace: z.string(),
  name: z.string(),
  latestRunState: z.string().nullable().optional(),
});

/** An edge of the compact graph: `from` feeds `to` (a dataset read by a job, or written by it). */
export const CompactEdge = z.object({ from: z.string(), to: z.string() });

/** The compact graph. */
export const CompactGraph = z.object({ nodes: z.array(CompactNode), edges: z.array(CompactEdge) });
export type CompactGraph = z.infer<typeof CompactGraph>;

/** What the compaction reads of a Marquez lineage node. */
export interface MarquezNode {
  readonly id: string;
  readonly type: 'JOB' | 'DATASET' | string;
  readonly data: { readonly namespace?: string; readonly name?: string; readonly latestRun?: { readonly state?: string } | null };
  readonly inEdges: readonly { readonly origin: string; readonly destination: string }[];
  readonly outEdges: readonly { readonly origin: string; readonly destination: string }[];
}

/** Marquez's graph as nodes and edges (each edge once). */
export const compactGraph = (graph: readonly MarquezNode[]): CompactGraph => {
  const edges = new Map<string, { from: string; to: string }>();
  for (const node of graph) {
    for (const e of [...node.inEdges, ...node.outEdges]) edges.set(`${e.origin}\n${e.destination}`, { from: e.origin, to: e.destination });
  }
  return {
    nodes: graph.map((n) => ({
      id: n.id,
      type: n.type === 'JOB' ? 'JOB' : 'DATASET',
      namespace: n.data.namespace ?? '',
      name: n.data.name ?? '',
      ...(n.type === 'JOB' ? { latestRunState: n.data.latestRun?.state ?? null } : {}),
    })),
    edges: [...edges.values()],
  };
};

/**
 * Up to `maxPaths` shortest simple paths from `from` to `to` following edges forward, none longer
 * than `maxHops` edges: a breadth-first search over partial paths, so the first found are the
 * shortest. `truncated` says the search stopped at a bound, not at the end of the graph.
 */
export const pathsBetween = (
  graph: CompactGraph,
  from: string,
  to: string,
  bounds: { readonly maxPaths: number; readonly maxHops: number; readonly maxExpansions?: number },
): { paths: string[][]; truncated: boolean } => {
  const next = new Map<string, string[]>();
  for (const e of graph.edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const paths: string[][] = [];
  const queue: string[][] = [[from]];
  const maxExpansions = bounds.maxExpansions ?? 10_000;
  let expansions = 0;
  while (queue.length > 0) {
    const path = queue.shift() as string[];
    const last = path[path.length - 1] as string;
    if (last === to && path.length > 1) {
      paths.push(path);
      if (paths.length >= bounds.maxPaths) return { paths, truncated: queue.length > 0 };
      continue;
    }
    if (path.length - 1 >= bounds.maxHops) continue;
    for (const n of next.get(last) ?? []) {
      if (path.includes(n)) continue;
      if (++expansions > maxExpansions) return { paths, truncated: true };
      queue.push([...path, n]);
    }
  }
  return { paths, truncated: false };
};

/**
 * At most `maxNodes` nodes of a graph, nearest the focus first (hops over edges either way; nodes
 * the focus does not reach come last), and the edges between those kept. `totalNodes` says how
 * many there were.
 */
export const limitGraph = (graph: CompactGraph, focus: string | undefined, maxNodes: number): CompactGraph & { truncated: boolean; totalNodes: number } => {
  const totalNodes = graph.nodes.length;
  if (totalNodes <= maxNodes) return { ...graph, truncated: false, totalNodes };
  const neighbours = new Map<string, string[]>();
  for (const e of graph.edges) {
    neighbours.set(e.from, [...(neighbours.get(e.from) ?? []), e.to]);
    neighbours.set(e.to, [...(neighbours.get(e.to) ?? []), e.from]);
  }
  const order: string[] = [];
  const seen = new Set<string>();
  const queue = focus !== undefined && graph.nodes.some((n) => n.id === focus) ? [focus] : [];
  for (const id of queue) seen.add(id);
  while (queue.length > 0 && order.length < maxNodes) {
    const id = queue.shift() as string;
    order.push(id);
    for (const n of neighbours.get(id) ?? []) {
      if (seen.has(n)) continue;
      seen.add(n);
      queue.push(n);
    }
  }
  for (const n of graph.nodes) if (order.length < maxNodes && !order.includes(n.id)) order.push(n.id);
  const kept = new Set(order);
  return { nodes: graph.nodes.filter((n) => kept.has(n.id)), edges: graph.edges.filter((e) => kept.has(e.from) && kept.has(e.to)), truncated: true, totalNodes };
};
