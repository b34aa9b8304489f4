/**
 * @module mcp-lake-tools
 * The MCP tools over the lake: list and describe tables, run a read query (routed, the engine
 * decision in the answer, rows capped and said so), submit a write (only with `confirm: true`), a
 * run's state and results, and aborting a run. Each calls the public API as the caller, so the
 * key's org, plan and limits apply, and every query is recorded in lineage as the API records it.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { QualifiedTableName, WriteMode } from '../schemas/common.ts';
import { RoutedEngine, RoutedQueryRequest, Run, RunResultsQuery, TableDescription, TableSummary, UnifiedQueryResponse } from '../schemas/query.ts';
import { z } from '../schemas/zod.ts';
import { ValidationError } from '#domain/errors';
import type { LakelineApi, McpAccess } from './ports.ts';
import { answer, DEFAULT_ROWS, MAX_ROWS, renderRows, seg } from './tool-kit.ts';

type RoutedAnswer = z.infer<typeof UnifiedQueryResponse>;
type RunAnswer = z.infer<typeof Run>;

const SQL = RoutedQueryRequest.shape.query.unwrap();
const RUN_ID = z.uuid().describe('a run id from run_query or submit_write');
const decisionText = (d: RoutedAnswer['engine_decision']): string =>
  `engine ${d.engine} (${d.execution_mode}, ${d.size_band}, ~${d.estimated_input_bytes} input bytes): ${d.reasons.join(' ')}`;

/** The answer with at most `maxRows` rows, and whether rows were left out. */
const capped = <T extends { results?: { columns: string[]; column_types: string[]; rows: unknown[][] } }>(body: T, maxRows: number): { body: T; rowsCapped: boolean } => {
  if (!body.results || body.results.rows.length <= maxRows) return { body, rowsCapped: false };
  return { body: { ...body, results: { ...body.results, rows: body.results.rows.slice(0, maxRows) } }, rowsCapped: true };
};

const runText = (run: RunAnswer): string =>
  [
    `run ${run.run_id} on ${run.engine}: ${run.state}${run.error ? ` — ${run.error}` : ''}`,
    ...(run.output_table ? [`output ${run.output_table}${run.rows_written === undefined ? '' : `, ${run.rows_written} rows written`}`] : []),
    ...(run.results ? [renderRows(run.results.columns, run.results.rows)] : []),
    ...(run.results_page?.next_offset === undefined ? [] : [`(more rows: call get_run with offset ${run.results_page.next_offset})`]),
  ].join('\n');

