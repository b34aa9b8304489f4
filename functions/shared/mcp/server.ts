/**
 * @module mcp-server
 * lakeline's MCP server: one set of tools over the public API as one caller, the same behind both
 * transports (Streamable HTTP at `/mcp`, `handlers/post-mcp.ts`; stdio, `cli/mcp.ts`). ADR 0048.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerLakeTools } from './lake-tools.ts';
import { registerLineageTools } from './lineage-tools.ts';
import type { LakelineApi, McpAccess } from './ports.ts';

/** The name and version the server gives in `initialize`. */
export const MCP_SERVER_INFO = { name: 'lakeline', version: '0.1.0' } as const;

const INSTRUCTIONS =
  'lakeline answers OpenLineage lineage questions (search, lineage_graph, lineage_paths, column_lineage, get_job, get_lineage_run, why_failed, list_events) and queries the Iceberg lake (list_tables, describe_table, run_query, submit_write with confirm: true, get_run, abort_run). Node ids are job:<namespace>:<name>, dataset:<namespace>:<name> and datasetField:<namespace>:<dataset>:<field>; search finds them.';

/** A server whose tools call `api`. */
export const createMcpServer = (api: LakelineApi, access: McpAccess = { writes: true }): McpServer => {
  const server = new McpServer(MCP_SERVER_INFO, { instructions: INSTRUCTIONS });
  registerLineageTools(server, api);
  registerLakeTools(server, api, access);
  return server;
};
