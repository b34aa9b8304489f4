/**
 * Lineage node ids (Marquez's form) as the console reads them, including namespaces that carry
 * colons of their own, and the node id of a lake table built by the domain's naming function.
 */
import { describe, expect, it } from 'vitest';
import { datasetIdentity, datasetNodeId } from '#domain/lineage-capture/dataset-identity';
import { parseNodeId } from '../../../web/src/pages/lineage/lineage-node.ts';

describe('lineage node ids', () => {
  it.each([
    ['job:etl:daily_orders', { type: 'job', namespace: 'etl', name: 'daily_orders' }],
    ['dataset:grandmas.kitchen:apple.filling', { type: 'dataset', namespace: 'grandmas.kitchen', name: 'apple.filling' }],
    ['dataset:s3://lake:warehouse/org_1/tpch/nation', { type: 'dataset', namespace: 's3://lake', name: 'warehouse/org_1/tpch/nation' }],
    ['dataset:postgres://db.example:5432:shop.public.orders', { type: 'dataset', namespace: 'postgres://db.example:5432', name: 'shop.public.orders' }],
    ['dataset:file:/tmp/warehouse/org_1/tpch/lineitem', { type: 'dataset', namespace: 'file', name: '/tmp/warehouse/org_1/tpch/lineitem' }],
    ['datasetField:kitchen:apples:colour', { type: 'datasetField', namespace: 'kitchen', name: 'apples:colour' }],
  ])('Should parse %s', (id, node) => {
    expect(parseNodeId(id)).toEqual(node);
  });

  it.each(['', 'job', 'job:', 'run:x:y', 'dataset:nocolon'])('Should refuse %j', (id) => {
    expect(parseNodeId(id)).toBeUndefined();
  });

  it('Should name a lake table\'s node from its location as the lineage capture names the table', () => {
    const s3 = datasetNodeId(datasetIdentity('s3://lake-bucket/warehouse/org_1/tpch/nation/'));
    expect(s3).toBe('dataset:s3://lake-bucket:warehouse/org_1/tpch/nation');
    expect(parseNodeId(s3)).toEqual({ type: 'dataset', namespace: 's3://lake-bucket', name: 'warehouse/org_1/tpch/nation' });
    expect(datasetNodeId(datasetIdentity('file:///home/x/warehouse/org_1/tpch/nation'))).toBe('dataset:file:/home/x/warehouse/org_1/tpch/nation');
  });
});
