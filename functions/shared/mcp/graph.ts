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
