/**
 * @module mcp
 * `lakeline mcp`: lakeline's MCP server over stdio, for desktop clients (Claude Desktop, Cursor,
 * Claude Code). The same tools as `POST /mcp` (ADR 0048), calling the API at `LAKELINE_URL` with
 * the key in `LAKELINE_API_KEY`. stdout carries the protocol only; everything else goes to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { httpLakelineApi } from '#adapters/http/lakeline-api';
import { createMcpServer } from '#shared/mcp/server';

/** The environment variables `lakeline mcp` reads. */
export const MCP_ENV = { url: 'LAKELINE_URL', key: 'LAKELINE_API_KEY' } as const;

/** The API's URL and key from the environment, or what is missing. */
export const mcpSettings = (env: Readonly<Record<string, string | undefined>>): { baseUrl: string; authorization: string } | { error: string } => {
  const url = env[MCP_ENV.url];
  const key = env[MCP_ENV.key];
  if (!url || !/^https?:\/\/[^/]+/.test(url)) return { error: `${MCP_ENV.url} must be the API's base URL (http(s)://host[:port]), as \`npm run local\` or the stack's ApiUrl output prints it` };
  if (!key) return { error: `${MCP_ENV.key} must hold an API key (\`lakeline keys create --org <org>\`)` };
  return { baseUrl: url, authorization: `Bearer ${key}` };
};

/** Serves MCP on stdin/stdout until stdin closes; resolves with the exit status. */
export const runMcpStdio = async (env: Readonly<Record<string, string | undefined>> = process.env): Promise<number> => {
  const settings = mcpSettings(env);
  if ('error' in settings) {
    process.stderr.write(`lakeline mcp: ${settings.error}\n`);
    return 2;
  }
  const api = httpLakelineApi(settings);
  // The key's scope decides which tools are listed, as on `POST /mcp` (ADR 0049); a key the API
  // refuses is reported now rather than on the first tool call.
  let keyScope: string;
  try {
    ({ keyScope } = await api.get<{ keyScope: string }>('/api/v1/health'));
  } catch (error) {
    process.stderr.write(`lakeline mcp: the API at ${settings.baseUrl} did not accept the key: ${(error as Error).message}\n`);
    return 1;
  }
  const server = createMcpServer(api, { writes: keyScope !== 'read' });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
  await server.connect(transport);
  process.stdin.on('end', () => void server.close());
  await closed;
  return 0;
};
