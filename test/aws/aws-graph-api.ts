/**
 * @module aws-graph-api
 * The lineage graph's read endpoints called through the AWS profile's handlers (behind its
 * authorizer), with the HTTP suites' client interface and the same contract check on every answer,
 * so the graph's cases (test/http/lineage-graph-cases.ts) run unchanged against the AWS profile.
 */
import { expect } from 'vitest';
import { CONTRACTS, bodySchemaOf } from '#shared/contracts';
import { ROUTES, type RouteId } from '#shared/routes';
import type { Answer } from '../http/lineage-api.ts';
import type { ColumnLineageBody, GraphApi, LineageBody } from '../http/lineage-graph-api.ts';
import type { AwsOrgCaller } from './aws-profile.ts';

/** The graph endpoints as one org's caller in the AWS profile. */
export const awsGraphApi = (caller: AwsOrgCaller): GraphApi => {
  const get = async <T = Record<string, unknown>>(id: RouteId, pathParams: Record<string, string> = {}, query: Record<string, string> = {}): Promise<Answer<T>> => {
    const route = ROUTES.find((r) => r.id === id);
    if (!route) throw new Error(`no route ${id}`);
    // API Gateway hands the handler decoded path parameters and query values.
    const result = await caller.call(id, { pathParameters: pathParams, queryStringParameters: query });
    const schema = bodySchemaOf(route, CONTRACTS[id], result.statusCode);
    expect(schema.safeParse(result.body).error, `${id} ${result.statusCode} ${JSON.stringify(result.body).slice(0, 300)}`).toBeUndefined();
    return { status: result.statusCode, headers: new Headers(Object.entries(result.headers).map(([k, v]): [string, string] => [k, String(v)])), body: result.body as T };
  };
  return {
    get,
    lineage: (query: Record<string, string>) => get<LineageBody>('GetLineage', {}, query),
    columnLineage: (query: Record<string, string>) => get<ColumnLineageBody>('GetColumnLineage', {}, query),
    search: (query: Record<string, string>) => get<{ totalCount: number; results: { type: string; name: string; namespace: string; nodeId: string }[] }>('SearchLineage', {}, query),
  };
};
