// The readings of a node id whose namespace or name holds `:` (issue 24): every split into non-empty
// names, Marquez's guess first; the OpenAPI pattern accepts exactly the ids that have a reading.
import { describe, expect, it } from 'vitest';
import { ValidationError } from '#domain/errors';
import { MAX_NODE_ID_COLONS, nodeIdReadings } from '#domain/lineage-graph/ids';
import { NODE_ID_PATTERNS } from '#domain/lineage-graph/params';

const names = (value: string) => nodeIdReadings(value, 'nodeId', ['JOB', 'DATASET', 'DATASET_FIELD']).map((r) => ('field' in r ? [r.namespace, r.name, r.field] : [r.namespace, r.name]));

describe('nodeIdReadings', () => {
  it.each([
    // The id: Marquez guesses namespace `file`; the symlink's namespace is the second reading.
    ['dataset:file:/tmp/warehouse:default.orders', [['file', '/tmp/warehouse:default.orders'], ['file:/tmp/warehouse', 'default.orders']]],
    ['dataset:s3://b:x', [['s3://b', 'x'], ['s3', '//b:x']]],
    ['dataset:hdfs://host:8020:/a/b', [['hdfs://host:8020', '/a/b'], ['hdfs', '//host:8020:/a/b'], ['hdfs://host', '8020:/a/b']]],
    ['dataset:bigquery:p.d.t', [['bigquery', 'p.d.t']]],
    ['job:my ns:my job', [['my ns', 'my job']]],
    [
      'dataset:arn:aws:kinesis:us-east-1:1:orders',
      [['arn', 'aws:kinesis:us-east-1:1:orders'], ['arn:aws', 'kinesis:us-east-1:1:orders'], ['arn:aws:kinesis', 'us-east-1:1:orders'], ['arn:aws:kinesis:us-east-1', '1:orders'], ['arn:aws:kinesis:us-east-1:1', 'orders']],
    ],
    ['datasetField:file:/tmp/x:t:c', [['file', '/tmp/x', 't:c'], ['file', '/tmp/x:t', 'c'], ['file:/tmp/x', 't', 'c']]],
    ['dataset::a:b', [[':a', 'b']]],
  ])('Should read %s every way, Marquez first', (value, expected) => {
    expect(names(value)).toEqual(expected);
  });

  it('Should keep a version suffix off every reading', () => {
    expect(nodeIdReadings('dataset:file:/x:t#AAAAAAAA-bbbb-cccc-dddd-eeeeeeeeeeee', 'nodeId', ['DATASET']).map((r) => r.version)).toEqual(['aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee', 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee']);
  });

  it('Should refuse more colons than it resolves, naming the limit', () => {
    const many = `dataset:${'a:'.repeat(MAX_NODE_ID_COLONS.DATASET + 1)}b`;
    expect(() => nodeIdReadings(many, 'nodeId', ['DATASET'])).toThrow(new ValidationError("nodeId: holds more than 16 ':' after 'dataset:' (too many readings to resolve)"));
    expect(nodeIdReadings(`dataset:${'a:'.repeat(MAX_NODE_ID_COLONS.DATASET)}b`, 'nodeId', ['DATASET'])).toHaveLength(16);
    expect(() => nodeIdReadings('datasetField:a:b:c:d:e:f:g:h:i:j', 'nodeId', ['DATASET_FIELD'])).toThrow(/more than 8 ':'/);
  });

  // The pattern the OpenAPI document states and the parser agree on every short id over `a`, `:` and `/`.
  it('Should accept by pattern exactly the ids that have a reading within the limits', () => {
    const alphabet = ['a', ':', '/'];
    const texts: string[] = [''];
    for (let length = 1; length <= 9; length++) for (const t of texts.filter((x) => x.length === length - 1)) texts.push(...alphabet.map((c) => t + c));
    const extra = [`${'a:'.repeat(16)}a`, `${'a:'.repeat(15)}a`, `${':'.repeat(16)}a`, `${'a:'.repeat(8)}a`, `${'a:'.repeat(9)}a`, `${'a:'.repeat(9)}`];
    let checked = 0;
    for (const rest of [...texts, ...extra]) {
      for (const [prefix, pattern, allowed] of [
        ['dataset:', NODE_ID_PATTERNS.lineage, ['JOB', 'DATASET']],
        ['datasetField:', NODE_ID_PATTERNS.columnLineage, ['DATASET_FIELD', 'DATASET', 'JOB']],
        ['job:', NODE_ID_PATTERNS.columnLineage, ['DATASET_FIELD', 'DATASET', 'JOB']],
      ] as const) {
        const value = prefix + rest;
        let parsed = true;
        try {
          nodeIdReadings(value, 'nodeId', allowed);
        } catch {
          parsed = false;
        }
        expect(pattern.test(value), value).toBe(parsed);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50_000);
  });
});
