/**
 * @module schemas/mcp
 * The `/mcp` route's body and answer: JSON-RPC 2.0 messages of the Model Context Protocol. They are
 * typed loosely here on purpose: the MCP SDK validates each message against the protocol's own
 * schemas (and each tool's arguments against its input schema), and the protocol's methods and
 * results are the MCP specification's, not lakeline's; restating them would only drift (ADR 0048).
 */
import { z } from './zod.ts';

const JsonRpcId = z.union([z.string(), z.number()]);

/** One JSON-RPC message a client sends (a request, a notification or a response). */
export const McpMessage = z
  .looseObject({
    jsonrpc: z.literal('2.0'),
    id: JsonRpcId.optional().openapi({ description: 'absent on notifications' }),
    method: z.string().optional().openapi({ description: 'initialize, tools/list, tools/call, notifications/initialized, …' }),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi('McpMessage', { description: 'A JSON-RPC 2.0 message of the Model Context Protocol (https://modelcontextprotocol.io/specification)' });

/** The `/mcp` body: one message or a batch. */
export const McpRequestBody = z.union([McpMessage, z.array(McpMessage)]).openapi('McpRequestBody');

/** One JSON-RPC response. */
export const McpResponse = z
  .looseObject({
    jsonrpc: z.literal('2.0'),
    id: JsonRpcId.nullable(),
    result: z.record(z.string(), z.unknown()).optional(),
    error: z.looseObject({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }).optional(),
  })
  .openapi('McpResponse', { description: 'A JSON-RPC 2.0 response: result or error' });

/** The `/mcp` answer to requests (notifications alone are answered 202 with no body). */
export const McpResponseBody = z.union([McpResponse, z.array(McpResponse)]).openapi('McpResponseBody');
