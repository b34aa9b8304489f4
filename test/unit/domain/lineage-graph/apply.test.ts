// The consumer and the merge rules of the lineage model: every rule with events in shuffled
// orders, duplicates and replays, concurrent consumers, a crash in the middle of a batch, a
// rebuild, and tenancy. Against the in-memory store; the DynamoDB adapter has its own suite.
import { describe, expect, it } from 'vitest';
import { applyEventsToLineageModel, applyEventsToModel } from '#domain/lineage-graph/apply';
import { lineageGraph } from '#domain/lineage-graph/graph';
import { jobIdOf } from '#domain/lineage-graph/ids';
import { getDataset, getJob, getLineageRun, listJobRuns } from '#domain/lineage-graph/objects';
import type { LineageModel, StoredEventSource } from '#domain/lineage-graph/ports';
import { rebuildLineageModel } from '#domain/lineage-graph/rebuild';
import type { StoredLineageEvent } from '#domain/lineage/types';
import { MemoryLineageModel, MemoryLineageStore } from '../../../helpers/memory-lineage-store.ts';
import { answers } from './answers.ts';
import { APPLES, exampleEvents, newRunId, runEvent, seeded, shuffled, stored } from './events.ts';

const ORG = 'org-a';
/** The two fields every facet carries. */
const F = { _producer: 'https://p.example/producer', _schemaURL: 'https://p.example/facet.json' };
const t = (day: number, hour = 0) => `2024-01-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00Z`;

/** Applies each event as its own batch, in the given order. */
const applyOneByOne = async (store: MemoryLineageStore, events: readonly StoredLineageEvent[], org = ORG) => {
  for (const e of events) await applyEventsToLineageModel(store, org, [e]);
};

/** All permutations of a short list. */
const permutations = <T>(items: readonly T[]): T[][] =>
  items.length <= 1 ? [[...items]] : items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));

/** The answers of a model built from events applied one by one in an order. */
const answersAfter = async (events: readonly StoredLineageEvent[], asOf: string[] = []) => {
  const store = new MemoryLineageStore();
  await applyOneByOne(store, events);
  return answers(store, ORG, { asOf });
};

