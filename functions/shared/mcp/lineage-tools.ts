/**
 * @module mcp-lineage-tools
 * The MCP tools over lakeline's lineage: search, the graph of a node (compact), the paths between
 * two nodes, column lineage, a job with its recent runs, one run, why a run failed, and the stored
 * events. Each calls the public API as the caller; inputs reuse the API's own query schemas.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { EventsQuery } from '../schemas/lineage.ts';
import { ColumnLineageQuery, LineageQuery, SearchQuery, SearchResults } from '../schemas/lineage-graph.ts';
import { z } from '../schemas/zod.ts';
import { CompactEdge, CompactGraph, compactGraph, limitGraph, pathsBetween, type MarquezNode } from './graph.ts';
import type { LakelineApi } from './ports.ts';
import { answer, errorMessageOf, seg } from './tool-kit.ts';

type Facets = Record<string, unknown>;
interface ApiRun {
  id: string;
  state: string;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  endedAt: string | null;
  durationMs: number | null;
  facets: Facets;
  inputDatasetVersions?: { datasetVersionId: { namespace: string; name: string; version: string } }[];
  outputDatasetVersions?: { datasetVersionId: { namespace: string; name: string; version: string } }[];
}
interface ApiLineageRun extends ApiRun {
  job: { namespace: string; name: string };
  jobFacets: Facets;
  parent: { runId: string | null; job: { namespace: string; name: string } } | null;
  children: { runId: string; job: { namespace: string; name: string }; state: string }[];
}

const JobRef = z.object({ namespace: z.string(), name: z.string() });
const ErrorFacet = z.object({ message: z.string(), language: z.string().optional(), stackTrace: z.string().optional() });
const RunSummary = z.object({
  runId: z.string(),
  state: z.string(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  durationMs: z.number().nullable(),
  error: ErrorFacet.optional(),
});
type RunSummary = z.infer<typeof RunSummary>;
const VersionRef = z.object({ namespace: z.string(), name: z.string(), version: z.string() });

const summary = (run: ApiRun): RunSummary => {
  const error = errorMessageOf(run.facets);
  return { runId: run.id, state: run.state, createdAt: run.createdAt, startedAt: run.startedAt, endedAt: run.endedAt, durationMs: run.durationMs, ...(error ? { error } : {}) };
};
const runLine = (r: RunSummary): string => `${r.runId} ${r.state} ${r.startedAt ?? r.createdAt}${r.endedAt ? ` → ${r.endedAt}` : ''}${r.error ? ` error: ${r.error.message}` : ''}`;
const graphText = (g: CompactGraph): string =>
  [`${g.nodes.length} nodes, ${g.edges.length} edges`, ...g.nodes.map((n) => `${n.id}${n.latestRunState ? ` [${n.latestRunState}]` : ''}`), ...g.edges.map((e) => `${e.from} → ${e.to}`)].join('\n');

/** Every storable event time, in epoch seconds (the events API requires a window). */
const ALL_TIME = { start: 0, end: 253_402_300_800 } as const;
/** Nodes `lineage_graph` answers at most, and when the caller does not say. */
const MAX_GRAPH_NODES = 2000;
const DEFAULT_GRAPH_NODES = 300;
/** Bytes of one facet's JSON a run's answer carries; a larger facet (a Spark plan) is summarised. */
const MAX_FACET_BYTES = 4000;

/** Facets with each one above {@link MAX_FACET_BYTES} replaced by a note of its size: a model's context is small. */
const boundedFacets = (facets: Facets): Facets =>
  Object.fromEntries(
    Object.entries(facets).map(([name, value]) => {
      const bytes = Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
      return [name, bytes <= MAX_FACET_BYTES ? value : { _lakeline: `facet left out: ${bytes} bytes of JSON (over ${MAX_FACET_BYTES}); read it with GET /api/v1/lineage-runs/{runId}` }];
    }),
  );

/** Upstream jobs `why_failed` looks at, at most (each is one more API call). */
const MAX_UPSTREAM_JOBS = 25;

