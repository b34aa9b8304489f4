/**
 * @module lakeline-api
 * The MCP tools' port to lakeline's public HTTP API (`LakelineApi`), over `fetch`: the base URL of
 * the API and the caller's `Authorization` header, forwarded as received. A non-2xx answer becomes
 * an {@link ApiCallError} carrying the API's own message.
 */
import { ApiCallError, type ApiQuery, type LakelineApi } from '#shared/mcp/ports';

/** Where the API is and who calls it. */
export interface LakelineApiOptions {
  /** The API's origin (`https://abc.execute-api.eu-west-1.amazonaws.com`, `http://127.0.0.1:3000`). */
  readonly baseUrl: string;
  /** The caller's `Authorization` header value (`Bearer llk_…`). */
  readonly authorization: string;
  /** Milliseconds one call may take (API Gateway's own limit by default). */
  readonly timeoutMs?: number;
}

const messageOf = (text: string): string => {
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown };
    if (typeof body.error === 'string') return body.error;
    if (typeof body.message === 'string') return body.message;
  } catch {
    // Not JSON: the text itself.
  }
  return text.slice(0, 500) || '(no message)';
};

/** A client of the API as one caller. */
export const httpLakelineApi = (options: LakelineApiOptions): LakelineApi => {
  const base = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 29_000;
  const call = async <T>(method: 'GET' | 'POST', path: string, query?: ApiQuery, body?: unknown): Promise<T> => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) params.set(name, String(value));
    const qs = params.toString();
    const response = await fetch(`${base}${path}${qs ? `?${qs}` : ''}`, {
      method,
      headers: { authorization: options.authorization, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    if (!response.ok) throw new ApiCallError(response.status, messageOf(text));
    return (text === '' ? undefined : JSON.parse(text)) as T;
  };
  return {
    get: (path, query) => call('GET', path, query),
    post: (path, body) => call('POST', path, undefined, body),
  };
};

