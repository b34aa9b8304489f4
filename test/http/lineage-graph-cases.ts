/**
 * @module lineage-graph-cases
 * The lineage graph's cases, run by every suite that serves the graph's routes — the local gateway
 * (lineage-graph.test.ts) and the AWS profile's handlers on the emulated DynamoDB fed by its stream
 * (test/aws/lineage-graph-aws.test.ts) — with the same assertions: Marquez's apples graph (written
 * out below) from events sent in a shuffled order, fresh within 2 s of their answer; `asOf` before
 * event 7 shows the earlier orchard; `depth`, `direction` and `runId`; the merge rules with events
 * in shuffled orders; symlinks; parent and child runs; column lineage in both layouts (the spec's
 * food_delivery example); the object endpoints and their paging; search; names with `/`, `:` and
 * `://`; another org sees and reaches nothing; a replayed event changes nothing; and where the
 * harness can rebuild, the rebuilt model gives the same answers as the incremental one.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLES_DIR } from '../unit/domain/lineage/examples.ts';
import { APPLES, runEventJson, seeded, shuffled, type RunEventSpec } from '../unit/domain/lineage-graph/events.ts';
import { APPLES_AS_OF_OCTOBER_1, APPLES_CURRENT, FOOD_DELIVERY, FOOD_DELIVERY_LEGACY, FOOD_DELIVERY_SOURCE } from '../unit/domain/lineage-graph/fixtures.ts';
import { columnEdges, eventually, shape, type GraphApi, type LineageBody } from './lineage-graph-api.ts';

const K = 'grandmas.kitchen';
const apple = (name: string): Record<string, unknown> => JSON.parse(readFileSync(path.join(EXAMPLES_DIR, name), 'utf8')) as Record<string, unknown>;

/** An org of its own, as a harness gives it. */
export interface GraphOrg {
  readonly orgId: string;
  /** Sends events one by one (each answered 200) and resolves with the time of the last answer. */
  send(events: readonly unknown[]): Promise<number>;
  readonly graph: GraphApi;
}

/** What serves the graph under test. */
export interface LineageGraphHarness {
  /** How the suite reaches the routes (`HTTP`, `the AWS profile`), for the suite's names. */
  readonly name: string;
  newOrg(): Promise<GraphOrg>;
  /** Rebuilds an org's model from its stored events (`lakeline lineage rebuild --org`); absent where the harness cannot. */
  readonly rebuild?: (orgId: string) => Promise<unknown>;
}

/** Every answer a user could read for the org's model (for rebuild and replay comparisons). */
const everything = async (graph: GraphApi): Promise<Record<string, unknown>> => {
  const out: Record<string, unknown> = {};
  const namespaces = (await graph.get<{ namespaces: { name: string }[] }>('ListNamespaces', {}, { limit: '1000' })).body;
  out.namespaces = namespaces;
  for (const { name: namespace } of namespaces.namespaces) {
    const jobs = (await graph.get<{ jobs: { name: string }[] }>('ListLineageJobs', { namespace }, { limit: '1000' })).body;
    out[`jobs ${namespace}`] = jobs;
    for (const job of jobs.jobs) {
      out[`job ${job.name}`] = (await graph.get('GetLineageJob', { namespace, job: job.name })).body;
      out[`runs ${job.name}`] = (await graph.get('ListLineageJobRuns', { namespace, job: job.name })).body;
      out[`graph ${job.name}`] = (await graph.lineage({ nodeId: `job:${namespace}:${job.name}` })).body;
    }
    const datasets = (await graph.get<{ datasets: { name: string }[] }>('ListLineageDatasets', { namespace }, { limit: '1000' })).body;
    out[`datasets ${namespace}`] = datasets;
    for (const dataset of datasets.datasets) {
      out[`dataset ${dataset.name}`] = (await graph.get('GetLineageDataset', { namespace, dataset: dataset.name })).body;
      out[`versions ${dataset.name}`] = (await graph.get('ListLineageDatasetVersions', { namespace, dataset: dataset.name })).body;
      out[`columns ${dataset.name}`] = (await graph.columnLineage({ nodeId: `dataset:${namespace}:${dataset.name}`, withDownstream: 'true' })).body;
    }
  }
  out.search = (await graph.search({ q: 'a', limit: '1000' })).body;
  return out;
};