/** Registers the lineage tools on a server, each calling `api`. */
export const registerLineageTools = (server: McpServer, api: LakelineApi): void => {
  const read = { readOnlyHint: true, openWorldHint: false } as const;

  server.registerTool(
    'search',
    {
      title: 'Search jobs and datasets',
      description: 'Jobs and datasets whose name (or symlink alias) contains q, case-insensitive. Each hit has the nodeId the lineage tools take. Page with limit/offset against totalCount.',
      inputSchema: SearchQuery.shape,
      outputSchema: SearchResults,
      annotations: read,
    },
    async (args) => {
      const found = await api.get<z.infer<typeof SearchResults>>('/api/v1/search', args);
      const more = found.totalCount > (args.offset ?? 0) + found.results.length ? `\n(more: ${found.totalCount} in all; next offset ${(args.offset ?? 0) + found.results.length})` : '';
      return answer(found, `${found.totalCount} match(es)\n${found.results.map((r) => `${r.nodeId} (updated ${r.updatedAt})`).join('\n')}${more}`);
    },
  );

  server.registerTool(
    'lineage_graph',
    {
      title: 'Lineage graph of a node',
      description:
        'The lineage graph around a job or dataset (nodeId job:<ns>:<name> or dataset:<ns>:<name>), or of one run (runId): nodes and edges only. depth counts job hops; direction upstream, downstream or both; asOf (RFC 3339) shows each job as its latest run then.',
      inputSchema: { ...LineageQuery.shape, maxNodes: z.int().min(1).max(MAX_GRAPH_NODES).optional().describe(`nodes to return at most, nearest the node first; default ${DEFAULT_GRAPH_NODES}`) },
      outputSchema: CompactGraph.extend({ truncated: z.boolean().describe('true when nodes beyond maxNodes were left out'), totalNodes: z.int() }),
      annotations: read,
    },
    async ({ maxNodes = DEFAULT_GRAPH_NODES, ...query }) => {
      const { graph } = await api.get<{ graph: MarquezNode[] }>('/api/v1/lineage', query);
      const limited = limitGraph(compactGraph(graph), query.nodeId, maxNodes);
      const more = limited.truncated ? `\n(truncated: ${limited.nodes.length} of ${limited.totalNodes} nodes, nearest first; lower depth, pick a direction or raise maxNodes up to ${MAX_GRAPH_NODES})` : '';
      return answer(limited, `${graphText(limited)}${more}`);
    },
  );

  server.registerTool(
    'lineage_paths',
    {
      title: 'Lineage paths between two nodes',
      description:
        'The shortest lineage paths connecting two nodes (job:… or dataset:… ids), whichever way round they are: from feeds to (downstream), or to feeds from (upstream). Bounded by depth (job hops) and maxPaths.',
      inputSchema: {
        from: LineageQuery.shape.nodeId.unwrap(),
        to: LineageQuery.shape.nodeId.unwrap(),
        depth: z.int().min(1).max(20).optional().describe('job hops to search, default 5'),
        maxPaths: z.int().min(1).max(20).optional().describe('paths to return at most, default 5'),
      },
      outputSchema: {
        direction: z.enum(['downstream', 'upstream', 'none']).describe('downstream: from feeds to; upstream: to feeds from'),
        paths: z.array(z.array(z.string())).describe('each path as node ids, from first to last along the data flow'),
        truncated: z.boolean(),
        edges: z.array(CompactEdge).describe('the edges the paths use'),
      },
      annotations: read,
    },
    async ({ from, to, depth = 5, maxPaths = 5 }) => {
      const bounds = { maxPaths, maxHops: 2 * depth + 1 };
      for (const [direction, start, end] of [['downstream', from, to], ['upstream', to, from]] as const) {
        const { graph } = await api.get<{ graph: MarquezNode[] }>('/api/v1/lineage', { nodeId: from, depth, direction });
        const found = pathsBetween(compactGraph(graph), start, end, bounds);
        if (found.paths.length > 0) {
          const used = new Set(found.paths.flatMap((p) => p.slice(1).map((n, i) => `${p[i]}\n${n}`)));
          const edges = [...used].map((k) => ({ from: k.split('\n')[0] as string, to: k.split('\n')[1] as string }));
          const text = [`${found.paths.length} path(s), ${direction === 'downstream' ? `${from} feeds ${to}` : `${to} feeds ${from}`}${found.truncated ? ' (more exist: raise maxPaths)' : ''}`, ...found.paths.map((p) => p.join(' → '))].join('\n');
          return answer({ direction, paths: found.paths, truncated: found.truncated, edges }, text);
        }
      }
      return answer({ direction: 'none' as const, paths: [], truncated: false, edges: [] }, `No path between ${from} and ${to} within ${depth} job hops either way.`);
    },
  );

  server.registerTool(
    'column_lineage',
    {
      title: 'Column lineage',
      description:
        'Which columns a column comes from (and, with withDownstream "true", feeds): nodeId datasetField:<ns>:<dataset>:<field>, or dataset:<ns>:<name> for all its columns. Each edge names the transformation when the producer said.',
      inputSchema: ColumnLineageQuery.shape,
      outputSchema: {
        nodes: z.array(z.object({ id: z.string(), namespace: z.string(), dataset: z.string(), field: z.string() })),
        edges: z.array(z.object({ from: z.string(), to: z.string(), transformations: z.array(z.string()) })),
      },
      annotations: read,
    },
    async (args) => {
      interface ColumnNode {
        id: string;
        data: { namespace: string; dataset: string; field: string; inputFields: { namespace: string; dataset: string; field: string; transformations: { type: string; subtype: string | null }[] }[] };
      }
      const { graph } = await api.get<{ graph: ColumnNode[] }>('/api/v1/column-lineage', args);
      const nodes = graph.map((n) => ({ id: n.id, namespace: n.data.namespace, dataset: n.data.dataset, field: n.data.field }));
      const edges = graph.flatMap((n) =>
        n.data.inputFields.map((f) => ({
          from: `datasetField:${f.namespace}:${f.dataset}:${f.field}`,
          to: n.id,
          transformations: f.transformations.map((t) => (t.subtype ? `${t.type}/${t.subtype}` : t.type)),
        })),
      );
      const text = [`${nodes.length} columns, ${edges.length} edges`, ...edges.map((e) => `${e.from} → ${e.to}${e.transformations.length ? ` (${e.transformations.join(', ')})` : ''}`)].join('\n');
      return answer({ nodes, edges }, text);
    },
  );

  server.registerTool(
    'get_job',
    {
      title: 'A job and its recent runs',
      description: 'A lineage job (its inputs, outputs, latest state) and its most recent runs, newest first, with each failed run\'s error message.',
      inputSchema: { namespace: z.string().min(1).max(1024), name: z.string().min(1).max(1024), runs: z.int().min(1).max(100).optional().describe('recent runs, default 10') },
      outputSchema: {
        job: JobRef.extend({ inputs: z.array(JobRef), outputs: z.array(JobRef), latestState: z.string().nullable(), updatedAt: z.string() }),
        runs: z.array(RunSummary),
        totalRuns: z.int(),
      },
      annotations: read,
    },
    async ({ namespace, name, runs = 10 }) => {
      const path = `/api/v1/namespaces/${seg(namespace)}/jobs/${seg(name)}`;
      const job = await api.get<{ namespace: string; name: string; inputs: { namespace: string; name: string }[]; outputs: { namespace: string; name: string }[]; latestRun: { state: string } | null; updatedAt: string }>(path);
      const listed = await api.get<{ runs: ApiRun[]; totalCount: number }>(`${path}/runs`, { limit: runs });
      const out = {
        job: { namespace: job.namespace, name: job.name, inputs: job.inputs.map(({ namespace: n, name: m }) => ({ namespace: n, name: m })), outputs: job.outputs.map(({ namespace: n, name: m }) => ({ namespace: n, name: m })), latestState: job.latestRun?.state ?? null, updatedAt: job.updatedAt },
        runs: listed.runs.map(summary),
        totalRuns: listed.totalCount,
      };
      const text = [`job:${job.namespace}:${job.name} latest ${out.job.latestState ?? 'none'}; inputs ${out.job.inputs.map((d) => `${d.namespace}:${d.name}`).join(', ') || 'none'}; outputs ${out.job.outputs.map((d) => `${d.namespace}:${d.name}`).join(', ') || 'none'}`, `${out.runs.length} of ${out.totalRuns} runs:`, ...out.runs.map(runLine)].join('\n');
      return answer(out, text);
    },
  );

  const runDetail = async (runId: string) => {
    const run = await api.get<ApiLineageRun>(`/api/v1/lineage-runs/${seg(runId)}`);
    const events = await api.get<{ id: string; event_time: string; run_state: string; produced_by: string }[]>('/api/v1/events', { ...ALL_TIME, run: runId, sort_by: 'EVENT_TIME', order: 'ASC', limit: 50 });
    const versions = (list: ApiRun['inputDatasetVersions']) => (list ?? []).map((v) => ({ namespace: v.datasetVersionId.namespace, name: v.datasetVersionId.name, version: v.datasetVersionId.version }));
    return {
      run: { ...summary(run), job: run.job, facets: boundedFacets(run.facets), jobFacets: boundedFacets(run.jobFacets) },
      parent: run.parent,
      children: run.children,
      inputs: versions(run.inputDatasetVersions),
      outputs: versions(run.outputDatasetVersions),
      events: events.map((e) => ({ id: e.id, eventTime: e.event_time, eventType: e.run_state, producer: e.produced_by })),
    };
  };

  server.registerTool(
    'get_lineage_run',
    {
      title: 'One lineage run',
      description: 'One OpenLineage run by its run id: state, timings, merged run and job facets, its parent and child runs, the dataset versions it read and wrote, and its events (first 50).',
      inputSchema: { runId: LineageQuery.shape.runId.unwrap() },
      outputSchema: {
        run: RunSummary.extend({ job: JobRef, facets: z.record(z.string(), z.unknown()), jobFacets: z.record(z.string(), z.unknown()) }),
        parent: z.object({ runId: z.string().nullable(), job: JobRef }).nullable(),
        children: z.array(z.object({ runId: z.string(), job: JobRef, state: z.string() })),
        inputs: z.array(VersionRef),
        outputs: z.array(VersionRef),
        events: z.array(z.object({ id: z.string(), eventTime: z.string(), eventType: z.string(), producer: z.string() })),
      },
      annotations: read,
    },
    async ({ runId }) => {
      const detail = await runDetail(runId);
      const r = detail.run;
      const text = [
        `run ${r.runId} of job:${r.job.namespace}:${r.job.name}: ${runLine(r)}`,
        `parent: ${detail.parent ? `${detail.parent.runId ?? '?'} (job:${detail.parent.job.namespace}:${detail.parent.job.name})` : 'none'}; children: ${detail.children.map((c) => `${c.runId} ${c.state}`).join(', ') || 'none'}`,
        `read: ${detail.inputs.map((v) => `${v.namespace}:${v.name}@${v.version}`).join(', ') || 'none'}`,
        `wrote: ${detail.outputs.map((v) => `${v.namespace}:${v.name}@${v.version}`).join(', ') || 'none'}`,
        `run facets: ${Object.keys(r.facets).join(', ') || 'none'}; events: ${detail.events.map((e) => `${e.eventType}@${e.eventTime}`).join(', ')}`,
      ].join('\n');
      return answer(detail, text);
    },
  );

  server.registerTool(
    'why_failed',
    {
      title: 'Why did this run fail',
      description:
        'For a FAILED lineage run: its error message facet, and the failed runs of its upstream jobs (up to upstreamDepth job hops) in the window from windowHours before it started to its end — the likely root causes.',
      inputSchema: {
        runId: LineageQuery.shape.runId.unwrap(),
        upstreamDepth: z.int().min(1).max(10).optional().describe('job hops upstream, default 3'),
        windowHours: z.number().min(0).max(24 * 30).optional().describe('hours before the run\'s start to look for failed upstream runs, default 24'),
      },
      outputSchema: {
        run: RunSummary.extend({ job: JobRef }),
        failed: z.boolean(),
        window: z.object({ from: z.string(), to: z.string() }),
        failedUpstream: z.array(RunSummary.extend({ job: JobRef })),
        upstreamJobsChecked: z.int(),
        upstreamJobsSkipped: z.int().describe('upstream jobs beyond the bound, not checked'),
      },
      annotations: read,
    },
    async ({ runId, upstreamDepth = 3, windowHours = 24 }) => {
      const run = await api.get<ApiLineageRun>(`/api/v1/lineage-runs/${seg(runId)}`);
      const me = { ...summary(run), job: run.job };
      const startMs = Date.parse(run.startedAt ?? run.createdAt);
      const endMs = Date.parse(run.endedAt ?? run.updatedAt);
      const window = { from: new Date(startMs - windowHours * 3_600_000).toISOString(), to: new Date(endMs).toISOString() };
      const { graph } = await api.get<{ graph: MarquezNode[] }>('/api/v1/lineage', { nodeId: `job:${run.job.namespace}:${run.job.name}`, depth: upstreamDepth, direction: 'upstream' });
      const selfId = `job:${run.job.namespace}:${run.job.name}`;
      const jobs = graph.filter((n) => n.type === 'JOB' && n.id !== selfId).map((n) => ({ namespace: n.data.namespace ?? '', name: n.data.name ?? '' }));
      const checked = jobs.slice(0, MAX_UPSTREAM_JOBS);
      const failedUpstream = [];
      for (const job of checked) {
        const { runs } = await api.get<{ runs: ApiRun[] }>(`/api/v1/namespaces/${seg(job.namespace)}/jobs/${seg(job.name)}/runs`, { limit: 50 });
        for (const r of runs) {
          const at = Date.parse(r.endedAt ?? r.updatedAt);
          if (r.state === 'FAILED' && at >= Date.parse(window.from) && at <= Date.parse(window.to)) failedUpstream.push({ ...summary(r), job });
        }
      }
      const failed = run.state === 'FAILED';
      const out = { run: me, failed, window, failedUpstream, upstreamJobsChecked: checked.length, upstreamJobsSkipped: jobs.length - checked.length };
      const text = [
        failed ? `run ${runId} of job:${run.job.namespace}:${run.job.name} FAILED${me.error ? `: ${me.error.message}` : ' (no errorMessage facet)'}` : `run ${runId} did not fail: its state is ${run.state}`,
        `${checked.length} upstream job(s) checked${out.upstreamJobsSkipped ? ` (${out.upstreamJobsSkipped} more not checked)` : ''}, window ${window.from} → ${window.to}:`,
        ...(failedUpstream.length ? failedUpstream.map((r) => `upstream job:${r.job.namespace}:${r.job.name} ${runLine(r)}`) : ['no failed upstream run in the window']),
      ].join('\n');
      return answer(out, text);
    },
  );

  server.registerTool(
    'list_events',
    {
      title: 'List stored OpenLineage events',
      description: 'Stored OpenLineage events in a time window (start, end: UNIX epoch seconds), filtered as GET /api/v1/events filters them (run, states, namespace, job, integrations); page with limit/offset. Raw events are left out: use get_lineage_run for a run\'s merged view.',
      inputSchema: EventsQuery.shape,
      outputSchema: {
        events: z.array(z.object({ id: z.string(), runId: z.string().nullable(), eventType: z.string(), eventTime: z.string(), job: z.string().nullable(), producer: z.string(), integration: z.string(), sizeBytes: z.int() })),
        nextOffset: z.int().optional().describe('where the next page starts, when this page is full'),
      },
      annotations: read,
    },
    async (args) => {
      const limit = args.limit ?? 30;
      const events = await api.get<{ id: string; run_id: string | null; run_state: string; event_time: string; job_namespace: string | null; job_name: string | null; produced_by: string; integration: string; event_size_in_bytes: number }[]>('/api/v1/events', args);
      const out = {
        events: events.map((e) => ({ id: e.id, runId: e.run_id, eventType: e.run_state, eventTime: e.event_time, job: e.job_name === null ? null : `${e.job_namespace ?? ''}:${e.job_name}`, producer: e.produced_by, integration: e.integration, sizeBytes: e.event_size_in_bytes })),
        ...(events.length === limit ? { nextOffset: (args.offset ?? 0) + limit } : {}),
      };
      const text = [`${out.events.length} event(s)${out.nextOffset === undefined ? '' : ` (more: next offset ${out.nextOffset})`}`, ...out.events.map((e) => `${e.eventTime} ${e.eventType} run ${e.runId ?? '-'} job ${e.job ?? '-'} (${e.integration})`)].join('\n');
      return answer(out, text);
    },
  );
};
