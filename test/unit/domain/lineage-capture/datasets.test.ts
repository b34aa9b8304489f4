/**
 * How lake tables are named in captured lineage: by location, per OpenLineage's Naming.md (`file`
 * and the path locally, `s3://<bucket>` and the object key in AWS), with the SQL name as a symlink.
 */
import { describe, expect, it } from 'vitest';
import { datasetIdentity, datasetOf } from '#domain/lineage-capture/datasets';

describe('datasetIdentity', () => {
  it.each([
    ['file:///home/u/.lakeline/warehouse/org_1/tpch/orders', { namespace: 'file', name: '/home/u/.lakeline/warehouse/org_1/tpch/orders' }],
    ['file:/tmp/w/ns/t/', { namespace: 'file', name: '/tmp/w/ns/t' }],
    ['/tmp/w/ns/t', { namespace: 'file', name: '/tmp/w/ns/t' }],
    ['s3://lake-bucket/warehouse/org_1/tpch/orders', { namespace: 's3://lake-bucket', name: 'warehouse/org_1/tpch/orders' }],
    ['s3a://lake-bucket/warehouse/t/', { namespace: 's3://lake-bucket', name: 'warehouse/t' }],
  ])('Should name %s by its storage and path', (location, identity) => {
    // Assess
    expect(datasetIdentity(location)).toEqual(identity);
  });
});

describe('datasetOf', () => {
  it('Should carry the schema, the SQL name as a TABLE symlink and the catalog', () => {
    // Act
    const dataset = datasetOf({ table: { namespace: 'tpch', table: 'orders' }, location: 's3://b/w/tpch/orders', fields: [{ name: 'o_orderkey', type: 'long' }] }, 'glue');
    // Assess
    expect(dataset).toMatchObject({
      namespace: 's3://b',
      name: 'w/tpch/orders',
      facets: {
        schema: { fields: [{ name: 'o_orderkey', type: 'long', ordinal_position: 1 }] },
        symlinks: { identifiers: [{ namespace: 'lakeline', name: 'tpch.orders', type: 'TABLE' }] },
        catalog: { framework: 'iceberg', type: 'glue', name: 'lakeline' },
      },
    });
  });
});
