/**
 * @module mcp-tool-kit
 * What every MCP tool of lakeline shares: the answer shape (structured content checked against
 * the tool's output schema, plus a short text a model reads well) and URL-safe path segments.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** A tool's answer: its structured content and a text rendering of it. */
export const answer = <T extends Record<string, unknown>>(structured: T, text: string): CallToolResult & { structuredContent: T } => ({
  content: [{ type: 'text', text }],
  structuredContent: structured,
});

/** One path segment: names may hold `/`, `:` and `://`. */
export const seg = (value: string): string => encodeURIComponent(value);

/** Most rows a read query's answer carries to the model (the API pages the rest of a batch read). */
export const MAX_ROWS = 1000;
/** Rows a read query's answer carries when the caller does not say. */
export const DEFAULT_ROWS = 100;

/** A table of rows as text: a header line and one tab-separated line per row. */
export const renderRows = (columns: readonly string[], rows: readonly (readonly unknown[])[]): string =>
  [columns.join('\t'), ...rows.map((r) => r.map((v) => (v === null ? 'NULL' : typeof v === 'object' ? JSON.stringify(v) : String(v))).join('\t'))].join('\n');

/** `error` of an OpenLineage `errorMessage` run facet, if the facets have one. */
export const errorMessageOf = (facets: Readonly<Record<string, unknown>> | undefined): { message: string; language?: string; stackTrace?: string } | undefined => {
  const facet = facets?.errorMessage as { message?: unknown; programmingLanguage?: unknown; stackTrace?: unknown } | undefined;
  if (!facet || typeof facet.message !== 'string') return undefined;
  return {
    message: facet.message,
    ...(typeof facet.programmingLanguage === 'string' ? { language: facet.programmingLanguage } : {}),
    // A model needs the top of a stack trace, not all of it.
    ...(typeof facet.stackTrace === 'string' ? { stackTrace: facet.stackTrace.slice(0, 2000) } : {}),
  };
};
