/**
 * The lineage graph through the local gateway, on the shared stack: the cases of
 * lineage-graph-cases.ts, with `lakeline lineage rebuild --org` on the stack's home.
 */
import { expect, inject } from 'vitest';
import { lakelineJson } from '../helpers/cli.ts';
import { freshOrg, type LineageApi } from './lineage-api.ts';
import { lineageGraphCases, type GraphOrg } from './lineage-graph-cases.ts';
import { graphApi } from './lineage-graph-api.ts';

const send = async (ingest: LineageApi, events: readonly unknown[]): Promise<number> => {
  for (const event of events) expect((await ingest.post(JSON.stringify(event))).status).toBe(200);
  return Date.now();
};

lineageGraphCases({
  name: 'HTTP',
  newOrg: async (): Promise<GraphOrg> => {
    const { orgId, token, api } = await freshOrg('Lineage graph test');
    return { orgId, send: (events) => send(api, events), graph: graphApi(api.baseUrl, token) };
  },
  rebuild: (orgId) => lakelineJson<{ orgId: string; events: number }[]>(['lineage', 'rebuild', '--org', orgId], { LAKELINE_HOME: inject('stack').home }),
});
