/**
 * @module pages/lineage/layout/layout-dagre
 * TRIAL (issue 15): dagre's layered layout, left to right, on the main thread.
 */
import dagre from '@dagrejs/dagre';
import type { LayoutEngine } from './engine.ts';

export const layoutWithDagre: LayoutEngine = (model, size) => {
  const graph = new dagre.graphlib.Graph();
  graph.setGraph({ rankdir: 'LR', nodesep: 18, ranksep: 60, ranker: 'tight-tree' });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const node of model.nodes) graph.setNode(node.id, { width: size.width, height: size.height });
  for (const edge of model.edges) graph.setEdge(edge.source, edge.target);
  dagre.layout(graph);
  return Promise.resolve(
    new Map(
      model.nodes.map((node) => {
        const placed = graph.node(node.id);
        return [node.id, { x: (placed.x ?? 0) - size.width / 2, y: (placed.y ?? 0) - size.height / 2 }];
      }),
    ),
  );
};
