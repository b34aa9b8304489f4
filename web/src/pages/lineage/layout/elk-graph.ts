/**
 * @module pages/lineage/layout/elk-graph
 * TRIAL (issue 15): the elk graph and options of the phase 2 layout, shared by the in-page and worker trials.
 */
import type { ElkNode } from 'elkjs/lib/elk-api.js';
import type { GraphModel } from '../graph-model.ts';
import type { NodeSize, Positions } from './engine.ts';

export const elkGraph = (model: Pick<GraphModel, 'nodes' | 'edges'>, size: NodeSize): ElkNode => ({
  id: 'root',
  layoutOptions: {
    'elk.algorithm': 'layered',
    'elk.direction': 'RIGHT',
    'elk.layered.spacing.nodeNodeBetweenLayers': '60',
    'elk.spacing.nodeNode': '18',
    'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
    'elk.separateConnectedComponents': 'true',
    'elk.layered.thoroughness': '1',
    'elk.layered.crossingMinimization.greedySwitch.type': 'OFF',
    'elk.edgeRouting': 'POLYLINE',
  },
  children: model.nodes.map((n) => ({ id: n.id, width: size.width, height: size.height })),
  edges: model.edges.map((e) => ({ id: e.id, sources: [e.source], targets: [e.target] })),
});

export const elkPositions = (laidOut: ElkNode): Positions => new Map((laidOut.children ?? []).map((c) => [c.id, { x: c.x ?? 0, y: c.y ?? 0 }]));