/** Registers the lake tools on a server, each calling `api`. */
export const registerLakeTools = (server: McpServer, api: LakelineApi, access: McpAccess): void => {
  server.registerTool(
    'list_tables',
    {
      title: 'List lake tables',
      description: 'The Iceberg tables of the lake the key\'s org can query, optionally in one namespace. SQL names them lakeline.<namespace>.<table>.',
      inputSchema: { namespace: z.string().max(128).regex(/^[A-Za-z_][A-Za-z0-9_]*$/).optional() },
      outputSchema: { tables: z.array(TableSummary) },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ namespace }) => {
      const tables = await api.get<z.infer<typeof TableSummary>[]>('/api/v1/tables', { namespace });
      return answer({ tables }, `${tables.length} table(s)\n${tables.map((t) => t.qualified_name).join('\n')}`);
    },
  );

  server.registerTool(
    'describe_table',
    {
      title: 'Describe a lake table',
      description: 'A lake table\'s columns, partitioning, size, row count and recent snapshots.',
      inputSchema: { namespace: z.string().min(1).max(128), table: z.string().min(1).max(128) },
      outputSchema: TableDescription,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ namespace, table }) => {
      const t = await api.get<z.infer<typeof TableDescription>>(`/api/v1/tables/${seg(namespace)}/${seg(table)}`);
      const text = [`${t.namespace}.${t.name}: ${t.record_count} rows, ${t.size_bytes} bytes, ${t.snapshots.length} snapshot(s)`, ...t.schema.map((c) => `  ${c.name} ${c.type}${c.required ? ' NOT NULL' : ''}`), ...(t.partition_spec.length ? [`partitioned by ${t.partition_spec.map((p) => `${p.transform}(${p.source_column ?? p.source_id})`).join(', ')}`] : [])].join('\n');
      return answer(t, text);
    },
  );

  server.registerTool(
    'run_query',
    {
      title: 'Run a read query',
      description:
        'Runs a read-only SQL query on the lake through the routed endpoint (POST /api/v1/query): lakeline picks the engine by the input\'s size and says why (engine_decision). explain: true decides without running. A small read answers rows at once (capped at maxRows, and says so); a large one becomes a batch run: poll get_run with its run_id. Writes are refused here: use submit_write.',
      inputSchema: {
        query: SQL,
        engine: RoutedEngine.optional().describe('default auto'),
        explain: z.boolean().optional().describe('only decide the engine, do not run'),
        maxRows: z.int().min(1).max(MAX_ROWS).optional().describe(`rows to return at most, default ${DEFAULT_ROWS}`),
      },
      outputSchema: UnifiedQueryResponse.extend({ rows_capped: z.boolean().describe('true when rows beyond maxRows were left out') }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query, engine, explain, maxRows = DEFAULT_ROWS }) => {
      const routed = await api.post<RoutedAnswer>('/api/v1/query', { query, ...(engine ? { engine } : {}), ...(explain ? { explain } : {}) });
      const { body, rowsCapped } = capped(routed, maxRows);
      const lines = [decisionText(body.engine_decision)];
      if (body.explain) lines.push('(explain only: nothing ran)');
      if (body.results) lines.push(renderRows(body.results.columns, body.results.rows));
      if (rowsCapped) lines.push(`(rows capped: showing ${maxRows} of ${routed.results?.rows.length ?? 0}; raise maxRows up to ${MAX_ROWS} or add a LIMIT)`);
      if (body.state === 'SUBMITTED') lines.push(`batch run ${body.run_id} submitted: poll get_run for its state and rows`);
      return answer({ ...body, rows_capped: rowsCapped }, lines.join('\n'));
    },
  );

  // A read-only key (ADR 0049) is shown no tool that writes: the API would refuse it anyway.
  if (access.writes) {
    server.registerTool(
      'submit_write',
      {
        title: 'Write query results to a lake table',
        description:
          'Runs a query and writes its result to destination (namespace.table), overwriting or appending (write_mode). This changes the lake: it runs only with confirm: true, after the user agreed. Answers the run id: follow it with get_run.',
        inputSchema: {
          query: SQL,
          destination: QualifiedTableName,
          write_mode: WriteMode.optional().describe('default overwrite'),
          engine: RoutedEngine.optional().describe('default auto'),
          confirm: z.boolean().optional().describe('must be true: the user agreed to change the lake'),
        },
        outputSchema: UnifiedQueryResponse,
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
      },
      async ({ query, destination, write_mode = 'overwrite', engine, confirm }) => {
        if (confirm !== true) throw new ValidationError(`confirm: writing to ${destination} (${write_mode}) changes the lake; call again with confirm: true once the user agreed`);
        const routed = await api.post<RoutedAnswer>('/api/v1/query', { query, destination, write_mode, ...(engine ? { engine } : {}) });
        const text = [decisionText(routed.engine_decision), `${routed.state ?? 'done'}: ${write_mode} ${routed.output_table ?? destination}${routed.run_id ? `, run ${routed.run_id}` : ''}`].join('\n');
        return answer(routed, text);
      },
    );
  }

  server.registerTool(
    'get_run',
    {
      title: 'A query run\'s state and results',
      description: 'A run of run_query or submit_write: its state (QUEUED, RUNNING, COMPLETE, FAIL, ABORT), error, output, and for a finished batch read one page of its rows (offset, limit).',
      inputSchema: { runId: RUN_ID, ...RunResultsQuery.shape },
      outputSchema: Run,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ runId, offset, limit }) => {
      const run = await api.get<RunAnswer>(`/api/v1/runs/${seg(runId)}`, { offset, limit });
      return answer(run, runText(run));
    },
  );

  if (access.writes) {
    server.registerTool(
      'abort_run',
      {
        title: 'Abort a query run',
        description: 'Stops a queued or running run of run_query or submit_write; a run that already ended is a conflict.',
        inputSchema: { runId: RUN_ID },
        outputSchema: Run,
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      },
      async ({ runId }) => {
        const run = await api.post<RunAnswer>(`/api/v1/runs/${seg(runId)}/abort`);
        return answer(run, runText(run));
      },
    );
  }
};
