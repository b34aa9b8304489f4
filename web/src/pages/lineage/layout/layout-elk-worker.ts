/**
 * @module pages/lineage/layout/layout-elk-worker
 * TRIAL (issue 15): elkjs in a Web Worker (its elk-worker.min.js served from 'self'), created and
 * warmed with a small layered graph as soon as this module loads (when the graph page opens).
 */
import ELK from 'elkjs/lib/elk-api.js';
import elkWorkerUrl from 'elkjs/lib/elk-worker.min.js?url';
import { elkGraph, elkPositions } from './elk-graph.ts';
import type { LayoutEngine } from './engine.ts';

const elk = new ELK({ workerFactory: () => new Worker(elkWorkerUrl) });

// Warm-up: a 10 × 12 layered graph, laid out while the API walks the real one.
const warmNodes = Array.from({ length: 120 }, (_, i) => ({ id: `w${i}` }));
const warmEdges = warmNodes.flatMap((_, i) => (i + 12 < 120 ? [{ id: `e${i}`, source: `w${i}`, target: `w${i + 12}` }, { id: `f${i}`, source: `w${i}`, target: `w${i + 12 - (i % 12 === 0 ? 0 : 1)}` }] : []));
const warmed = elk.layout(elkGraph({ nodes: warmNodes as never, edges: warmEdges as never }, { width: 170, height: 34 })).catch(() => undefined);

export const layoutWithElkWorker: LayoutEngine = async (model, size) => {
  await warmed;
  return elkPositions(await elk.layout(elkGraph(model, size)));
};
