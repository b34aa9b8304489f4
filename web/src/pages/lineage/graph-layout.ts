/**
 * @module pages/lineage/graph-layout
 * Positions of a graph's nodes by dagre's layered layout, left to right (inputs on the left).
 * Loaded with the graph canvas, on demand. Why dagre and not elkjs: ADR 0032.
 */
import dagre from '@dagrejs/dagre';
import type { GraphModel } from './graph-model.ts';

/** A node's box in the drawing. */
export interface NodeSize {
  readonly width: number;
  readonly height: number;
}

/** Top-left corners by node id. */
export type Positions = ReadonlyMap<string, { x: number; y: number }>;

/** The User Timing measure of each layout, which `bench/console.ts` reads from the page. */
export const LAYOUT_MEASURE = 'lineage-layout';

/** Lays the graph out (synchronously: about a quarter of a second for 500 nodes); every node gets the same box. */
export const layoutGraph = (model: GraphModel, size: NodeSize): Positions => {
  const start = performance.now();
  const graph = new dagre.graphlib.Graph();
  // tight-tree ranking: the default (network simplex) took 3–4 times as long at 500 nodes for the same layers.
  graph.setGraph({ rankdir: 'LR', ranker: 'tight-tree', nodesep: 18, ranksep: 60 });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const node of model.nodes) graph.setNode(node.id, { width: size.width, height: size.height });
  for (const edge of model.edges) graph.setEdge(edge.source, edge.target);
  dagre.layout(graph);
  // dagre places node centres; React Flow wants top-left corners.
  const positions = new Map(
    model.nodes.map((node) => {
      const { x = 0, y = 0 } = graph.node(node.id);
      return [node.id, { x: x - size.width / 2, y: y - size.height / 2 }] as const;
    }),
  );
  performance.measure(LAYOUT_MEASURE, { start, end: performance.now() });
  return positions;
};
