/**
 * @module schemas/mcp
 * The `/mcp` route's body and answer: JSON-RPC 2.0 messages of the Model Context Protocol. The body
 * is the MCP SDK's own `JSONRPCMessageSchema` (a request, a notification, a result or an error), so
 * what the document states is what the transport accepts; one message per POST (the protocol
 * dropped JSON-RPC batches in 2025-06-18). Each method's params and results are the MCP
 * specification's, checked by the SDK, and left loose here: restating them would only drift
 * (ADR 0048).
 */
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ValidationError } from '#domain/errors';
import { z } from './zod.ts';

/** The `/mcp` body: one JSON-RPC message of the Model Context Protocol. */
export const McpRequestBody = JSONRPCMessageSchema;

/** A body read as an MCP message, or a 400 naming what is wrong. */
export const parseMcpMessage = (value: unknown): JSONRPCMessage => {
  if (Array.isArray(value)) throw new ValidationError('body: one JSON-RPC message per request (MCP 2025-06-18 has no batches)');
  const parsed = JSONRPCMessageSchema.safeParse(value);
  if (!parsed.success) throw new ValidationError(`body: not a JSON-RPC 2.0 message (a request, notification, result or error): ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return value as JSONRPCMessage;
};

const JsonRpcId = z.union([z.string(), z.number()]);

/** One JSON-RPC response. */
export const McpResponse = z
  .looseObject({
    jsonrpc: z.literal('2.0'),
    id: JsonRpcId.nullable().optional(),
    result: z.record(z.string(), z.unknown()).optional(),
    error: z.looseObject({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }).optional(),
  })
  .openapi('McpResponse', { description: 'A JSON-RPC 2.0 response: result or error' });

/** The `/mcp` answer to a request. */
export const McpResponseBody = McpResponse;
