/**
 * @module pages/lineage/lineage-page
 * Lineage: search a job or dataset, then its graph (`?node=<node id>`) with depth, direction,
 * `asOf` and a run of the job (`GET /api/v1/lineage`), or a column's graph (`?column=<field node
 * id>`, `GET /api/v1/column-lineage`). Every setting lives in the URL (shareable, back works).
 * The canvas (React Flow and dagre) is a chunk loaded when the first graph is drawn.
 */
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { LineageParams } from '../../api/types.ts';
import { useApi } from '../../auth/auth-context.tsx';
import { mayCall } from '../../auth/capabilities.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorPanel } from '../../components/error-panel.tsx';
import { KeyRequired } from '../../components/key-required.tsx';
import { ProducerSetup } from '../../components/producer-setup.tsx';
import { Progress } from '../../components/progress.tsx';
import { useAsync } from '../../components/use-async.ts';
import { columnModel, lineageModel } from './graph-model.ts';
import { GraphControls } from './graph-controls.tsx';
import { lineageHref, type LineageSettings } from './lineage-links.ts';
import { focusNodeOf, parseNodeId } from './lineage-node.ts';
import { LineageSearch } from './lineage-search.tsx';
import { NodePanel } from './node-panel.tsx';

const loadCanvas = () => import('./graph-canvas.tsx');
const GraphCanvas = lazy(loadCanvas);

const settingsOf = (search: URLSearchParams): LineageSettings => {
  const read = (name: keyof LineageSettings) => search.get(name) ?? undefined;
  return { node: read('node'), depth: read('depth'), direction: read('direction'), asOf: read('asOf'), runId: read('runId'), column: read('column'), mode: read('mode') };
};

/** A node's namespace and name as the API answered them (an id alone may split more than one way). */
type Named = { readonly namespace: string; readonly name: string };

/**
 * The asked node: its id, type, namespace and name, from the graph's answer once it is in (a
 * namespace may hold `:`, `file:/tmp/warehouse`, so only the API knows where the id splits, ADR
 * 0043), from the id until then. A dataset asked for by another of its names (a symlink, ADR 0047)
 * is shown under the graph's name, with the asked one beside it.
 */
const NodeFacts = ({ askedId, nodeId, named }: { askedId: string; nodeId: string; named: Named | undefined }) => {
  const parsed = parseNodeId(nodeId);
  const node = parsed && named ? { ...parsed, namespace: named.namespace, name: named.name } : parsed;
  return (
    <dl className="facts" data-testid="lineage-node">
      <dt>Node</dt>
      <dd className="mono wrap">{nodeId}</dd>
      {node ? (
        <>
          <dt>Type</dt>
          <dd>{node.type}</dd>
          <dt>Namespace</dt>
          <dd className="mono wrap">{node.namespace}</dd>
          <dt>Name</dt>
          <dd className="mono wrap">{node.name}</dd>
        </>
      ) : null}
      {askedId !== nodeId ? (
        <>
          <dt>Opened as</dt>
          <dd className="mono wrap">{askedId}</dd>
        </>
      ) : null}
    </dl>
  );
};

/** The depth setting (text in the URL) as the API's integer; text that is no number becomes NaN, which the API refuses naming `depth`. */
const depthOf = (depth: string | undefined): number | undefined => (depth === undefined ? undefined : Number(depth));