describe('merging a run (every order gives the same run)', () => {
  const runId = newRunId();
  const schema = (fields: string[]) => ({ schema: { ...F, fields: fields.map((name) => ({ name, type: 'INT' })) } });
  const events = [
    runEvent({ eventType: 'START', time: t(1, 10), runId, job: 'load', inputs: ['s3://raw:orders', 's3://raw:customers'], runFacets: { nominalTime: { ...F, nominalStartTime: t(1, 9) } } }),
    runEvent({ eventType: 'RUNNING', time: t(1, 11), runId, job: 'load', inputs: ['s3://raw:orders'], runFacets: { progress: { ...F, pct: 50 } } }),
    runEvent({
      eventType: 'COMPLETE',
      time: t(1, 12),
      runId,
      job: 'load',
      inputs: ['s3://raw:orders'],
      outputs: [{ namespace: 'warehouse', name: 'orders', facets: schema(['id', 'total']) }],
      runFacets: { progress: { ...F, _deleted: true } },
    }),
    runEvent({ eventType: 'START', time: t(1, 10, ), runId, job: 'load', inputs: ['s3://raw:orders', 's3://raw:customers'], runFacets: { nominalTime: { ...F, nominalStartTime: t(1, 9) } } }),
    runEvent({ eventType: 'START', time: t(1, 10).replace('10:00', '10:30'), runId, job: 'load', runFacets: { extra: { ...F, n: 1 } } }),
  ];

  it('Should give the same answers for all 120 orders of a run\'s events, one event per batch', async () => {
    // Prepare
    const reference = await answersAfter(events, [t(1, 11)]);

    // Act & Assess
    for (const order of permutations(events)) expect(await answersAfter(order, [t(1, 11)])).toEqual(reference);
  }, 120_000);

  it('Should merge accumulatively: union of inputs, earliest start, latest terminal state, facets by name with tombstones', async () => {
    // Prepare
    const store = new MemoryLineageStore();

    // Act
    await applyOneByOne(store, shuffled(events, seeded(7)));

    // Assess
    const run = await getLineageRun(store, ORG, runId);
    expect(run.inputDatasetVersions?.map((v) => v.datasetVersionId.name).sort()).toEqual(['customers', 'orders']);
    expect(run.outputDatasetVersions?.map((v) => v.datasetVersionId.name)).toEqual(['orders']);
    expect(run.startedAt).toBe('2024-01-01T10:00:00.000000+00:00');
    expect(run.endedAt).toBe('2024-01-01T12:00:00.000000+00:00');
    expect(run.durationMs).toBe(2 * 3_600_000);
    expect(run.state).toBe('COMPLETED');
    expect(Object.keys(run.facets).sort()).toEqual(['extra', 'nominalTime']);
    expect(run.nominalStartTime).toBe('2024-01-01T09:00:00.000000+00:00');
    const job = await getJob(store, ORG, { namespace: 'etl', name: 'load' });
    expect(job.inputs).toEqual([
      { namespace: 's3://raw', name: 'customers' },
      { namespace: 's3://raw', name: 'orders' },
    ]);
    expect(job.outputs).toEqual([{ namespace: 'warehouse', name: 'orders' }]);
    expect((await getDataset(store, ORG, { namespace: 'warehouse', name: 'orders' })).fields.map((f) => f.name)).toEqual(['id', 'total']);
  });

  it('Should take the terminal state with the latest eventTime, ties broken by event id, whatever the order', async () => {
    // Prepare
    const id = newRunId();
    const states = [
      runEvent({ eventType: 'START', time: t(2, 1), runId: id, job: 'j' }),
      runEvent({ eventType: 'FAIL', time: t(2, 3), runId: id, job: 'j' }),
      runEvent({ eventType: 'COMPLETE', time: t(2, 2), runId: id, job: 'j' }),
      runEvent({ eventType: 'RUNNING', time: t(2, 4), runId: id, job: 'j' }),
    ];
    const tieA = runEvent({ eventType: 'ABORT', time: t(2, 5), runId: id, job: 'j', runFacets: { a: { ...F } } });
    const tieB = runEvent({ eventType: 'COMPLETE', time: t(2, 5), runId: id, job: 'j', runFacets: { b: { ...F } } });
    const tieWinner = tieA.id > tieB.id ? 'ABORTED' : 'COMPLETED';

    // Act
    const results = [];
    for (const order of [states, [...states].reverse(), shuffled(states, seeded(3))]) {
      const store = new MemoryLineageStore();
      await applyOneByOne(store, order);
      results.push((await getLineageRun(store, ORG, id)).state);
      await applyOneByOne(store, shuffled([tieA, tieB], seeded(order.length)));
      results.push((await getLineageRun(store, ORG, id)).state);
    }

    // Assess
    expect(results).toEqual(['FAILED', tieWinner, 'FAILED', tieWinner, 'FAILED', tieWinner]);
  });

  it('Should show a COMPLETE-only run as completed with no start, and a RUNNING-only streaming run as running from its first event', async () => {
    // Prepare
    const store = new MemoryLineageStore();
    const batch = newRunId();
    const stream = newRunId();
    const streamingJob = { jobType: { ...F, processingType: 'STREAMING', integration: 'FLINK', jobType: 'JOB' } };
    const events = [
      runEvent({ eventType: 'COMPLETE', time: t(3, 1), runId: batch, job: 'nightly', outputs: ['db:t'] }),
      ...[5, 2, 9].map((hour) => runEvent({ eventType: 'RUNNING', time: t(3, hour), runId: stream, job: 'clicks', inputs: ['kafka://b:clicks'], outputs: ['db:sessions'], jobFacets: streamingJob })),
    ];

    // Act
    await applyOneByOne(store, shuffled(events, seeded(11)));

    // Assess
    const nightly = await getLineageRun(store, ORG, batch);
    expect([nightly.state, nightly.startedAt, nightly.endedAt]).toEqual(['COMPLETED', null, '2024-01-03T01:00:00.000000+00:00']);
    const clicks = await getJob(store, ORG, { namespace: 'etl', name: 'clicks' });
    expect([clicks.type, clicks.latestRun?.state, clicks.latestRun?.startedAt]).toEqual(['STREAM', 'RUNNING', '2024-01-03T02:00:00.000000+00:00']);
    // It counts from its first event: at 03:00 the job already existed with its inputs and outputs.
    const early = await lineageGraph(store, ORG, { nodeId: { type: 'JOB', namespace: 'etl', name: 'clicks' }, depth: 1, direction: 'both', asOf: '2024-01-03T03:00:00.000000+00:00' });
    expect(early.graph.map((n) => n.id)).toEqual(['dataset:db:sessions', 'dataset:kafka://b:clicks', 'job:etl:clicks']);
    await expect(lineageGraph(store, ORG, { nodeId: { type: 'JOB', namespace: 'etl', name: 'clicks' }, depth: 1, direction: 'both', asOf: '2024-01-03T01:00:00.000000+00:00' })).rejects.toThrow(/not found at/);
  });
});

