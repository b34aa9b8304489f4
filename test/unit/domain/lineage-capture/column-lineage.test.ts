/**
 * The `columnLineage` facet lakeline's own queries carry: a CREATE TABLE … AS SELECT with a join
 * and a GROUP BY, a plain copy, a filter, a sort, masking functions, positional output names, in
 * the DuckDB and Spark dialects; the facet is valid against the spec's schema, and once in an
 * event it gives the column graph a user expects.
 */
import { describe, expect, it } from 'vitest';
import { columnLineageFacet, type ColumnLineageFacet } from '#domain/lineage-capture/column-lineage';
import type { LakeDataset } from '#domain/core/lake-dataset';
import { completeEvent, type QueryRun } from '#domain/lineage-capture/run-events';
import { applyEventsToLineageModel } from '#domain/lineage-graph/apply';
import { columnLineageGraph } from '#domain/lineage-graph/column-lineage';
import { MemoryLineageStore } from '../../../helpers/memory-lineage-store.ts';
import { stored } from '../lineage-graph/events.ts';
import { specProblems } from '../query/openlineage-spec.ts';

const W = 'file:///lake/warehouse/org_1';
const table = (namespace: string, name: string, fields: string[]): LakeDataset => ({
  table: { namespace, table: name },
  location: `${W}/${namespace}/${name}`,
  fields: fields.map((f) => ({ name: f, type: 'string' })),
});
const ORDERS = table('sales', 'orders', ['o_id', 'o_cust', 'o_total', 'o_date']);
const CUSTOMERS = table('sales', 'customers', ['c_id', 'c_name', 'c_region']);
const C = '/lake/warehouse/org_1/sales/customers';

/** `column <- dataset.field TYPE/SUBTYPE` lines of a facet, dataset-wide entries as `* <- …`. */
const edges = (facet: ColumnLineageFacet | undefined): string[] => [
  ...Object.entries(facet?.fields ?? {}).flatMap(([column, { inputFields }]) =>
    inputFields.length === 0 ? [`${column} <- (nothing)`] : inputFields.map((f) => `${column} <- ${f.name.split('/').pop()}.${f.field} ${f.transformations.map((t) => `${t.type}/${t.subtype}${t.masking ? '/masking' : ''}`).join(' ')}`),
  ),
  ...(facet?.dataset ?? []).map((f) => `* <- ${f.name.split('/').pop()}.${f.field} ${f.transformations.map((t) => `${t.type}/${t.subtype}`).join(' ')}`),
].sort();