/** The node graph of the page's settings. */
const NodeGraph = ({ settings, onChange }: { settings: LineageSettings; onChange(next: LineageSettings): void }) => {
  const api = useApi();
  const [selectedId, setSelectedId] = useState<string | undefined>(undefined);
  const params: LineageParams = { nodeId: settings.node, depth: depthOf(settings.depth), direction: settings.direction as LineageParams['direction'], asOf: settings.asOf, runId: settings.runId };
  const graph = useAsync((signal) => api.lineage(params, { signal }), JSON.stringify(params));
  // The canvas's chunk downloads and parses while the API walks the graph, not after.
  useEffect(() => void loadCanvas(), []);
  const model = useMemo(() => (graph.data ? lineageModel(graph.data) : undefined), [graph.data]);
  const selected = graph.data?.graph.find((n) => n.id === selectedId);
  const focusNode = graph.data && settings.node ? focusNodeOf(graph.data.graph, settings.node) : undefined;
  const focus = focusNode?.data as Named | undefined;
  const focusId = focusNode?.id ?? settings.node;
  const compact = settings.mode === 'compact';
  return (
    <>
      {settings.node ? <NodeFacts askedId={settings.node} nodeId={focusId ?? settings.node} named={focus} /> : null}
      <GraphControls settings={settings} onChange={onChange} focus={focus} />
      {graph.loading ? <Progress label="Walking the lineage graph…" since={graph.startedAt} /> : null}
      {graph.error ? <ErrorPanel error={graph.error} /> : null}
      {model && model.nodes.length === 0 ? (
        <EmptyState title="Nothing in this graph">
          <p>{settings.asOf ? 'No run of this node had happened by the chosen time: pick a later “as of”, or clear it.' : 'This node has no lineage yet: its producers sent no inputs or outputs.'}</p>
        </EmptyState>
      ) : null}
      {model && model.nodes.length > 0 ? (
        <div className="graph-with-panel">
          <Suspense fallback={<Progress label="Loading the graph view…" />}>
            <GraphCanvas model={model} compact={compact} focusId={focusId} selectedId={selectedId} onSelect={setSelectedId} />
          </Suspense>
          {selected ? <NodePanel node={selected} onClose={() => setSelectedId(undefined)} /> : null}
        </div>
      ) : null}
    </>
  );
};

/** The column graph of a field or a dataset. */
const ColumnGraph = ({ settings }: { settings: LineageSettings }) => {
  const api = useApi();
  const column = settings.column ?? '';
  const graph = useAsync((signal) => api.columnLineage({ nodeId: column, depth: depthOf(settings.depth), withDownstream: 'true' }, { signal }), `${column}\u0000${settings.depth ?? ''}`);
  useEffect(() => void loadCanvas(), []);
  const model = useMemo(() => (graph.data ? columnModel(graph.data) : undefined), [graph.data]);
  // The dataset of the column, as the answer names it (the id alone may split more than one way).
  const own = graph.data?.graph.find((n) => n.id === column)?.data ?? (column.startsWith('dataset:') ? graph.data?.graph[0]?.data : undefined);
  const datasetNode = own ? `dataset:${own.namespace}:${own.dataset}` : undefined;
  return (
    <>
      <div className="graph-controls">
        <span>
          Column lineage of <code data-testid="column-node">{column}</code>
        </span>
        {datasetNode ? <Link to={lineageHref({ node: datasetNode })}>Back to the dataset's graph</Link> : null}
      </div>
      {graph.loading ? <Progress label="Walking the column graph…" since={graph.startedAt} /> : null}
      {graph.error ? <ErrorPanel error={graph.error} /> : null}
      {model && model.nodes.length === 0 ? (
        <EmptyState title="No column lineage for this field">
          <p>
            Column lineage comes from the <code>columnLineage</code> dataset facet of the jobs that write it (lakeline's own runs send it; so do the Spark and dbt integrations).
          </p>
        </EmptyState>
      ) : null}
      {model && model.nodes.length > 0 ? (
        <Suspense fallback={<Progress label="Loading the graph view…" />}>
          <GraphCanvas model={model} compact={false} focusId={column} onSelect={() => undefined} />
        </Suspense>
      ) : null}
    </>
  );
};

/** The lineage page. */
export const LineagePage = () => {
  const api = useApi();
  const [search, setSearch] = useSearchParams();
  const settings = settingsOf(search);
  if (!mayCall(api.credentials, 'GET /api/v1/lineage')) return <KeyRequired what="The lineage graph" routeKey="GET /api/v1/lineage" />;
  const onChange = (next: LineageSettings) => setSearch(new URLSearchParams(lineageHref(next).split('?')[1] ?? ''));
  return (
    <div className="lineage-page">
      <div className="page-head">
        <h1>Lineage</h1>
      </div>
      <LineageSearch />
      {settings.column ? <ColumnGraph settings={settings} /> : settings.node || settings.runId ? <NodeGraph key={settings.node ?? settings.runId} settings={settings} onChange={onChange} /> : null}
      {!settings.column && !settings.node && !settings.runId ? (
        <EmptyState title="Search a job or dataset to see its graph">
          <p>Type part of a job or dataset name above. Nothing there yet? Point an OpenLineage producer at lakeline:</p>
          <ProducerSetup />
        </EmptyState>
      ) : null}
    </div>
  );
};
