/**
 * @module mcp-ports
 * What the MCP tools need: lakeline's own public HTTP API, called as the caller (their bearer
 * key), so a key's org, plan and limits apply to a tool exactly as to the API (ADR 0048).
 */

/** Query string values; `undefined` ones are left out. */
export type ApiQuery = Readonly<Record<string, string | number | boolean | undefined>>;

/** lakeline's public API as one caller. Paths are the API's (`/api/v1/search`), segments already encoded. */
/** What the caller's key may do: `writes` false for a read-only key (ADR 0049), whose server lists no write tool. */
export interface McpAccess {
  readonly writes: boolean;
}

export interface LakelineApi {
  get<T>(path: string, query?: ApiQuery): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
}

/**
 * An API answer other than 2xx: the status and the API's own message (`{error}`, `{message}`),
 * which a tool reports as its error, word for word.
 */
export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly apiMessage: string,
  ) {
    super(`lakeline API answered ${status}: ${apiMessage}`);
    this.name = 'ApiCallError';
  }
}