describe('columnLineageFacet', () => {
  const ctas = `CREATE TABLE analytics.by_region AS
    SELECT c.c_region AS region, sum(o.o_total) AS total, count(*) AS n
    FROM sales.orders o JOIN lakeline.sales.customers c ON o.o_cust = c.c_id
    WHERE o.o_date >= DATE '2024-01-01'
    GROUP BY c.c_region`;

  it.each(['duckdb', 'spark'] as const)('Should give a CTAS with a join and a GROUP BY its direct and indirect inputs (%s)', (dialect) => {
    // Act
    const facet = columnLineageFacet({ sql: ctas, dialect, inputs: [ORDERS, CUSTOMERS], output: table('analytics', 'by_region', ['region', 'total', 'n']) });

    // Assess
    expect(edges(facet)).toEqual([
      '* <- customers.c_id INDIRECT/JOIN',
      '* <- customers.c_region INDIRECT/GROUP_BY',
      '* <- orders.o_cust INDIRECT/JOIN',
      '* <- orders.o_date INDIRECT/FILTER',
      'n <- (nothing)',
      'region <- customers.c_region DIRECT/IDENTITY',
      'total <- orders.o_total DIRECT/AGGREGATION',
    ]);
    expect(facet?.dataset[0]).toMatchObject({ namespace: 'file', name: C, field: 'c_id', transformations: [{ type: 'INDIRECT', subtype: 'JOIN', masking: false }] });
    expect(facet?._schemaURL).toBe('https://openlineage.io/spec/facets/1-2-0/ColumnLineageDatasetFacet.json#/$defs/ColumnLineageDatasetFacet');
  });

  it('Should give a plain copy identity inputs and nothing dataset-wide', () => {
    const facet = columnLineageFacet({ sql: 'SELECT * FROM sales.orders', dialect: 'duckdb', inputs: [ORDERS], output: table('analytics', 'orders_copy', ['o_id', 'o_cust', 'o_total', 'o_date']) });
    expect(edges(facet)).toEqual(['o_cust <- orders.o_cust DIRECT/IDENTITY', 'o_date <- orders.o_date DIRECT/IDENTITY', 'o_id <- orders.o_id DIRECT/IDENTITY', 'o_total <- orders.o_total DIRECT/IDENTITY']);
  });

  it('Should name the written columns by position for an INSERT, and mark a filter', () => {
    const facet = columnLineageFacet({
      sql: 'INSERT INTO analytics.big SELECT o_id, o_total * 1.2 FROM sales.orders WHERE o_total > 100',
      dialect: 'duckdb',
      inputs: [ORDERS],
      output: table('analytics', 'big', ['id', 'gross']),
    });
    expect(edges(facet)).toEqual(['* <- orders.o_total INDIRECT/FILTER', 'gross <- orders.o_total DIRECT/TRANSFORMATION', 'id <- orders.o_id DIRECT/IDENTITY']);
  });

  it.each(['duckdb', 'spark'] as const)('Should mark the columns a result is sorted by, and hashes and counts as masking (%s)', (dialect) => {
    const facet = columnLineageFacet({
      sql: 'SELECT md5(c_name) AS who, count(c_id) AS n, c_region FROM sales.customers GROUP BY c_name, c_region ORDER BY c_region DESC',
      dialect,
      inputs: [CUSTOMERS],
      output: table('analytics', 'people', ['who', 'n', 'c_region']),
    });
    expect(edges(facet)).toEqual([
      '* <- customers.c_name INDIRECT/GROUP_BY',
      '* <- customers.c_region INDIRECT/GROUP_BY INDIRECT/SORT',
      'c_region <- customers.c_region DIRECT/IDENTITY',
      'n <- customers.c_id DIRECT/AGGREGATION/masking',
      'who <- customers.c_name DIRECT/TRANSFORMATION/masking',
    ]);
  });

  it('Should give no facet for SQL it cannot read, rather than fail the query', () => {
    expect(columnLineageFacet({ sql: 'SELEC nonsense FROM', dialect: 'duckdb', inputs: [ORDERS], output: table('a', 'b', []) })).toBeUndefined();
  });

  it("Should be valid against the spec's facet schema and give the expected column graph once recorded", async () => {
    // Prepare: the COMPLETE event of a routed CTAS, as lineage capture builds it, with the facet.
    const output = table('analytics', 'by_region', ['region', 'total', 'n']);
    const run: QueryRun = {
      runId: '0176a8c2-fe01-7439-87e6-56a1a1b4029f',
      job: { namespace: 'lakeline', name: 'query_1' },
      sql: ctas,
      dialect: 'duckdb',
      engine: { name: 'spark', version: '3.5.6' },
      inputs: [ORDERS, CUSTOMERS],
      catalogKind: 'jdbc',
    };
    const event = completeEvent(run, new Date('2024-06-01T00:00:00Z'), { dataset: output, rowCount: 4, bytes: 100, fileCount: 1 });
    const facet = columnLineageFacet({ sql: ctas, dialect: 'duckdb', inputs: run.inputs, output }) as ColumnLineageFacet;
    (event.outputs[0] as { facets: Record<string, unknown> }).facets.columnLineage = facet;
    const store = new MemoryLineageStore();

    // Act
    await applyEventsToLineageModel(store, 'org', [stored(event)]);
    const graph = await columnLineageGraph(store, 'org', { nodeId: { type: 'DATASET_FIELD', namespace: 'lakeline', name: 'analytics.by_region', field: 'total' }, depth: 5, withDownstream: false });

    // Assess
    expect(specProblems(event)).toEqual([]);
    expect(graph.graph.map((n) => n.id)).toEqual([
      'datasetField:lakeline:analytics.by_region:total',
      'datasetField:lakeline:sales.customers:c_id',
      'datasetField:lakeline:sales.customers:c_region',
      'datasetField:lakeline:sales.orders:o_cust',
      'datasetField:lakeline:sales.orders:o_date',
      'datasetField:lakeline:sales.orders:o_total',
    ]);
    expect(graph.graph[0]?.data.inputFields.map((i) => `${i.dataset}.${i.field} ${i.transformations.map((t) => t.subtype).join(',')}`)).toEqual([
      'sales.customers.c_id JOIN',
      'sales.customers.c_region GROUP_BY',
      'sales.orders.o_cust JOIN',
      'sales.orders.o_date FILTER',
      'sales.orders.o_total AGGREGATION',
    ]);
  });
});
