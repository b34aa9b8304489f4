/**
 * @module pages/lineage/graph-layout
 * Positions of a graph's nodes by elkjs's layered algorithm, left to right (inputs on the left):
 * the layout library Marquez's web UI uses too. Loaded with the graph canvas, on demand.
 */
import ELK from 'elkjs/lib/elk.bundled.js';
import type { GraphModel } from './graph-model.ts';

/** A node's box in the drawing. */
export interface NodeSize {
  readonly width: number;
  readonly height: number;
}

/** Top-left corners by node id. */
export type Positions = ReadonlyMap<string, { x: number; y: number }>;

// One engine for the page's life: elk's bundled build runs in the page (no worker file to serve).
const elk = new ELK();

/** Lays the graph out; every node gets the same box. */
export const layoutGraph = async (model: GraphModel, size: NodeSize): Promise<Positions> => {
  const laidOut = await elk.layout({
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'RIGHT',
      'elk.layered.spacing.nodeNodeBetweenLayers': '60',
      'elk.spacing.nodeNode': '18',
      'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
      'elk.separateConnectedComponents': 'true',
      // Speed over the last few crossings: 500 nodes must stay interactive (bench/console.ts).
      'elk.layered.thoroughness': '1',
      'elk.layered.crossingMinimization.greedySwitch.type': 'OFF',
      // React Flow draws the edges itself: elk's routes are not used, so the cheapest routing.
      'elk.edgeRouting': 'POLYLINE',
    },
    children: model.nodes.map((n) => ({ id: n.id, width: size.width, height: size.height })),
    edges: model.edges.map((e) => ({ id: e.id, sources: [e.source], targets: [e.target] })),
  });
  return new Map((laidOut.children ?? []).map((c) => [c.id, { x: c.x ?? 0, y: c.y ?? 0 }]));
};
