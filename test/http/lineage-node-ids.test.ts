// Issue 24: every node id lakeline returns is accepted back. Events over a corpus of real namespace
// shapes (URIs with ports, `file:` paths, bare names, ARNs) and names holding `:`, `/` and spaces,
// plus a dataset named by a symlink in `file:/tmp/warehouse`; then every node id the graph, column
// lineage and search return is sent back to all three, each expected to answer for the same node.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { runEventJson } from '../unit/domain/lineage-graph/events.ts';
import { freshOrg } from './lineage-api.ts';
import { eventually, graphApi } from './lineage-graph-api.ts';

const CORPUS = ['s3://b', 'gs://b', 'hdfs://host:8020', 'file:/tmp/x', 'postgres://db:5432', 'bigquery', 'kafka://broker:9092', 'arn:aws:kinesis:us-east-1:123456789012'];
const FACET = { _producer: 'https://example.com', _schemaURL: 'https://example.com/facet.json' };

/** What a returned id names, taken from the answer's data (never by parsing the id). */
interface Named {
  readonly type: 'JOB' | 'DATASET' | 'DATASET_FIELD';
  readonly namespace: string;
  readonly name: string;
  readonly field?: string;
}

describe('node ids sent back', async () => {
  const { token, api } = await freshOrg('Node ids');
  const graph = graphApi(api.baseUrl, token);
  const jobs = CORPUS.map((namespace, i) => ({ namespace, name: `load ${i}:step/one` }));
  const sources = CORPUS.map((namespace, i) => ({ namespace, name: `src/in ${i}` }));
  const targets = CORPUS.map((namespace, i) => ({ namespace, name: `out:${i}/t x` }));
  const fields = (names: string[]) => ({ schema: { ...FACET, fields: names.map((name) => ({ name, type: 'string' })) } });
  const events = CORPUS.map((_, i) =>
    runEventJson({
      eventType: 'COMPLETE',
      time: `2030-05-01T00:0${i}:00Z`,
      runId: randomUUID(),
      job: jobs[i] as { namespace: string; name: string },
      inputs: [{ ...(sources[i] as { namespace: string; name: string }), facets: fields(['id']) }],
      outputs: [
        {
          ...(targets[i] as { namespace: string; name: string }),
          facets: { ...fields(['id']), columnLineage: { ...FACET, fields: { id: { inputFields: [{ ...(sources[i] as object), field: 'id' }] } } } },
        },
      ],
    }),
  );
  // The dataset: a warehouse path whose table name (symlink) lives in `file:/tmp/warehouse`.
  const symlinks = { ...FACET, identifiers: [{ namespace: 'file:/tmp/warehouse', name: 'default.orders', type: 'TABLE' }] };
  events.push(
    runEventJson({
      eventType: 'COMPLETE',
      time: '2030-05-01T01:00:00Z',
      runId: randomUUID(),
      job: { namespace: 'spark', name: 'write orders' },
      inputs: [{ namespace: 's3://b', name: 'src/in 0' }],
      outputs: [{ namespace: 's3://warehouse', name: '/warehouse/default/orders', facets: { symlinks, ...fields(['id']), columnLineage: { ...FACET, fields: { id: { inputFields: [{ namespace: 's3://b', name: 'src/in 0', field: 'id' }] } } } } }],
    }),
  );
  for (const event of events) expect((await api.post(JSON.stringify(event))).status).toBe(200);
  const all = [...jobs, { namespace: 'spark', name: 'write orders' }];
  for (const job of all) {
    const { answer } = await eventually(() => graph.lineage({ nodeId: `job:${job.namespace}:${job.name}` }), (a) => a.status === 200, Date.now(), 10_000);
    expect(answer.status, `job:${job.namespace}:${job.name}`).toBe(200);
  }

  /** Every node id the three endpoints return, with what each names. */
  const collect = async (): Promise<Map<string, Named>> => {
    const ids = new Map<string, Named>();
    const add = (id: string, named: Named) => {
      expect(ids.get(id) ?? named, id).toEqual(named);
      ids.set(id, named);
    };
    for (const job of all) {
      const answer = await graph.lineage({ nodeId: `job:${job.namespace}:${job.name}`, depth: '1' });
      for (const node of answer.body.graph) add(node.id, { type: node.type as Named['type'], namespace: node.data.namespace as string, name: node.data.name as string });
    }
    for (const [id, named] of [...ids]) {
      if (named.type !== 'DATASET') continue;
      const answer = await graph.columnLineage({ nodeId: id, withDownstream: 'true' });
      expect(answer.status, id).toBe(200);
      for (const node of answer.body.graph) {
        const data = node.data as unknown as { namespace: string; dataset: string; field: string };
        add(node.id, { type: 'DATASET_FIELD', namespace: data.namespace, name: data.dataset, field: data.field });
      }
    }
    for (const named of [...ids.values()]) {
      if (named.type === 'DATASET_FIELD') continue;
      const answer = await graph.search({ q: named.name, namespace: named.namespace, filter: named.type });
      for (const result of answer.body.results) add(result.nodeId, { type: result.type as Named['type'], namespace: result.namespace, name: result.name });
    }
    return ids;
  };
  const ids = await collect();

  it('Should return ids for every corpus namespace, the symlink table by its name in file:/tmp/warehouse', () => {
    // Per namespace a job, two datasets and a field of each; the symlinked table, its field, its job.
    expect(ids.size).toBe(CORPUS.length * 5 + 3);
    for (const namespace of CORPUS) expect([...ids.values()].filter((n) => n.namespace === namespace).map((n) => n.type).sort(), namespace).toEqual(expect.arrayContaining(['DATASET', 'DATASET_FIELD', 'JOB']));
    expect(ids.get('dataset:file:/tmp/warehouse:default.orders')).toEqual({ type: 'DATASET', namespace: 'file:/tmp/warehouse', name: 'default.orders' });
    expect(ids.get('datasetField:file:/tmp/warehouse:default.orders:id')).toEqual({ type: 'DATASET_FIELD', namespace: 'file:/tmp/warehouse', name: 'default.orders', field: 'id' });
  });

  it('Should answer the graph for every job and dataset id, with that node in it', async () => {
    for (const [id, named] of ids) {
      if (named.type === 'DATASET_FIELD') continue;
      const answer = await graph.lineage({ nodeId: id, depth: '0' });
      expect([answer.status, answer.body.graph.find((n) => n.id === id)?.data.name], id).toEqual([200, named.name]);
    }
  });

  it("Should answer column lineage for every id, with the field's node or the dataset's fields", async () => {
    for (const [id, named] of ids) {
      const answer = await graph.columnLineage({ nodeId: id, depth: '0' });
      expect(answer.status, id).toBe(200);
      const nodes = answer.body.graph.map((n) => n.data as unknown as { namespace: string; dataset: string; field: string });
      if (named.type === 'DATASET_FIELD') expect(nodes, id).toContainEqual(expect.objectContaining({ namespace: named.namespace, dataset: named.name, field: named.field }));
      if (named.type === 'DATASET') expect(nodes.some((n) => n.namespace === named.namespace && n.dataset === named.name), id).toBe(true);
      if (named.type === 'JOB') expect(nodes.length, id).toBeGreaterThan(0);
    }
  });

  it('Should find every job and dataset id by search, under the same id', async () => {
    for (const [id, named] of ids) {
      if (named.type === 'DATASET_FIELD') continue;
      const answer = await graph.search({ q: named.name, namespace: named.namespace, filter: named.type });
      expect(answer.body.results.map((r) => r.nodeId), id).toContain(id);
    }
  });
});