describe("a job's current version", () => {
  it("Should be the run that started last, even when a run's START arrives after a later run's events", async () => {
    // Prepare: R1 runs 10:00–20:00, R2 starts at 15:00; R2 is the latest run. R1's COMPLETE arrives
    // first (R1 looks like it started at 20:00), then R2, then R1's START moves R1 back to 10:00.
    const r1 = newRunId();
    const r2 = newRunId();
    const events = [
      runEvent({ eventType: 'COMPLETE', time: t(5, 20), runId: r1, job: 'agg', inputs: ['db:old_source'], outputs: ['db:agg'] }),
      runEvent({ eventType: 'START', time: t(5, 15), runId: r2, job: 'agg', inputs: ['db:new_source'] }),
      runEvent({ eventType: 'COMPLETE', time: t(5, 16), runId: r2, job: 'agg', inputs: ['db:new_source'], outputs: ['db:agg'] }),
      runEvent({ eventType: 'START', time: t(5, 10), runId: r1, job: 'agg', inputs: ['db:old_source'] }),
    ];
    const store = new MemoryLineageStore();

    // Act
    await applyOneByOne(store, events);

    // Assess
    const job = await getJob(store, ORG, { namespace: 'etl', name: 'agg' });
    expect(job.latestRun?.id).toBe(r2);
    expect(job.inputs).toEqual([{ namespace: 'db', name: 'new_source' }]);
    expect((await listJobRuns(store, ORG, { namespace: 'etl', name: 'agg' }, { limit: 10, offset: 0 })).runs.map((r) => r.id)).toEqual([r2, r1]);
    expect(await answers(store, ORG)).toEqual(await answersAfter([...events].sort((a, b) => (a.event_time < b.event_time ? -1 : 1))));
  });

  it('Should make a job version from a JobEvent at its eventTime, and update a dataset from a DatasetEvent', async () => {
    // Prepare
    const [jobEvent, datasetEvent] = exampleEvents('marquez/event_job_event.json', 'marquez/event_dataset_event.json') as [StoredLineageEvent, StoredLineageEvent];
    const store = new MemoryLineageStore();

    // Act
    await applyEventsToLineageModel(store, ORG, [datasetEvent, jobEvent]);

    // Assess
    const job = await getJob(store, ORG, { namespace: jobEvent.job_namespace as string, name: jobEvent.job_name as string });
    expect(job.inputs.length + job.outputs.length).toBeGreaterThan(0);
    expect(job.latestRun).toBeNull();
    expect((await listJobRuns(store, ORG, { namespace: jobEvent.job_namespace as string, name: jobEvent.job_name as string }, { limit: 10, offset: 0 })).totalCount).toBe(0);
    const dataset = datasetEvent.event_raw.dataset as { namespace: string; name: string; facets: Record<string, unknown> };
    const view = await getDataset(store, ORG, dataset);
    expect(Object.keys(view.facets).sort()).toEqual(Object.keys(dataset.facets).sort());
  });
});

