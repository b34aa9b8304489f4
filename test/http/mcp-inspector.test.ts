/**
 * The MCP Inspector's CLI (`@modelcontextprotocol/inspector`, pinned in tools/mcp-inspector and
 * installed by the set-up into .lakeline/mcp-inspector) against lakeline's MCP server, end to end:
 * it lists the tools over Streamable HTTP and calls one over stdio (`lakeline mcp`), as a user
 * trying the server with the Inspector would (README, "Agents (MCP)").
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from '#composition/config';

const stack = inject('stack');
const INSPECTOR = path.join(REPO_ROOT, '.lakeline', 'mcp-inspector', 'node_modules', '.bin', 'mcp-inspector');

/** Runs the Inspector's CLI; its stdout is the JSON answer of the method asked for. */
const inspector = async (args: readonly string[]): Promise<Record<string, unknown>> => {
  const { stdout } = await promisify(execFile)(process.execPath, [INSPECTOR, '--cli', ...args], { cwd: REPO_ROOT, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 });
  return JSON.parse(stdout) as Record<string, unknown>;
};

describe('the MCP Inspector CLI', () => {
  it('Should list the tools over Streamable HTTP with a bearer key', async () => {
    const answer = await inspector([`${stack.baseUrl}/mcp`, '--transport', 'http', '--header', `Authorization: Bearer ${stack.apiKey}`, '--method', 'tools/list']);
    const names = (answer.tools as { name: string }[]).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['search', 'lineage_graph', 'run_query', 'list_tables']));
  }, 90_000);

  it('Should call a tool over stdio (`lakeline mcp`)', async () => {
    const answer = await inspector([
      '-e', `LAKELINE_URL=${stack.baseUrl}`,
      '-e', `LAKELINE_API_KEY=${stack.apiKey}`,
      process.execPath, path.join(REPO_ROOT, 'bin', 'lakeline.mjs'), 'mcp',
      '--method', 'tools/call', '--tool-name', 'list_tables', '--tool-arg', 'namespace=tpch',
    ]);
    expect(answer.isError ?? false).toBe(false);
    expect(JSON.stringify(answer.structuredContent)).toContain('lineitem');
  }, 90_000);
});
