/**
 * @module lineage-api
 * A small client of the lineage endpoints for the HTTP suites, and a fresh organization with its
 * own API key per suite, so each suite sees exactly the events it sent.
 */
import { inject } from 'vitest';
import type { StoredLineageEvent } from '#domain/lineage/types';
import { orgWithKey, storesAt } from '../helpers/stores.ts';

/** An HTTP answer, body parsed when it is JSON. */
export interface Answer<T = unknown> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: T;
}

const answer = async <T>(response: Response): Promise<Answer<T>> => {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    // Not JSON: keep the text.
  }
  return { status: response.status, headers: response.headers, body: body as T };
};

/** The lineage endpoints of one stack, as one caller. */
export const lineageApi = (baseUrl: string, token: string) => {
  const auth = { authorization: `Bearer ${token}` };
  const post = (path: string, body: string | Uint8Array, headers: Record<string, string> = {}) =>
    fetch(`${baseUrl}${path}`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json', ...headers }, body }).then((r) => answer(r));
  return {
    baseUrl,
    /** The caller's credentials, for hand-made requests. */
    headers: auth,
    /** `POST /api/v1/lineage`. */
    post: (body: string | Uint8Array, headers?: Record<string, string>) => post('/api/v1/lineage', body, headers),
    /** `POST /api/v1/lineage/batch`. */
    batch: (body: string | Uint8Array, headers?: Record<string, string>) => post('/api/v1/lineage/batch', body, headers),
    /** `GET /api/v1/events` with raw parameters. */
    events: (params: Record<string, string>) =>
      fetch(`${baseUrl}/api/v1/events?${new URLSearchParams(params).toString()}`, { headers: auth }).then((r) => answer<StoredLineageEvent[] & { error?: string }>(r)),
  };
};

/** A client of the lineage endpoints. */
export type LineageApi = ReturnType<typeof lineageApi>;

/** A new organization with a key on the shared stack, and a client acting as it. */
export const freshOrg = async (name = 'Lineage test'): Promise<{ orgId: string; token: string; api: LineageApi }> => {
  const stack = inject('stack');
  const stores = storesAt(stack.dynamodbEndpoint);
  try {
    const { org, token } = await orgWithKey(stores, { name });
    return { orgId: org.orgId, token, api: lineageApi(stack.baseUrl, token) };
  } finally {
    stores.close();
  }
};

/** Parameters selecting every event of an org (every storable time). */
export const ALL_TIME = { start: '0', end: '253402300800' } as const;
