/**
 * @module post-mcp
 * `POST /mcp`: lakeline's MCP server over Streamable HTTP, stateless (ADR 0048). Each request gets
 * a fresh server and transport (no session is kept: any Lambda instance answers any request) with
 * JSON answers rather than an SSE stream; its tools call the public API with the caller's own
 * `Authorization` header, so the key's org, plan and limits hold as on the API.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { mayWrite } from '#domain/auth/principal';
import { ValidationError } from '#domain/errors';
import { lakelineApiFor } from '#composition/index';
import { PostMcp } from '#shared/contracts';
import { createMcpServer } from '#shared/mcp/server';
import { httpHandler } from '#composition/http';
import { header } from '#shared/request';

/** The headers the transport reads from the event (the protocol version, a session id it refuses). */
const TRANSPORT_HEADERS = ['mcp-protocol-version', 'mcp-session-id'] as const;

/** Lambda entry point. */
export const handler = httpHandler(PostMcp, async ({ event, body, principal }) => {
  const authorization = header(event, 'authorization') ?? '';
  const host = event.requestContext.domainName ?? 'localhost';
  const server = createMcpServer(lakelineApiFor(authorization, host), { writes: mayWrite(principal) });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    // The route's contract already read a JSON body, and the answer is always JSON (never an SSE
    // stream), so a client that does not list `text/event-stream` in Accept is served all the same.
    const headers = new Headers({ accept: 'application/json, text/event-stream', 'content-type': 'application/json' });
    for (const name of TRANSPORT_HEADERS) {
      const value = header(event, name);
      if (value !== undefined) headers.set(name, value);
    }
    const response = await transport.handleRequest(new Request(`https://${host}${event.rawPath}`, { method: 'POST', headers }), { parsedBody: body });
    const text = await response.text();
    if (response.status === 202) return { statusCode: 202 };
    if (!response.ok) {
      // The transport's refusals (an unsupported protocol version, a session id) are JSON-RPC
      // errors; the API's error style says them as `{error}` with the transport's own words.
      const message = (JSON.parse(text || '{}') as { error?: { message?: string } }).error?.message ?? `the MCP transport answered ${response.status}`;
      throw new ValidationError(message);
    }
    return { statusCode: 200, body: JSON.parse(text) as never };
  } finally {
    await server.close();
  }
});
