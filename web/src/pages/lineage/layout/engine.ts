/**
 * @module pages/lineage/layout/engine
 * TRIAL (issue 15): the layout engine picked by `?layout=` (dagre, elk, elk-worker), each a chunk
 * of its own, loaded when the graph page opens.
 */
import type { GraphModel } from '../graph-model.ts';

/** A node's box in the drawing. */
export interface NodeSize {
  readonly width: number;
  readonly height: number;
}

/** Top-left corners by node id. */
export type Positions = ReadonlyMap<string, { x: number; y: number }>;

export type LayoutEngine = (model: GraphModel, size: NodeSize) => Promise<Positions>;

const chosen = (): string => new URLSearchParams(globalThis.location?.search ?? '').get('layout') ?? 'dagre';

let loading: Promise<LayoutEngine> | undefined;

/** Starts loading (and for the worker, warming) the chosen engine. */
export const loadLayoutEngine = (): Promise<LayoutEngine> => {
  if (!loading) {
    const name = chosen();
    loading =
      name === 'elk'
        ? import('./layout-elk.ts').then((m) => m.layoutWithElk)
        : name === 'elk-worker'
          ? import('./layout-elk-worker.ts').then((m) => m.layoutWithElkWorker)
          : import('./layout-dagre.ts').then((m) => m.layoutWithDagre);
  }
  return loading;
};

/** Lays the graph out with the chosen engine; marks `lineage-layout` for the benchmark. */
export const layoutGraph = async (model: GraphModel, size: NodeSize): Promise<Positions> => {
  const engine = await loadLayoutEngine();
  const start = performance.now();
  const positions = await engine(model, size);
  performance.measure('lineage-layout', { start, end: performance.now() });
  return positions;
};
