/**
 * lakeline's own queries in the lineage graph: a routed `CREATE TABLE … AS SELECT` with a join and
 * a GROUP BY (a Spark run) records the `columnLineage` facet on its COMPLETE event, and
 * `GET /api/v1/column-lineage` gives the column edges the SQL implies — the copied column DIRECT
 * IDENTITY, the computed one AGGREGATION, the join keys and the grouping column INDIRECT — with
 * the tables under their SQL names (the symlinks lineage capture records).
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { columnEdges, eventually, graphApi, type ColumnLineageBody } from './lineage-graph-api.ts';
import { RUN_TIMEOUT_MS, routedApi, type RunWithRows } from './routed-api.ts';

describe("a routed CREATE TABLE AS SELECT's column lineage", () => {
  const stack = inject('stack');
  const ns = `cl_${randomUUID().replaceAll('-', '').slice(0, 8)}`;
  const graph = graphApi(stack.baseUrl, stack.apiKey);
  let run: RunWithRows;

  beforeAll(async () => {
    const routed = routedApi(stack.baseUrl, stack.apiKey);
    const submitted = await routed.query({
      query: `CREATE TABLE ${ns}.nations_by_region AS
              SELECT r.r_name AS region, count(n.n_nationkey) AS nations, max(n.n_name) AS last_name
              FROM tpch.nation n JOIN tpch.region r ON n.n_regionkey = r.r_regionkey
              WHERE n.n_nationkey >= 0
              GROUP BY r.r_name`,
    });
    expect(submitted.body).toMatchObject({ state: 'SUBMITTED' });
    run = await routed.waitForEnd(submitted.body.run_id ?? '');
  }, RUN_TIMEOUT_MS + 30_000);

  it('Should give each written column its inputs and transformations, and the rows-shaping columns as indirect', async () => {
    expect([run.state, run.error]).toEqual(['COMPLETE', undefined]);
    const read = (field: string) => graph.columnLineage({ nodeId: `datasetField:lakeline:${ns}.nations_by_region:${field}`, depth: '1' });
    const { answer } = await eventually(() => read('region'), (a) => a.status === 200, Date.now(), 10_000);
    const indirect = ['tpch.nation.n_nationkey [INDIRECT/FILTER]', 'tpch.nation.n_regionkey [INDIRECT/JOIN]', 'tpch.region.r_name [INDIRECT/GROUP_BY]', 'tpch.region.r_regionkey [INDIRECT/JOIN]'];
    const edgesOf = (body: ColumnLineageBody, field: string) => columnEdges(body).filter((e) => e.startsWith(`${field} <- `)).map((e) => e.slice(`${field} <- `.length));
    expect(edgesOf(answer.body, 'region')).toEqual(['tpch.nation.n_nationkey [INDIRECT/FILTER]', 'tpch.nation.n_regionkey [INDIRECT/JOIN]', 'tpch.region.r_name [DIRECT/IDENTITY INDIRECT/GROUP_BY]', 'tpch.region.r_regionkey [INDIRECT/JOIN]']);
    expect(edgesOf((await read('nations')).body, 'nations')).toEqual(['tpch.nation.n_nationkey [DIRECT/AGGREGATION INDIRECT/FILTER]', ...indirect.slice(1)]);
    expect(edgesOf((await read('last_name')).body, 'last_name')).toEqual(['tpch.nation.n_name [DIRECT/AGGREGATION]', ...indirect]);
  });
});
