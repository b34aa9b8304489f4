/**
 * @module mcp-clients
 * The MCP SDK's own clients connected to lakeline's MCP server as a user's would be: over
 * Streamable HTTP at the stack's `/mcp` with a bearer key, or over stdio by starting
 * `lakeline mcp` with the stack's URL and a key in its environment.
 */
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { REPO_ROOT } from '#composition/config';

/** A client of `POST /mcp`, connected (initialized). */
export const httpMcpClient = async (baseUrl: string, token: string, name = 'lakeline-mcp-test'): Promise<Client> => {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
};

/** A client of `lakeline mcp` over stdio, connected (initialized); close it to end the process. */
export const stdioMcpClient = async (baseUrl: string, token: string, name = 'lakeline-mcp-stdio-test'): Promise<Client> => {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [path.join(REPO_ROOT, 'bin/lakeline.mjs'), 'mcp'],
      env: { PATH: process.env.PATH ?? '', LAKELINE_URL: baseUrl, LAKELINE_API_KEY: token },
      stderr: 'pipe',
    }),
  );
  return client;
};
