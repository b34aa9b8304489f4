/**
 * @module pages/lineage/graph-canvas
 * The drawn graph: React Flow (pan, zoom, a minimap, fit to view) over dagre's layout. Job nodes
 * carry their latest run's state as a colour (FAILED in red); compact mode shows names only, full
 * mode the namespace and the state too. A click selects a node. This module and its libraries are
 * a chunk of their own, loaded when a graph is first shown.
 */
import { Background, Controls, Handle, MiniMap, Position, ReactFlow, useReactFlow, useStore, type Edge, type Node, type NodeProps } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { memo, useEffect, useMemo } from 'react';
import { layoutGraph, type NodeSize, type Positions } from './graph-layout.ts';
import type { GraphModel, GraphNode } from './graph-model.ts';

/** Props of the canvas. */
export interface GraphCanvasProps {
  readonly model: GraphModel;
  readonly compact: boolean;
  /** The node the graph was asked for (outlined). */
  readonly focusId?: string;
  readonly selectedId?: string;
  onSelect(id: string): void;
}

const SIZES: Record<'compact' | 'full', NodeSize> = { compact: { width: 170, height: 34 }, full: { width: 240, height: 62 } };

type DrawnNode = Node<{ node: GraphNode; compact: boolean; focus: boolean }, 'lineage'>;

const NodeBox = memo(({ data, selected }: NodeProps<DrawnNode>) => {
  const { node, compact, focus } = data;
  const state = node.kind === 'job' && node.badge ? ` state-${node.badge.toLowerCase()}` : '';
  return (
    <div
      className={`graph-node kind-${node.kind}${state}${compact ? ' compact' : ''}${focus ? ' focus' : ''}${selected ? ' selected' : ''}`}
      data-testid="graph-node"
      data-node-id={node.id}
      data-state={node.kind === 'job' ? (node.badge ?? 'NONE') : undefined}
      title={node.id}
    >
      <Handle type="target" position={Position.Left} isConnectable={false} />
      <div className="graph-node-label">
        <span className="graph-node-kind">{node.kind === 'job' ? 'job' : node.kind === 'dataset' ? 'dataset' : 'column'}</span> {node.label}
      </div>
      {compact ? null : (
        <div className="graph-node-detail">
          {node.detail}
          {node.badge ? <span className="graph-node-badge"> · {node.badge}</span> : null}
        </div>
      )}
      <Handle type="source" position={Position.Right} isConnectable={false} />
    </div>
  );
});
NodeBox.displayName = 'NodeBox';

const NODE_TYPES = { lineage: NodeBox };

// React Flow's handles are 6 × 6 px, centred on the node's left and right sides (its stylesheet).
const HANDLE = 6;

/**
 * The node's two handles, where React Flow's stylesheet puts them. Given up front with the node's
 * size as `measured`, the edges are drawn in the same pass as the nodes instead of after React
 * Flow has measured every node (ADR 0032). `measured` is needed too: without it React Flow takes
 * re-created nodes (a selection) as unmeasured, does not measure them again (their handles are
 * known), and a queued fitView never runs.
 */
const handlesOf = (size: NodeSize): NonNullable<Node['handles']> => [
  { type: 'target', position: Position.Left, x: -HANDLE / 2, y: size.height / 2 - HANDLE / 2, width: HANDLE, height: HANDLE },
  { type: 'source', position: Position.Right, x: size.width - HANDLE / 2, y: size.height / 2 - HANDLE / 2, width: HANDLE, height: HANDLE },
];

/**
 * Fits the graph to the canvas again when the canvas changes width (the node panel opening or
 * closing, a window resize): React Flow fits only on its first render.
 */
const FitOnResize = () => {
  const width = useStore((state) => state.width);
  const { fitView } = useReactFlow();
  useEffect(() => {
    if (width > 0) void fitView({ duration: 150 });
  }, [width, fitView]);
  return null;
};

/** The graph, laid out and interactive. */
const GraphCanvas = ({ model, compact, focusId, selectedId, onSelect }: GraphCanvasProps) => {
  const size = SIZES[compact ? 'compact' : 'full'];
  const layout = useMemo<{ positions: Positions } | { error: unknown }>(() => {
    try {
      return { positions: layoutGraph(model, size) };
    } catch (error) {
      return { error };
    }
  }, [model, size]);
  const positions = 'positions' in layout ? layout.positions : undefined;
  const nodes = useMemo<DrawnNode[]>(() => {
    if (!positions) return [];
    const handles = handlesOf(size);
    return model.nodes.map((node) => ({
      id: node.id,
      type: 'lineage',
      position: positions.get(node.id) ?? { x: 0, y: 0 },
      data: { node, compact, focus: node.id === focusId },
      selected: node.id === selectedId,
      width: size.width,
      height: size.height,
      measured: size,
      handles,
      draggable: false,
      connectable: false,
    }));
  }, [positions, model, compact, focusId, selectedId, size]);
  const edges = useMemo<Edge[]>(() => model.edges.map((e) => ({ id: e.id, source: e.source, target: e.target, type: 'smoothstep', focusable: false })), [model]);

  if ('error' in layout) return <div role="alert">The graph could not be laid out: {layout.error instanceof Error ? layout.error.message : String(layout.error)}</div>;
  return (
    <div className="graph-canvas" data-testid="graph-canvas" data-nodes={model.nodes.length} data-edges={model.edges.length}>
      <ReactFlow
        key={`${compact}`}
        nodes={nodes}
        edges={edges}
        nodeTypes={NODE_TYPES}
        onNodeClick={(_, node) => onSelect(node.id)}
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable
        fitView
        minZoom={0.05}
        maxZoom={2}
      >
        <Background />
        <Controls showInteractive={false} />
        <MiniMap pannable zoomable />
        <FitOnResize />
      </ReactFlow>
    </div>
  );
};

export default GraphCanvas;