/** Declares the graph's cases against a harness. */
export const lineageGraphCases = (harness: LineageGraphHarness): void => {
  describe(`the apples (Marquez's test events) through ${harness.name}`, () => {
    let org: GraphOrg;
    let first: LineageBody;
    let freshnessMs: number;


    beforeAll(async () => {
      org = await harness.newOrg();
      await org.send(shuffled(APPLES.map(apple), seeded(7)));
      // Then one more event: the model applies an org's events in the order they were stored, so once
      // this one is in the graph, so are the apples. Its freshness is measured from its answer.
      const answeredAt = await org.send([runEventJson({ eventType: 'COMPLETE', time: '2020-11-01T00:00:00Z', runId: randomUUID(), job: { namespace: 'sentinel', name: 'last_event' } })]);
      const seen = await eventually(() => org.graph.get('GetLineageJob', { namespace: 'sentinel', job: 'last_event' }), (a) => a.status === 200, answeredAt);
      freshnessMs = seen.afterMs;
      const graph = await org.graph.lineage({ nodeId: `job:${K}:prepare_apple_filling` });
      first = graph.body;
    });

    it("Should give Marquez's graph within 2 s of the last event's answer, from any of its jobs", async () => {
      expect(shape(first)).toEqual(APPLES_CURRENT);
      expect(freshnessMs).toBeLessThanOrEqual(2_000);
      const fromVinegar = await org.graph.lineage({ nodeId: `job:${K}:prepare_vinegar`, depth: '20', direction: 'both' });
      expect(fromVinegar.body).toEqual(first);
      const gather = first.graph.find((n) => n.id === `job:${K}:gather_apples`)?.data as { latestRun: { id: string; state: string }; inputs: unknown[] };
      expect([gather.latestRun.id, gather.latestRun.state, gather.inputs]).toEqual(['155dbf08-c4c5-43e6-bb3a-8095c4ba59b8', 'COMPLETED', [{ namespace: 'backyard', name: 'crab.apples' }]]);
    });

    it('Should show the earlier orchard as of a moment before event 7', async () => {
      const graph = await org.graph.lineage({ nodeId: `job:${K}:prepare_apple_filling`, asOf: '2020-10-01T00:00:00Z' });
      expect(graph.status).toBe(200);
      expect(shape(graph.body)).toEqual(APPLES_AS_OF_OCTOBER_1);
    });

    it('Should count depth in job hops and follow one direction when asked', async () => {
      const jobsAt = async (depth: number) =>
        (await org.graph.lineage({ nodeId: `job:${K}:prepare_apple_pie`, depth: String(depth) })).body.graph.filter((n) => n.type === 'JOB').map((n) => n.id.split(':')[2]);
      expect(await jobsAt(0)).toEqual(['prepare_apple_pie']);
      expect(await jobsAt(1)).toEqual(['prepare_apple_filling', 'prepare_apple_pie']);
      expect(await jobsAt(2)).toEqual(['gather_apples', 'prepare_apple_cider', 'prepare_apple_filling', 'prepare_apple_pie']);
      const upstream = await org.graph.lineage({ nodeId: `job:${K}:prepare_apple_pie`, direction: 'upstream' });
      expect(upstream.body.graph.map((n) => n.id)).not.toContain(`job:${K}:prepare_apple_cider`);
      expect(upstream.body.graph.map((n) => n.id)).toContain(`job:${K}:gather_apples`);
      const downstream = await org.graph.lineage({ nodeId: `dataset:${K}:apple.cider`, direction: 'downstream' });
      expect(shape(downstream.body)).toEqual([
        'dataset:cupboard:apple.vinegar: job:grandmas.kitchen:prepare_vinegar | ',
        'dataset:grandmas.kitchen:apple.cider:  | job:grandmas.kitchen:prepare_vinegar',
        'job:grandmas.kitchen:prepare_vinegar: dataset:grandmas.kitchen:apple.cider | dataset:cupboard:apple.vinegar',
      ]);
    });

    it("Should show one run's graph with the versions it read and wrote", async () => {
      const run = await org.graph.lineage({ runId: '155dbf08-c4c5-43e6-bb3a-8095c4ba59b8' });
      expect(run.status).toBe(200);
      expect(run.body.graph.map((n) => n.id)).toEqual([`dataset:backyard:crab.apples`, `dataset:${K}:apples`, `job:${K}:gather_apples`]);
      const written = run.body.graph.find((n) => n.id === `dataset:${K}:apples`)?.data as { version?: string };
      expect(written.version).toMatch(/^[0-9a-f-]{36}$/);
      const lineageRun = await org.graph.get<{ id: string; state: string; job: unknown }>('GetLineageRun', { runId: '155DBF08-C4C5-43E6-BB3A-8095C4BA59B8' });
      expect([lineageRun.status, lineageRun.body.id, lineageRun.body.state, lineageRun.body.job]).toEqual([200, '155dbf08-c4c5-43e6-bb3a-8095c4ba59b8', 'COMPLETED', { namespace: K, name: 'gather_apples' }]);
    });

    it('Should answer 404 {error} for a node nobody sent and 400 naming the parameter for a bad one', async () => {
      const unknown = await org.graph.lineage({ nodeId: `job:${K}:make_jam` });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error).toMatch(/^nodeId: /);
      expect((await org.graph.get('GetLineageJob', { namespace: K, job: 'make_jam' })).status).toBe(404);
      expect((await org.graph.get('GetLineageRun', { runId: randomUUID() })).status).toBe(404);
      for (const [query, parameter] of [
        [{ nodeId: `job:${K}:gather_apples`, depth: 'deep' }, 'depth'],
        [{ nodeId: `job:${K}:gather_apples`, direction: 'sideways' }, 'direction'],
        [{ nodeId: `job:${K}:gather_apples`, asOf: 'yesterday' }, 'asOf'],
        [{ nodeId: 'table:x:y' }, 'nodeId'],
        [{}, 'nodeId'],
        [{ nodeId: `job:${K}:gather_apples`, colour: 'red' }, 'colour'],
      ] as const) {
        const answer = await org.graph.lineage(query);
        expect([answer.status, answer.body.error?.split(':')[0]]).toEqual([400, parameter]);
      }
      expect((await org.graph.get<{ error: string }>('GetLineageRun', { runId: 'not-a-uuid' })).body.error).toMatch(/^runId: /);
      expect((await org.graph.get<{ error: string }>('ListNamespaces', {}, { limit: '0' })).body.error).toMatch(/^limit: /);
      expect((await org.graph.search({})).body).toEqual({ error: 'q: is required' });
    });

    it('Should change nothing when every event is sent again', async () => {
      const before = await everything(org.graph);
      await org.send(APPLES.map(apple));
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await everything(org.graph)).toEqual(before);
    });

    it('Should show another organization nothing, not even the first one\'s nodes by name', async () => {
      const other = await harness.newOrg();
      expect((await other.graph.get('ListNamespaces')).body).toEqual({ namespaces: [], totalCount: 0 });
      expect((await other.graph.lineage({ nodeId: `job:${K}:gather_apples` })).status).toBe(404);
      expect((await other.graph.get('GetLineageDataset', { namespace: K, dataset: 'apples' })).status).toBe(404);
      expect((await other.graph.get('GetLineageRun', { runId: '155dbf08-c4c5-43e6-bb3a-8095c4ba59b8' })).status).toBe(404);
      expect((await other.graph.search({ q: 'apple' })).body).toEqual({ totalCount: 0, results: [] });
      expect((await other.graph.columnLineage({ nodeId: `dataset:${K}:apples` })).status).toBe(404);
    });

    it.skipIf(!harness.rebuild)('Should give the same answers after `lakeline lineage rebuild --org`', async () => {
      const before = await everything(org.graph);
      const rebuilt = await harness.rebuild?.(org.orgId);
      expect(rebuilt).toMatchObject([{ orgId: org.orgId, events: 9 }]); // the apples and the last event
      // Readers trust the generation pointer for a second.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect(await everything(org.graph)).toEqual(before);
    });
  });

  describe('the merge rules, with events in shuffled orders', () => {
    const runWith = (runId: string, overrides: Partial<RunEventSpec>): Record<string, unknown> => runEventJson({ time: '2030-01-01T00:00:00Z', runId, job: 'merge_job', ...overrides });

    it('Should merge a run from its events however they arrive: inputs unioned, earliest start, the last terminal state, facets by name with deletions', async () => {
      const runId = randomUUID();
      const facet = (value: string) => ({ _producer: 'https://example.com', _schemaURL: 'https://example.com/f.json', value });
      const events = [
        runWith(runId, { eventType: 'START', time: '2030-01-01T00:00:00Z', inputs: ['warehouse:a', 'warehouse:b'], runFacets: { tag: facet('first'), gone: facet('x') } }),
        runWith(runId, { eventType: 'RUNNING', time: '2030-01-01T00:01:00Z', inputs: ['warehouse:c'] }),
        runWith(runId, { eventType: 'COMPLETE', time: '2030-01-01T00:02:00Z', inputs: ['warehouse:a'], outputs: ['warehouse:out'], runFacets: { tag: facet('last'), gone: { _producer: 'https://example.com', _schemaURL: 'https://example.com/f.json', _deleted: true } } }),
      ];
      const answers: unknown[] = [];
      for (const seed of [1, 2, 3]) {
        const org = await harness.newOrg();
        const at = await org.send(shuffled(events, seeded(seed)));
        // The job head is written last of a batch: once it names the output, the run is complete too.
        const { answer: head } = await eventually(
          () => org.graph.get<{ inputs: { name: string }[]; outputs: { name: string }[] }>('GetLineageJob', { namespace: 'etl', job: 'merge_job' }),
          (a) => a.status === 200 && a.body.outputs.length > 0 && a.body.inputs.length === 3,
          at,
        );
        const job = head.body;
        answers.push((await org.graph.get('GetLineageRun', { runId })).body);
        expect(job.inputs.map((i) => i.name)).toEqual(['a', 'b', 'c']);
        expect(job.outputs.map((o) => o.name)).toEqual(['out']);
      }
      expect(answers[1]).toEqual(answers[0]);
      expect(answers[2]).toEqual(answers[0]);
      expect(answers[0]).toMatchObject({ state: 'COMPLETED', startedAt: '2030-01-01T00:00:00.000000+00:00', endedAt: '2030-01-01T00:02:00.000000+00:00', facets: { tag: { value: 'last' } } });
      expect((answers[0] as { facets: Record<string, unknown> }).facets.gone).toBeUndefined();
    });

    it('Should count a streaming job from its first RUNNING event, and make a job version of its latest run', async () => {
      const org = await harness.newOrg();
      const [older, newer] = [randomUUID(), randomUUID()];
      const at = await org.send([
        runWith(newer, { eventType: 'RUNNING', time: '2030-02-01T00:00:00Z', job: 'stream_job', inputs: ['kafka://broker:topic'], outputs: ['warehouse:sink_v2'] }),
        runWith(older, { eventType: 'COMPLETE', time: '2030-01-01T00:00:00Z', job: 'stream_job', inputs: ['kafka://broker:topic'], outputs: ['warehouse:sink_v1'] }),
      ]);
      const { answer } = await eventually(
        () => org.graph.get<{ latestRun: { id: string; state: string } | null; outputs: { name: string }[] }>('GetLineageJob', { namespace: 'etl', job: 'stream_job' }),
        (a) => a.status === 200 && a.body.latestRun?.id === newer,
        at,
      );
      expect([answer.body.latestRun?.state, answer.body.outputs.map((o) => o.name)]).toEqual(['RUNNING', ['sink_v2']]);
      // The events were sent one by one, so the newer run can be in the model before the older one.
      const { answer: runs } = await eventually(
        () => org.graph.get<{ runs: { id: string }[]; totalCount: number }>('ListLineageJobRuns', { namespace: 'etl', job: 'stream_job' }),
        (a) => a.status === 200 && a.body.totalCount === 2,
        at,
      );
      expect(runs.body.runs.map((r) => r.id)).toEqual([newer, older]);
      // The earlier version stays: as of January the job wrote sink_v1.
      const january = await org.graph.lineage({ nodeId: 'job:etl:stream_job', asOf: '2030-01-15T00:00:00Z' });
      expect(january.body.graph.map((n) => n.id)).toContain('dataset:warehouse:sink_v1');
      // A namespace with `://` and a name with `:` work in node ids and paths.
      const topic = await org.graph.get<{ name: string; namespace: string }>('GetLineageDataset', { namespace: 'kafka://broker', dataset: 'topic' });
      expect([topic.status, topic.body.namespace, topic.body.name]).toEqual([200, 'kafka://broker', 'topic']);
      expect((await org.graph.lineage({ nodeId: 'dataset:kafka://broker:topic', depth: '1' })).status).toBe(200);
    });
  });

  describe('one dataset under several names, parents and children, names with / and :', () => {
    it('Should merge a file path and its catalog table (symlinks), and link a parent run with its children', async () => {
      const org = await harness.newOrg();
      const [parent, child1, child2] = [randomUUID(), randomUUID(), randomUUID()];
      const symlinks = { _producer: 'https://example.com', _schemaURL: 'https://openlineage.io/spec/facets/1-0-1/SymlinksDatasetFacet.json', identifiers: [{ namespace: 'hive://metastore', name: 'sales.orders', type: 'TABLE' }] };
      const parentFacet = { _producer: 'https://example.com', _schemaURL: 'https://openlineage.io/spec/facets/1-0-1/ParentRunFacet.json', run: { runId: parent }, job: { namespace: 'airflow', name: 'daily_dag' } };
      const at = await org.send([
        runEventJson({ eventType: 'COMPLETE', time: '2030-03-01T00:00:00Z', runId: child1, job: { namespace: 'airflow', name: 'daily_dag.load' }, runFacets: { parent: parentFacet }, outputs: [{ namespace: 's3://lake', name: '/warehouse/sales/orders', facets: { symlinks } }] }),
        runEventJson({ eventType: 'COMPLETE', time: '2030-03-01T00:05:00Z', runId: child2, job: { namespace: 'airflow', name: 'daily_dag.report' }, runFacets: { parent: parentFacet }, inputs: ['hive://metastore:sales.orders'], outputs: ['s3://lake:/reports/daily'] }),
        runEventJson({ eventType: 'COMPLETE', time: '2030-03-01T00:10:00Z', runId: parent, job: { namespace: 'airflow', name: 'daily_dag' } }),
      ]);
      const { answer } = await eventually(
        () => org.graph.get<{ children: { runId: string }[] }>('GetLineageRun', { runId: parent }),
        (a) => a.status === 200 && a.body.children.length === 2,
        at,
      );
      expect(answer.body.children.map((c) => c.runId).sort()).toEqual([child1, child2].sort());
      const child = await org.graph.get<{ parent: { runId: string; job: unknown } }>('GetLineageRun', { runId: child2 });
      expect(child.body.parent).toEqual({ runId: parent, job: { namespace: 'airflow', name: 'daily_dag' } });
      // The file path and the table are one node, under the table's name: the loader feeds the report.
      const graph = await eventually(
        () => org.graph.lineage({ nodeId: 'job:airflow:daily_dag.report', direction: 'upstream' }),
        (a) => a.status === 200 && a.body.graph.some((n) => n.id === 'job:airflow:daily_dag.load'),
        at,
      );
      expect(graph.answer.body.graph.map((n) => n.id)).toEqual(['dataset:hive://metastore:sales.orders', 'job:airflow:daily_dag.load', 'job:airflow:daily_dag.report']);
      // Either name finds it.
      for (const [namespace, dataset] of [['s3://lake', '/warehouse/sales/orders'], ['hive://metastore', 'sales.orders']] as const) {
        const found = await org.graph.get<{ namespace: string; name: string }>('GetLineageDataset', { namespace, dataset });
        expect([found.status, found.body.namespace, found.body.name]).toEqual([200, 'hive://metastore', 'sales.orders']);
      }
      const search = await org.graph.search({ q: 'warehouse/SALES' });
      expect(search.body.results.map((r) => r.nodeId)).toEqual(['dataset:hive://metastore:sales.orders']);
      // A name with `/` in a path, URL-encoded.
      expect((await org.graph.get('ListLineageDatasetVersions', { namespace: 's3://lake', dataset: '/reports/daily' })).status).toBe(200);
    });

    it('Should find a symlinked dataset by either name everywhere: graph, objects, versions, column lineage and search', async () => {
      // ADR 0047: the dataset is named by its TABLE symlink; the name in the event finds it too.
      const org = await harness.newOrg();
      const table = { namespace: 'file:/tmp/warehouse', name: 'default.orders' };
      const path = { namespace: 's3://warehouse', name: '/warehouse/default/orders' };
      const symlinks = { _producer: 'https://example.com', _schemaURL: 'https://openlineage.io/spec/facets/1-0-1/SymlinksDatasetFacet.json', identifiers: [{ ...table, type: 'TABLE' }] };
      const schema = { _producer: 'https://example.com', _schemaURL: 'https://openlineage.io/spec/facets/1-0-1/SchemaDatasetFacet.json', fields: [{ name: 'amount', type: 'DECIMAL' }] };
      const columnLineage = {
        _producer: 'https://example.com',
        _schemaURL: 'https://openlineage.io/spec/facets/1-2-0/ColumnLineageDatasetFacet.json',
        fields: { amount: { inputFields: [{ namespace: 'pg', name: 'raw.orders', field: 'total', transformations: [{ type: 'DIRECT', subtype: 'IDENTITY' }] }] } },
      };
      const writer = randomUUID();
      const at = await org.send([
        runEventJson({ eventType: 'COMPLETE', time: '2030-03-02T00:00:00Z', runId: writer, job: { namespace: 'spark', name: 'load_orders' }, inputs: ['pg:raw.orders'], outputs: [{ ...path, facets: { symlinks, schema, columnLineage } }] }),
      ]);
      const tableId = `dataset:${table.namespace}:${table.name}`;
      const expectedGraph = [tableId, 'dataset:pg:raw.orders', 'job:spark:load_orders'];
      const byTable = await eventually(() => org.graph.lineage({ nodeId: tableId }), (a) => a.status === 200 && a.body.graph.length === 3, at);
      expect(byTable.answer.body.graph.map((n) => n.id)).toEqual(expectedGraph);
      // The graph from the event's own name: the same graph, under the table's name.
      const byPath = await org.graph.lineage({ nodeId: `dataset:${path.namespace}:${path.name}` });
      expect([byPath.status, byPath.body.graph.map((n) => n.id)]).toEqual([200, expectedGraph]);
      for (const name of [table, path]) {
        const found = await org.graph.get<{ namespace: string; name: string; fields: { name: string }[] }>('GetLineageDataset', { namespace: name.namespace, dataset: name.name });
        expect([found.status, found.body.namespace, found.body.name, found.body.fields.map((f) => f.name)]).toEqual([200, table.namespace, table.name, ['amount']]);
        const versions = await org.graph.get<{ versions: { createdByRun: { id: string } | null }[] }>('ListLineageDatasetVersions', { namespace: name.namespace, dataset: name.name });
        expect([versions.status, versions.body.versions.map((v) => v.createdByRun?.id)]).toEqual([200, [writer]]);
        // Column lineage from a field under either name: the field under the table's name.
        const columns = await org.graph.columnLineage({ nodeId: `datasetField:${name.namespace}:${name.name}:amount` });
        expect([columns.status, columnEdges(columns.body)]).toEqual([200, ['amount <- raw.orders.total [DIRECT/IDENTITY]']]);
        expect(columns.body.graph.map((n) => n.id)).toContain(`datasetField:${table.namespace}:${table.name}:amount`);
      }
      // Search finds it by a part of either name, answered under the table's name, once.
      for (const q of ['default.ORDERS', 'warehouse/default']) {
        const search = await org.graph.search({ q });
        expect(search.body.results.map((r) => r.nodeId)).toEqual([tableId]);
      }
      // The namespace of the event's name does not list it (it would show twice); the table's does.
      const listed = async (namespace: string) => (await org.graph.get<{ datasets: { name: string }[] }>('ListLineageDatasets', { namespace })).body.datasets.map((d) => d.name);
      expect(await listed(table.namespace)).toEqual([table.name]);
      expect(await listed(path.namespace)).toEqual([]);
    });
  });

  describe('column lineage, objects, paging and search', () => {
    const topDeliveryTimes = (target: string, facet: unknown) =>
      runEventJson({ eventType: 'COMPLETE', time: '2030-04-01T00:00:00Z', runId: randomUUID(), job: { namespace: 'food_delivery', name: `top_${target}` }, inputs: [FOOD_DELIVERY_SOURCE], outputs: [{ namespace: 'food_delivery', name: target, facets: { columnLineage: facet } }] });

    it("Should give the spec's food_delivery column lineage in both layouts, transformations kept", async () => {
      const org = await harness.newOrg();
      const at = await org.send([topDeliveryTimes('public.top_delivery_times', FOOD_DELIVERY), topDeliveryTimes('public.top_delivery_times_legacy', FOOD_DELIVERY_LEGACY)]);
      const read = (dataset: string) => org.graph.columnLineage({ nodeId: `datasetField:food_delivery:${dataset}:order_delivery_time` });
      const { answer } = await eventually(() => read('public.top_delivery_times_legacy'), (a) => a.status === 200, at);
      const expected = [
        'order_delivery_time <- public.delivery_7_days.order_delivered_on [DIRECT/TRANSFORMATION INDIRECT/SORT]',
        'order_delivery_time <- public.delivery_7_days.order_placed_on [DIRECT/TRANSFORMATION INDIRECT/SORT]',
      ];
      expect(columnEdges(answer.body)).toEqual(expected);
      expect(columnEdges((await read('public.top_delivery_times')).body)).toEqual(expected);
      // Downstream from a source column reaches both targets.
      const down = await org.graph.columnLineage({ nodeId: 'datasetField:food_delivery:public.delivery_7_days:order_id', withDownstream: 'true', depth: '1' });
      expect(down.body.graph.map((n) => n.id)).toEqual([
        'datasetField:food_delivery:public.delivery_7_days:order_id',
        'datasetField:food_delivery:public.top_delivery_times:order_id',
        'datasetField:food_delivery:public.top_delivery_times_legacy:order_id',
      ]);
      expect((await org.graph.columnLineage({ nodeId: 'datasetField:food_delivery:public.nothing:x' })).status).toBe(404);
    });

    it('Should page every list in a stable order and search by substring, filter, namespace and sort', async () => {
      const org = await harness.newOrg();
      const names = Array.from({ length: 7 }, (_, i) => `job_${String(i).padStart(2, '0')}`);
      const at = await org.send(
        names.map((name, i) => runEventJson({ eventType: 'COMPLETE', time: `2030-05-0${i + 1}T00:00:00Z`, runId: randomUUID(), job: { namespace: 'paging', name }, outputs: [`paging:table_${i}`] })),
      );
      await eventually(() => org.graph.get<{ totalCount: number }>('ListLineageJobs', { namespace: 'paging' }), (a) => a.body.totalCount === 7, at);
      const pages: string[] = [];
      for (let offset = 0; offset < 7; offset += 3) {
        const page = await org.graph.get<{ jobs: { name: string }[]; totalCount: number }>('ListLineageJobs', { namespace: 'paging' }, { limit: '3', offset: String(offset) });
        expect(page.body.totalCount).toBe(7);
        pages.push(...page.body.jobs.map((j) => j.name));
      }
      expect(pages).toEqual(names);
      const datasets = await org.graph.get<{ datasets: { name: string }[]; totalCount: number }>('ListLineageDatasets', { namespace: 'paging' }, { limit: '2', offset: '5' });
      expect([datasets.body.totalCount, datasets.body.datasets.map((d) => d.name)]).toEqual([7, ['table_5', 'table_6']]);
      const namespaces = await org.graph.get<{ namespaces: { name: string }[] }>('ListNamespaces');
      expect(namespaces.body.namespaces.map((n) => n.name)).toEqual(['paging']);
      const versions = await org.graph.get<{ versions: unknown[]; totalCount: number }>('ListLineageDatasetVersions', { namespace: 'paging', dataset: 'table_3' });
      expect(versions.body.totalCount).toBe(1);
      expect((await org.graph.search({ q: 'JOB_0', filter: 'JOB', limit: '3' })).body.results.map((r) => r.name)).toEqual(['job_00', 'job_01', 'job_02']);
      expect((await org.graph.search({ q: 'job_0', filter: 'JOB', sort: 'UPDATED_AT', limit: '2' })).body.results.map((r) => r.name)).toEqual(['job_06', 'job_05']);
      expect((await org.graph.search({ q: 'table_6', filter: 'DATASET' })).body.results.map((r) => r.nodeId)).toEqual(['dataset:paging:table_6']);
      expect((await org.graph.search({ q: 'table', namespace: 'elsewhere' })).body.totalCount).toBe(0);
    });
  });
};