describe('duplicates, replays, concurrency, crashes', () => {
  const events = exampleEvents(...APPLES);

  it('Should change nothing when a batch is applied again or its events arrive twice', async () => {
    // Prepare
    const store = new MemoryLineageStore();
    await applyEventsToLineageModel(store, ORG, events);
    const before = await answers(store, ORG);
    const model = store.current(ORG);
    const records = () => ({ runs: [...model.runs.values()].map((r) => r.value), datasets: [...model.datasets.values()].map((d) => d.value), heads: [...model.heads.values()].map((h) => h.value) });
    const stateBefore = structuredClone(records());

    // Act
    await applyEventsToLineageModel(store, ORG, events);
    await applyEventsToLineageModel(store, ORG, [...events, ...events]);
    await applyOneByOne(store, shuffled(events, seeded(5)));

    // Assess
    expect(await answers(store, ORG)).toEqual(before);
    expect(records()).toEqual(stateBefore);
  });

  it('Should converge when consumers apply overlapping batches at the same time', async () => {
    // Prepare
    const reference = await answersAfter(events);
    for (const seed of [1, 2, 3]) {
      const store = new MemoryLineageStore();
      const order = shuffled(events, seeded(seed));

      // Act: three consumers, overlapping batches, all at once.
      await Promise.all([order.slice(0, 5), order.slice(3), order.slice(1, 7), [order[0] as StoredLineageEvent]].map((b) => applyEventsToLineageModel(store, ORG, b)));

      // Assess
      expect(await answers(store, ORG)).toEqual(reference);
    }
  });

  it('Should lose nothing when a consumer dies in the middle of a batch and the batch is applied again', async () => {
    // Prepare
    const reference = await answersAfter(events);
    const counting = crashAfterWrites(new MemoryLineageModel(), Number.POSITIVE_INFINITY);
    await applyEventsToModel(counting.model, events);
    const total = counting.writes();
    expect(total).toBeGreaterThan(20);
    for (const failAfter of [1, 2, 3, 5, 8, 13, 21, Math.floor(total / 2), total - 1, total]) {
      const store = new MemoryLineageStore();
      const { model: crashing } = crashAfterWrites(store.current(ORG), failAfter);

      // Act
      await expect(applyEventsToModel(crashing, events)).rejects.toThrow('crash');
      await applyEventsToLineageModel(store, ORG, events);

      // Assess
      expect(await answers(store, ORG)).toEqual(reference);
    }
  });
});

