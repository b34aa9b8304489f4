// Parameters of the lineage read model's endpoints: node ids parsed as Marquez parses them (its
// NodeIdTest cases), and every bad parameter refused with a 400 naming it.
import { describe, expect, it } from 'vitest';
import { ValidationError } from '#domain/errors';
import { parseNodeId } from '#domain/lineage-graph/ids';
import { parseColumnLineageQuery, parseLineageQuery, parsePage, parseRunId, parseSearchQuery } from '#domain/lineage-graph/params';

describe('parseNodeId (Marquez NodeIdTest cases)', () => {
  it.each([
    ['job:my-namespace:my-job', { type: 'JOB', namespace: 'my-namespace', name: 'my-job' }],
    ['job:org://team:my-job', { type: 'JOB', namespace: 'org://team', name: 'my-job' }],
    ['dataset:my-namespace:my-dataset', { type: 'DATASET', namespace: 'my-namespace', name: 'my-dataset' }],
    ['dataset:gs://bucket:/path/to/data', { type: 'DATASET', namespace: 'gs://bucket', name: '/path/to/data' }],
    ['dataset:postgresql://hostname:5432/database:my_table', { type: 'DATASET', namespace: 'postgresql://hostname:5432/database', name: 'my_table' }],
    ['dataset:my-namespace:my_struct<a:bigint,b:bigint,c:string>', { type: 'DATASET', namespace: 'my-namespace', name: 'my_struct<a:bigint,b:bigint,c:string>' }],
    ['datasetField:gs://bucket:/path/to/data:col_A', { type: 'DATASET_FIELD', namespace: 'gs://bucket', name: '/path/to/data', field: 'col_A' }],
    ['datasetField:my-namespace:my-dataset:colA', { type: 'DATASET_FIELD', namespace: 'my-namespace', name: 'my-dataset', field: 'colA' }],
    ['dataset:kafka://broker:9092:orders#AAAAAAAA-bbbb-cccc-dddd-eeeeeeeeeeee', { type: 'DATASET', namespace: 'kafka://broker:9092', name: 'orders', version: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee' }],
    ['dataset:ns:name#not-a-version', { type: 'DATASET', namespace: 'ns', name: 'name#not-a-version' }],
  ])('Should read %s', (value, expected) => {
    expect(parseNodeId(value, 'nodeId', ['JOB', 'DATASET', 'DATASET_FIELD'])).toEqual(expected);
  });

  it.each([
    ['', "nodeId: must start with 'job:' or 'dataset:'"],
    ['run:0176a8c2-fe01-7439-87e6-56a1a1b4029f', "nodeId: must start with 'job:' or 'dataset:'"],
    ['job:only-namespace', 'nodeId: must be job:<namespace>:<name>'],
    ['dataset::name', 'nodeId: must be dataset:<namespace>:<name>'],
    ['datasetField:ns:ds', "nodeId: must start with 'job:' or 'dataset:'"],
  ])('Should refuse %j', (value, message) => {
    expect(() => parseNodeId(value, 'nodeId', ['JOB', 'DATASET'])).toThrow(new ValidationError(message));
  });
});

describe('parseLineageQuery', () => {
  it('Should default depth to 20 and direction to both, and read asOf and runId', () => {
    expect(parseLineageQuery({ nodeId: 'job:etl:load' })).toEqual({ nodeId: { type: 'JOB', namespace: 'etl', name: 'load' }, depth: 20, direction: 'both' });
    expect(parseLineageQuery({ nodeId: 'dataset:s3://b:x', depth: '5', direction: 'UPSTREAM', asOf: '2024-01-31T12:00:00+01:00' })).toEqual({
      nodeId: { type: 'DATASET', namespace: 's3://b', name: 'x' },
      otherReadings: [{ type: 'DATASET', namespace: 's3', name: '//b:x' }],
      depth: 5,
      direction: 'upstream',
      asOf: '2024-01-31T11:00:00.000000+00:00',
    });
    expect(parseLineageQuery({ runId: 'URN:UUID:0176A8C2-FE01-7439-87E6-56A1A1B4029F' })).toEqual({ depth: 20, direction: 'both', runId: '0176a8c2-fe01-7439-87e6-56a1a1b4029f' });
  });

  it.each([
    [{}, 'nodeId: is required (job:<namespace>:<name> or dataset:<namespace>:<name>)'],
    [{ nodeId: 'job:a:b', depth: '101' }, 'depth: must be an integer between 0 and 100'],
    [{ nodeId: 'job:a:b', depth: '-1' }, 'depth: must be an integer between 0 and 100'],
    [{ nodeId: 'job:a:b', depth: 'deep' }, 'depth: must be an integer between 0 and 100'],
    [{ nodeId: 'job:a:b', direction: 'sideways' }, 'direction: must be one of both, upstream, downstream'],
    [{ nodeId: 'job:a:b', asOf: 'yesterday' }, 'asOf: must be an ISO-8601 date-time (2024-01-31T12:00:00Z)'],
    [{ nodeId: 'job:a:b', runId: '42' }, 'runId: must be a UUID'],
    [{ runId: '0176a8c2-fe01-7439-87e6-56a1a1b4029f', asOf: '2024-01-01T00:00:00Z' }, 'asOf: cannot be combined with runId'],
    [{ nodeId: 'dataset:a:b#0176a8c2-fe01-7439-87e6-56a1a1b4029f' }, 'nodeId: versioned node ids are not supported here; use runId for the versions of one run'],
    [{ nodeId: 'job:a:b', node: 'x' }, 'node: is not a parameter of this endpoint (expected nodeId, depth, direction, asOf, runId)'],
  ])('Should refuse %j naming the parameter', (params, message) => {
    expect(() => parseLineageQuery(params)).toThrow(new ValidationError(message));
  });
});

describe('parseColumnLineageQuery, parsePage, parseSearchQuery, parseRunId', () => {
  it('Should read column-lineage parameters', () => {
    expect(parseColumnLineageQuery({ nodeId: 'datasetField:ns:t:c', depth: '3', withDownstream: 'TRUE' })).toEqual({
      nodeId: { type: 'DATASET_FIELD', namespace: 'ns', name: 't', field: 'c' },
      depth: 3,
      withDownstream: true,
    });
    expect(parseColumnLineageQuery({ nodeId: 'dataset:ns:t' })).toMatchObject({ depth: 20, withDownstream: false });
    // Marquez's client asks a job's column lineage (its current outputs').
    expect(parseColumnLineageQuery({ nodeId: 'job:ns:t', withDownstream: 'False' })).toEqual({ nodeId: { type: 'JOB', namespace: 'ns', name: 't' }, depth: 20, withDownstream: false });
    expect(() => parseColumnLineageQuery({ nodeId: 'run:ns:t' })).toThrow("nodeId: must start with 'job:' or 'dataset:' or 'datasetField:'");
    expect(() => parseColumnLineageQuery({ nodeId: 'dataset:ns:t', withDownstream: 'yes' })).toThrow('withDownstream: must be true or false');
    expect(() => parseColumnLineageQuery({})).toThrow('nodeId: is required');
  });

  it('Should read pages and searches', () => {
    expect(parsePage({})).toEqual({ limit: 100, offset: 0 });
    expect(parsePage({ limit: '5', offset: '10' })).toEqual({ limit: 5, offset: 10 });
    expect(() => parsePage({ limit: '0' })).toThrow('limit: must be an integer between 1 and 1000');
    expect(() => parsePage({ offset: '-3' })).toThrow('offset: must be an integer between 0 and 100000');
    expect(parseSearchQuery({ q: 'orders', filter: 'dataset', sort: 'updated_at', namespace: 'pg', limit: '3' })).toEqual({ q: 'orders', filter: 'DATASET', sort: 'UPDATED_AT', namespace: 'pg', limit: 3, offset: 0 });
    expect(parseSearchQuery({ q: 'x' })).toEqual({ q: 'x', sort: 'NAME', limit: 10, offset: 0 });
    expect(() => parseSearchQuery({ q: ' ' })).toThrow('q: is required');
    expect(() => parseSearchQuery({ q: 'x', filter: 'RUN' })).toThrow('filter: must be one of DATASET, JOB');
    expect(() => parseSearchQuery({ q: 'x', sort: 'SIZE' })).toThrow('sort: must be one of NAME, UPDATED_AT');
    expect(parseRunId(' 0176A8C2-FE01-7439-87E6-56A1A1B4029F ')).toBe('0176a8c2-fe01-7439-87e6-56a1a1b4029f');
    expect(() => parseRunId('nope', 'runId')).toThrow('runId: must be a UUID');
  });
});
