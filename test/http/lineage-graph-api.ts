/**
 * @module lineage-graph-api
 * A client of the lineage graph's read endpoints for the HTTP suites: each answer is checked
 * against its route's contract (a 200 body parses with the route's strict response schema, an
 * error is `{error}`), and `eventually` polls an endpoint until the asynchronously maintained model
 * shows what a suite expects (or 2 s pass, the freshness bound).
 */
import { expect } from 'vitest';
import { CONTRACTS, bodySchemaOf } from '#shared/contracts';
import { ROUTES, type RouteId } from '#shared/routes';
import type { Answer } from './lineage-api.ts';

/** The read routes of the graph, with their path templates. */
const route = (id: RouteId) => {
  const found = ROUTES.find((r) => r.id === id);
  if (!found) throw new Error(`no route ${id}`);
  return found;
};

/** A path from a route's template, each parameter URL-encoded (names may hold `/`, `:` and `://`). */
const pathOf = (id: RouteId, params: Record<string, string>): string =>
  route(id).path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));

/** The graph endpoints of one stack, as one caller. */
export const graphApi = (baseUrl: string, token: string) => {
  const get = async <T = Record<string, unknown>>(id: RouteId, pathParams: Record<string, string> = {}, query: Record<string, string> = {}): Promise<Answer<T>> => {
    const qs = new URLSearchParams(query).toString();
    const response = await fetch(`${baseUrl}${pathOf(id, pathParams)}${qs ? `?${qs}` : ''}`, { headers: { authorization: `Bearer ${token}` } });
    const text = await response.text();
    const body = JSON.parse(text) as T;
    // The contract: every answer parses with the schema of its status (strict: nothing more, nothing less).
    const schema = bodySchemaOf(route(id), CONTRACTS[id], response.status);
    expect(schema.safeParse(body).error, `${id} ${response.status} ${text.slice(0, 300)}`).toBeUndefined();
    return { status: response.status, headers: response.headers, body };
  };
  return {
    get,
    lineage: (query: Record<string, string>) => get<LineageBody>('GetLineage', {}, query),
    columnLineage: (query: Record<string, string>) => get<ColumnLineageBody>('GetColumnLineage', {}, query),
    search: (query: Record<string, string>) => get<{ totalCount: number; results: { type: string; name: string; namespace: string; nodeId: string }[] }>('SearchLineage', {}, query),
  };
};

/** A client of the graph endpoints. */
export type GraphApi = ReturnType<typeof graphApi>;

/** `GET /api/v1/lineage`'s body. */
export interface LineageBody {
  readonly graph: { id: string; type: string; data: Record<string, unknown>; inEdges: { origin: string }[]; outEdges: { destination: string }[] }[];
  readonly error?: string;
}

/** `GET /api/v1/column-lineage`'s body. */
export interface ColumnLineageBody {
  readonly graph: { id: string; data: { field: string; inputFields: { dataset: string; field: string; transformations: { type: string; subtype: string }[] }[] } }[];
  readonly error?: string;
}

/** Nodes as `id: in-edge origins | out-edge destinations`, the way the expectations are written. */
export const shape = (body: LineageBody): string[] => body.graph.map((n) => `${n.id}: ${n.inEdges.map((e) => e.origin).join(',')} | ${n.outEdges.map((e) => e.destination).join(',')}`);

/** Column edges as `field <- dataset.field [TYPE/SUBTYPE …]`. */
export const columnEdges = (body: ColumnLineageBody): string[] =>
  body.graph.flatMap((n) => n.data.inputFields.map((i) => `${n.data.field} <- ${i.dataset}.${i.field} [${i.transformations.map((x) => `${x.type}/${x.subtype}`).join(' ')}]`));

/**
 * Polls `read` until `done` holds of its answer; returns the answer and how long after `since` it
 * first held. Gives up (returning the last answer) after `withinMs`.
 */
export const eventually = async <T>(read: () => Promise<T>, done: (answer: T) => boolean, since = Date.now(), withinMs = 2_000): Promise<{ answer: T; afterMs: number }> => {
  for (;;) {
    const answer = await read();
    const afterMs = Date.now() - since;
    if (done(answer) || afterMs > withinMs) return { answer, afterMs };
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};