/** A model that throws on the n-th write (puts, adds, deletes), as a process dying mid-batch would stop. */
function crashAfterWrites(model: MemoryLineageModel, n: number): { model: LineageModel; writes: () => number } {
  let writes = 0;
  const proxy = new Proxy(model, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      const isWrite = /^(put|add|delete)/.test(String(property));
      return (...args: unknown[]) => {
        if (isWrite && ++writes >= n) return Promise.reject(new Error('crash'));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { model: proxy, writes: () => writes };
}

describe('rebuild', () => {
  const events = [
    ...exampleEvents(...APPLES),
    ...exampleEvents('marquez/event_full.json', 'marquez/event_simple.json', 'marquez/event_dataset_event.json', 'marquez/event_job_event.json', 'marquez/event_unicode.json'),
  ];

  /** A source that yields the org's events in batches, in a shuffled order. */
  const source = (all: readonly StoredLineageEvent[], seed: number, size = 3): StoredEventSource => ({
    async *events() {
      const order = shuffled(all, seeded(seed));
      for (let i = 0; i < order.length; i += size) yield order.slice(i, i + size);
    },
  });

  it('Should give exactly the answers incremental maintenance gave', async () => {
    // Prepare
    const store = new MemoryLineageStore();
    await applyOneByOne(store, events);
    const incremental = await answers(store, ORG, { asOf: [t(1)] });

    // Act
    const summary = await rebuildLineageModel(store, source(events, 9), ORG);

    // Assess
    expect(summary.events).toBe(events.length);
    expect(summary.generation).toBe(2);
    expect(await answers(store, ORG, { asOf: [t(1)] })).toEqual(incremental);
  });

  it('Should keep the events a consumer applies while the rebuild runs', async () => {
    // Prepare
    const store = new MemoryLineageStore();
    const [late, ...earlier] = events as [StoredLineageEvent, ...StoredLineageEvent[]];
    await applyEventsToLineageModel(store, ORG, earlier);
    const slow: StoredEventSource = {
      async *events() {
        yield earlier.slice(0, 4);
        // An event stored now is not in this source's remaining batches; the consumer applies it.
        await applyEventsToLineageModel(store, ORG, [late]);
        yield earlier.slice(4);
      },
    };

    // Act
    await rebuildLineageModel(store, slow, ORG);

    // Assess
    expect(await answers(store, ORG)).toEqual(await answersAfter(events));
  });

  it("Should leave another organization's model alone, and show an organization nothing of another's", async () => {
    // Prepare
    const store = new MemoryLineageStore();
    await applyEventsToLineageModel(store, 'org-b', events);
    const other = await answers(store, 'org-b');

    // Act
    await rebuildLineageModel(store, source([], 1), ORG);

    // Assess
    expect(await answers(store, 'org-b')).toEqual(other);
    const empty = await answers(store, ORG);
    expect(empty.namespaces).toEqual({ namespaces: [], totalCount: 0 });
    await expect(getJob(store, ORG, { namespace: 'grandmas.kitchen', name: 'gather_apples' })).rejects.toThrow(/not found/);
    await expect(lineageGraph(store, ORG, { nodeId: { type: 'DATASET', namespace: 'grandmas.kitchen', name: 'apples' }, depth: 2, direction: 'both' })).rejects.toThrow(/not found/);
    expect(store.current(ORG).heads.has(jobIdOf({ namespace: 'grandmas.kitchen', name: 'gather_apples' }))).toBe(false);
  });
});

describe('parent runs', () => {
  it('Should link children to their parent for Airflow, Spark and dbt shaped parent facets', async () => {
    // Prepare
    const store = new MemoryLineageStore();
    const parentFacet = (runId: string, namespace: string, name: string) => ({
      parent: { _producer: 'https://p.example', _schemaURL: 'https://openlineage.io/spec/facets/1-1-0/ParentRunFacet.json', run: { runId }, job: { namespace, name } },
    });
    const dagRun = newRunId();
    const sparkApp = newRunId();
    const dbtRun = newRunId();
    const events = [
      runEvent({ eventType: 'START', time: t(7, 1), runId: dagRun, job: { namespace: 'airflow', name: 'daily_dag' } }),
      ...['extract', 'load'].map((task, i) => runEvent({ eventType: 'COMPLETE', time: t(7, 2 + i), runId: newRunId(), job: { namespace: 'airflow', name: `daily_dag.${task}` }, runFacets: parentFacet(dagRun, 'airflow', 'daily_dag') })),
      runEvent({ eventType: 'START', time: t(7, 1), runId: sparkApp, job: { namespace: 'spark', name: 'etl_app' } }),
      runEvent({ eventType: 'COMPLETE', time: t(7, 2), runId: newRunId(), job: { namespace: 'spark', name: 'etl_app.execute_insert_into' }, runFacets: parentFacet(sparkApp, 'spark', 'etl_app'), outputs: ['s3://lake:out'] }),
      // dbt: the parent (the dbt invocation) never sends events of its own here.
      runEvent({ eventType: 'COMPLETE', time: t(7, 3), runId: newRunId(), job: { namespace: 'dbt', name: 'project.model_a' }, runFacets: parentFacet(dbtRun, 'dbt', 'project') }),
      runEvent({ eventType: 'COMPLETE', time: t(7, 4), runId: newRunId(), job: { namespace: 'dbt', name: 'project.model_b' }, runFacets: parentFacet(dbtRun.toUpperCase(), 'dbt', 'project') }),
    ];

    // Act
    await applyOneByOne(store, shuffled(events, seeded(2)));

    // Assess
    const dag = await getLineageRun(store, ORG, dagRun);
    expect(dag.children.map((c) => c.job.name)).toEqual(expect.arrayContaining(['daily_dag.extract', 'daily_dag.load']));
    expect(dag.children).toHaveLength(2);
    const app = await getLineageRun(store, ORG, sparkApp);
    expect(app.children.map((c) => [c.job.name, c.state])).toEqual([['etl_app.execute_insert_into', 'COMPLETED']]);
    const child = await getLineageRun(store, ORG, app.children[0]?.runId as string);
    expect(child.parent).toEqual({ runId: sparkApp, job: { namespace: 'spark', name: 'etl_app' } });
    const dbt = await getLineageRun(store, ORG, dbtRun);
    expect([dbt.job, dbt.state, dbt.children.map((c) => c.job.name).sort()]).toEqual([{ namespace: 'dbt', name: 'project' }, 'NEW', ['project.model_a', 'project.model_b']]);
    const job = await getJob(store, ORG, { namespace: 'spark', name: 'etl_app.execute_insert_into' });
    expect([job.parentJobName, job.parentJobUuid]).toEqual(['etl_app', jobIdOf({ namespace: 'spark', name: 'etl_app' })]);
  });
});

describe('stored events from the events endpoint', () => {
  it('Should accept the derived stored event as ingestion makes it (the shape part B feeds in)', async () => {
    // Prepare
    const event = stored({ eventType: 'START', eventTime: '2024-02-01T00:00:00+02:00', producer: 'https://x', run: { runId: 'URN:UUID:0176A8C2-FE01-7439-87E6-56A1A1B4029F' }, job: { namespace: 'n', name: 'j' } });
    const store = new MemoryLineageStore();

    // Act
    await applyEventsToLineageModel(store, ORG, [event]);

    // Assess
    const run = await getLineageRun(store, ORG, '0176a8c2-fe01-7439-87e6-56a1a1b4029f');
    expect([run.createdAt, run.state]).toEqual(['2024-01-31T22:00:00.000000+00:00', 'RUNNING']);
  });
});
