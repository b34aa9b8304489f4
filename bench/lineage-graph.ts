/**
 * Lineage graph benchmark (`npx tsx bench/lineage-graph.ts`): one org shaped like a real
 * warehouse — domains with a few shared sources each, hundreds of pipelines of 10–40 jobs (chains,
 * fan-in, fan-out), ≥ 200,000 events over ≥ 5,000 jobs and ≥ 20,000 datasets, with schemas,
 * column lineage and symlinks — loaded through the consumer (`applyEventsToLineageModel`) into the
 * DynamoDB model on a local dynalite; then p50/p95 of depth-5 and depth-20 graphs from random
 * start nodes, of column lineage at depth 5, and of search, with the sizes of the answers.
 * Targets: depth 5 ≤ 100 ms, depth 20 ≤ 500 ms, column lineage depth 5 ≤ 100 ms, search ≤ 50 ms.
 *
 * The query side goes through {@link GraphQueries}: by default the use cases over the store (with
 * the endpoints' own parameter parsing); with `--http`, the endpoints through the local gateway of
 * a local stack started on the benchmark's home (authorizer, handler, JSON and all), the model
 * loaded under the stack's demo organization.
 *
 * Graphs are measured side by side over the same start nodes: over the store, without the readers'
 * record cache and with it (a first pass from a fresh process, then a second pass); through HTTP,
 * the stack's first pass (after its handlers were warmed on depth-1 graphs and searches, which
 * read a few records), a second pass, and cold stacks: the stack stopped and started again for
 * each sample and its first request timed, as a cold Lambda's (BENCH_COLD_STARTS per depth, 20).
 * Every pass starts from random nodes of its own, never read before in that process.
 *
 * Run with `node --expose-gc --import tsx bench/lineage-graph.ts` for an exact figure of the record
 * cache's heap. Options (env): BENCH_EVENTS (200000), BENCH_PIPELINES (250), BENCH_DOMAINS (20), BENCH_REQUESTS
 * (requests per query kind, 100), BENCH_BATCH (events per consumer batch, 1000), BENCH_CONSUMERS
 * (batches applied at once, 4), BENCH_HOME (keep the loaded store there; a later run with the same
 * options skips loading).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoLineageModelStore } from '#adapters/dynamodb/lineage-model-store';
import { applyEventsToLineageModel } from '#domain/lineage-graph/apply';
import { columnLineageGraph } from '#domain/lineage-graph/column-lineage';
import { lineageGraph } from '#domain/lineage-graph/graph';
import { jobIdOf } from '#domain/lineage-graph/ids';
import type { ModelEvent } from '#domain/lineage-graph/merge';
import { parseColumnLineageQuery, parseLineageQuery, parseSearchQuery } from '#domain/lineage-graph/params';
import type { LineageModelStore } from '#domain/lineage-graph/ports';
import { searchLineage } from '#domain/lineage-graph/search';
import { createDocumentClient, localDynamoClient } from '#adapters/dynamodb/clients';
import { localTableName } from '#composition/config';
import { LINEAGE_TABLE } from '#shared/table-definitions';
import { startLocalDynamo } from '../local/dynamo.ts';
import { startStackProcess, type StackProcess } from '../test/helpers/local-stack-process.ts';
import { machine, quantile } from './bench-util.ts';
import { seededRandom } from './lineage-data.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 200_000);
const PIPELINES = Number(process.env.BENCH_PIPELINES ?? 250);
const DOMAINS = Number(process.env.BENCH_DOMAINS ?? 20);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 100);
const BATCH = Number(process.env.BENCH_BATCH ?? 1_000);
const CONSUMERS = Number(process.env.BENCH_CONSUMERS ?? 4);
/** Stacks started anew for the cold figures (`--http`): each sample is one process's first request. */
const COLD_STARTS = Number(process.env.BENCH_COLD_STARTS ?? 20);
const BENCH_ORG = 'bench-lineage-graph-org';
const SOURCES_PER_DOMAIN = 4;
const COLUMNS = 6;

// ---------------------------------------------------------------- the warehouse

interface Name {
  readonly namespace: string;
  readonly name: string;
}

interface WarehouseJob {
  readonly job: Name;
  readonly stage: number;
  readonly inputs: Name[];
  /** Inputs from the 9th run on, for the jobs whose inputs change over time. */
  readonly laterInputs?: Name[];
  readonly outputs: Name[];
  /** Outputs written under a file path whose symlink names the catalog table. */
  readonly tables: ReadonlyMap<string, Name>;
}

/** The warehouse: jobs by pipeline, in stage order. */
function warehouse(random: () => number): { pipelines: WarehouseJob[][]; datasets: number } {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const datasets = new Set<string>();
  const note = (n: Name) => datasets.add(`${n.namespace}\u0000${n.name}`);
  const pipelines: WarehouseJob[][] = [];
  for (let p = 0; p < PIPELINES; p++) {
    const domain = p % DOMAINS;
    const sources = Array.from({ length: SOURCES_PER_DOMAIN }, (_, s) => ({ namespace: `s3://raw-d${domain}`, name: `source_${['orders', 'customers', 'payments', 'events'][s]}` }));
    // A pipeline ingests one of its domain's shared sources, a third of them a second one too: a
    // source feeds a few pipelines, and the second sources tie some of them together.
    const primary = sources[Math.floor(p / DOMAINS) % SOURCES_PER_DOMAIN] as Name;
    const secondary = random() < 0.3 ? (sources[(Math.floor(p / DOMAINS) + 1) % SOURCES_PER_DOMAIN] as Name) : undefined;
    const jobCount = 10 + Math.floor(random() * 31);
    const stages = 3 + Math.floor(random() * 6);
    const jobs: WarehouseJob[] = [];
    let previous: Name[] = [];
    for (let j = 0; j < jobCount; j++) {
      const stage = Math.min(stages - 1, Math.floor((j * stages) / jobCount));
      if (stage > 0 && (jobs.at(-1)?.stage ?? 0) < stage) previous = jobs.filter((x) => x.stage === stage - 1).flatMap((x) => x.outputs);
      const inputs: Name[] =
        stage === 0
          ? [secondary && j % 2 === 1 ? secondary : primary, { namespace: `s3://landing-d${domain}`, name: `p${p}/landing_${j}` }]
          : [...new Map(Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(previous)).map((n) => [n.name, n])).values()];
      const outputs = Array.from({ length: 3 + (random() < 0.35 ? 1 : 0) }, (_, k) => ({ namespace: `pg://warehouse-d${domain}`, name: `p${p}.t${j}_${k}` }));
      const tables = new Map<string, Name>();
      const written = outputs.map((o) => {
        if (random() >= 0.1) return o;
        const path = { namespace: `s3://lake-d${domain}`, name: `warehouse/p${p}/t${j}_${o.name.slice(-1)}` };
        tables.set(path.name, o);
        return path;
      });
      const later = random() < 0.1 && previous.length > 1 ? [...inputs.slice(1), pick(previous)] : undefined;
      const job: WarehouseJob = { job: { namespace: `etl-d${domain}`, name: `pipeline_${p}.job_${j}` }, stage, inputs, outputs: written, tables, ...(later ? { laterInputs: later } : {}) };
      [...inputs, ...written, ...(later ?? [])].forEach(note);
      tables.forEach(note);
      jobs.push(job);
    }
    pipelines.push(jobs);
  }
  return { pipelines, datasets: datasets.size };
}

const F = { _producer: 'https://github.com/OpenLineage/OpenLineage/tree/1.19.0/integration/spark', _schemaURL: 'https://openlineage.io/spec/facets/1-1-1/SchemaDatasetFacet.json' };
const columnNames = Array.from({ length: COLUMNS }, (_, i) => `c${i}`);

/** A fixed-width UTC time, as `derive.ts` writes `event_time`. */
const timeOf = (ms: number): string => `${new Date(ms).toISOString().slice(0, 23)}000+00:00`;

/** The stored events of the warehouse's runs, in time order, as the consumer receives them. */
function* warehouseEvents(pipelines: readonly WarehouseJob[][], runsPerJob: number, random: () => number): Generator<ModelEvent> {
  const uuid = () => {
    const h = () => Math.floor(random() * 0x10000).toString(16).padStart(4, '0');
    return `${h()}${h()}-${h()}-4${h().slice(1)}-a${h().slice(1)}-${h()}${h()}${h()}`;
  };
  const base = Date.UTC(2024, 0, 1);
  for (let run = 0; run < runsPerJob; run++) {
    for (const jobs of pipelines) {
      for (const w of jobs) {
        const runId = uuid();
        const start = base + run * 3_600_000 + w.stage * 300_000 + Math.floor(random() * 60_000);
        const inputs = run >= runsPerJob / 2 && w.laterInputs ? w.laterInputs : w.inputs;
        const outputs = w.outputs.map((o) => {
          const table = w.tables.get(o.name);
          const lineage = {
            ...F,
            _schemaURL: 'https://openlineage.io/spec/facets/1-2-0/ColumnLineageDatasetFacet.json',
            fields: Object.fromEntries(
              columnNames.map((c, i) => {
                // The same query gives the same lineage run after run (until its inputs change).
                const from = inputs[i % inputs.length] as Name;
                return [c, { inputFields: [{ ...from, field: `c${i % COLUMNS}`, transformations: [{ type: 'DIRECT', subtype: i % 3 === 0 ? 'IDENTITY' : 'TRANSFORMATION' }] }] }];
              }),
            ),
            dataset: [{ ...(inputs[0] as Name), field: 'c0', transformations: [{ type: 'INDIRECT', subtype: 'JOIN' }] }],
          };
          return {
            ...o,
            facets: {
              schema: { ...F, fields: columnNames.map((name) => ({ name, type: 'VARCHAR' })) },
              columnLineage: lineage,
              ...(table ? { symlinks: { ...F, identifiers: [{ ...table, type: 'TABLE' }] } } : {}),
            },
          };
        });
        for (const [state, at] of [['START', start], ['COMPLETE', start + 120_000]] as const) {
          const raw = {
            eventType: state,
            eventTime: new Date(at).toISOString(),
            producer: F._producer,
            run: { runId, facets: {} },
            job: { ...w.job, facets: { jobType: { ...F, processingType: 'BATCH', integration: 'SPARK', jobType: 'JOB' } } },
            inputs,
            outputs: state === 'COMPLETE' ? outputs : w.outputs,
          };
          yield { id: uuid(), event_schema: 'RunEvent', event_time: timeOf(at), run_id: runId, run_state: state, job_namespace: w.job.namespace, job_name: w.job.name, event_raw: raw };
        }
      }
    }
  }
}

// ---------------------------------------------------------------- queries

/** The three query kinds, by the endpoints' query parameters. An HTTP implementation can replace the store one. */
export interface GraphQueries {
  lineage(params: Record<string, string>): Promise<{ graph: readonly unknown[] }>;
  columnLineage(params: Record<string, string>): Promise<{ graph: readonly unknown[] }>;
  search(params: Record<string, string>): Promise<{ totalCount: number; results: readonly unknown[] }>;
}

/** The use cases over the store, with the endpoints' own parameter parsing. */
const storeQueries = (store: LineageModelStore, orgId: string): GraphQueries => ({
  lineage: (p) => lineageGraph(store, orgId, parseLineageQuery(p)),
  columnLineage: (p) => columnLineageGraph(store, orgId, parseColumnLineageQuery(p)),
  search: (p) => searchLineage(store, orgId, parseSearchQuery(p)),
});

/** The endpoints through a local stack's gateway, as a client sees them. */
const httpQueries = (baseUrl: string, apiKey: string): GraphQueries => {
  const get = async <T>(path: string, params: Record<string, string>): Promise<T> => {
    const response = await fetch(`${baseUrl}${path}?${new URLSearchParams(params).toString()}`, { headers: { authorization: `Bearer ${apiKey}` } });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${text.slice(0, 200)}`);
    return JSON.parse(text) as T;
  };
  return {
    lineage: (p) => get('/api/v1/lineage', p),
    columnLineage: (p) => get('/api/v1/column-lineage', p),
    search: (p) => get('/api/v1/search', p),
  };
};

// ---------------------------------------------------------------- run

/** Counts the store requests of a document client, by command. */
const counting = (doc: DynamoDBDocumentClient) => {
  const counts = new Map<string, number>();
  const client = new Proxy(doc, {
    get(target, property, receiver) {
      if (property !== 'send') return Reflect.get(target, property, receiver);
      return (command: { constructor: { name: string } }) => {
        counts.set(command.constructor.name, (counts.get(command.constructor.name) ?? 0) + 1);
        return target.send(command as Parameters<DynamoDBDocumentClient['send']>[0]);
      };
    },
  });
  return { client, counts };
};

const ms = (v: number) => v.toFixed(1).padStart(7);

async function measure(label: string, target: number, requests: number, query: (i: number) => Promise<number>, warmUp = 3): Promise<void> {
  for (let i = 0; i < warmUp; i++) await query(requests + i); // warm-up: code paths (and caches, unless the pass is meant cold)
  const latencies: number[] = [];
  const sizes: number[] = [];
  for (let i = 0; i < requests; i++) {
    const t0 = performance.now();
    sizes.push(await query(i));
    latencies.push(performance.now() - t0);
  }
  report(label, target, latencies, sizes);
}

/** One line of figures: percentiles of the latencies against the target, and the answers' sizes. */
function report(label: string, target: number, latencies: number[], sizes: number[]): void {
  latencies.sort((a, b) => a - b);
  sizes.sort((a, b) => a - b);
  const p95 = quantile(latencies, 0.95);
  console.log(
    `  ${label.padEnd(30)} p50 ${ms(quantile(latencies, 0.5))} ms  p95 ${ms(p95)} ms  max ${ms(latencies.at(-1) ?? NaN)} ms  (target p95 ≤ ${target} ms: ${p95 <= target ? 'met' : 'NOT MET'})  answer size p50 ${quantile(sizes, 0.5)} / max ${sizes.at(-1)}`,
  );
}

console.log(`lineage graph benchmark — ${machine()}`);
const random = seededRandom(42);
const { pipelines, datasets } = warehouse(random);
const jobs = pipelines.flat();
const runsPerJob = Math.max(1, Math.round(EVENTS / (2 * jobs.length)));
const totalEvents = runsPerJob * 2 * jobs.length;
console.log(`warehouse: ${DOMAINS} domains, ${pipelines.length} pipelines, ${jobs.length} jobs, ${datasets} datasets, ${runsPerJob} runs per job = ${totalEvents} events`);

const keep = process.env.BENCH_HOME;
const home = keep ?? mkdtempSync(path.join(tmpdir(), 'lakeline-bench-graph-'));
if (keep) mkdirSync(keep, { recursive: true });
const HTTP = process.argv.includes('--http');
const marker = path.join(home, 'bench-graph-loaded.json');
// Through HTTP, the stack owns the store and the model belongs to its demo organization.
const stack: StackProcess | undefined = HTTP ? await startStackProcess(home, 0, { LAKELINE_DEMO_DATA: '0' }) : undefined;
const dynamo = stack ? undefined : await startLocalDynamo(home);
const ORG = stack?.orgId ?? BENCH_ORG;
const signature = JSON.stringify({ EVENTS, PIPELINES, DOMAINS, ORG });
const raw = localDynamoClient(stack?.dynamodbEndpoint ?? (dynamo as { endpoint: string }).endpoint);
const doc = createDocumentClient(raw);
const table = localTableName(LINEAGE_TABLE);
try {
  if (!existsSync(marker) || readFileSync(marker, 'utf8') !== signature) {
    const { client, counts } = counting(doc);
    const loader = new DynamoLineageModelStore(client, table);
    const batchTimes: number[] = [];
    const started = performance.now();
    let applied = 0;
    let conflicts = 0;
    // Consumers take the stream partitioned by job, as a keyed stream would hand it out: two
    // consumers working on consecutive runs of one job would only redo each other's writes.
    const events = warehouseEvents(pipelines, runsPerJob, seededRandom(7));
    const queues: ModelEvent[][] = Array.from({ length: CONSUMERS }, () => []);
    let drained = false;
    const nextBatch = (consumer: number): ModelEvent[] => {
      const queue = queues[consumer] as ModelEvent[];
      while (!drained && queue.length < BATCH) {
        const e = events.next();
        if (e.done) drained = true;
        else (queues[Number.parseInt(jobIdOf({ namespace: e.value.job_namespace as string, name: e.value.job_name as string }).slice(0, 8), 16) % CONSUMERS] as ModelEvent[]).push(e.value);
      }
      return queue.splice(0, BATCH);
    };
    await Promise.all(
      Array.from({ length: CONSUMERS }, async (_, consumer) => {
        for (let batch = nextBatch(consumer); batch.length > 0; batch = nextBatch(consumer)) {
          const t0 = performance.now();
          const summary = await applyEventsToLineageModel(loader, ORG, batch);
          batchTimes.push(performance.now() - t0);
          applied += batch.length;
          conflicts += summary.conflicts;
          if (applied % 20_000 < BATCH) console.log(`  loaded ${applied} events (${(applied / ((performance.now() - started) / 1_000)).toFixed(0)} events/s)`);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1_000;
    batchTimes.sort((a, b) => a - b);
    const requests = [...counts.values()].reduce((a, b) => a + b, 0);
    console.log(`loaded ${applied} events through the consumer in ${seconds.toFixed(0)} s: ${(applied / seconds).toFixed(0)} events/s, ${CONSUMERS} consumers (stream partitioned by job) × batches of ${BATCH}`);
    console.log(`  batch apply time p50 ${quantile(batchTimes, 0.5).toFixed(0)} ms, p95 ${quantile(batchTimes, 0.95).toFixed(0)} ms; compare-and-set conflicts redone: ${conflicts}`);
    console.log(`  store requests per event: ${(requests / applied).toFixed(2)} (${[...counts].sort((a, b) => b[1] - a[1]).map(([c, n]) => `${c.replace('Command', '')} ${(n / applied).toFixed(2)}`).join(', ')})`);
    writeFileSync(marker, signature);
  } else {
    console.log(`reusing the model loaded in ${home}`);
  }

  const uncached = new DynamoLineageModelStore(doc, table, { records: { maxEntries: 0 } });
  const cached = new DynamoLineageModelStore(doc, table);
  const queries = stack ? httpQueries(stack.baseUrl, stack.apiKey) : storeQueries(cached, ORG);
  console.log(stack ? `queries through the local gateway at ${stack.baseUrl}` : 'queries through the use cases over the store');
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const startNode = (): string => {
    const w = pick(jobs);
    if (random() < 0.5) return `job:${w.job.namespace}:${w.job.name}`;
    const out = pick(w.outputs);
    const table = w.tables.get(out.name) ?? out;
    return `dataset:${table.namespace}:${table.name}`;
  };
  const names = jobs.flatMap((w) => [w.job.name, ...w.outputs.map((o) => o.name)]);
  const term = (): string => {
    const name = pick(names);
    const length = 4 + Math.floor(random() * 5);
    const at = Math.floor(random() * Math.max(1, name.length - length));
    return name.slice(at, at + length);
  };
  const requests = Math.max(10, REQUESTS);
  console.log(`\nqueries (one client, ${requests} requests each, random start nodes; answer size = nodes, or results for search):`);
  // The same start nodes for every pass, warm-up requests included.
  const newStarts = () => ({ depth5: Array.from({ length: requests + 3 }, startNode), depth20: Array.from({ length: Math.ceil(requests / 2) + 3 }, startNode) });
  let starts = newStarts();
  const graphPass = async (label: string, pass: GraphQueries, warmUp: number) => {
    await measure(`graph depth 5, ${label}`, 100, requests, async (i) => (await pass.lineage({ nodeId: starts.depth5[i] as string, depth: '5' })).graph.length, warmUp);
    await measure(`graph depth 20, ${label}`, 500, Math.ceil(requests / 2), async (i) => (await pass.lineage({ nodeId: starts.depth20[i] as string, depth: '20' })).graph.length, warmUp);
  };
  // The second pass starts from other random nodes: it shows a process that has served graphs
  // before, not the same requests repeated.
  if (stack) {
    // A running service has loaded and compiled its handlers: the stack's are warmed on depth-1
    // upstream graphs (a few records each, so its record cache stays as cold as before) and searches.
    for (let i = 0; i < 20; i++) await queries.lineage({ nodeId: startNode(), depth: '1', direction: 'upstream' });
    for (let i = 0; i < 5; i++) await queries.search({ q: term(), sort: 'NAME', limit: '10' });
    await graphPass('first pass', queries, 0);
    starts = newStarts();
    await graphPass('second pass', queries, 0);
  } else {
    // Heap figures are taken after a full collection when node runs with --expose-gc.
    const heapUsed = () => ((globalThis as { gc?: () => void }).gc?.(), process.memoryUsage().heapUsed);
    const heapBefore = heapUsed();
    await graphPass('no record cache', storeQueries(uncached, ORG), 3);
    // Start nodes this process has not read yet: over the no-cache pass's nodes the store's own
    // caches (LevelDB blocks, the OS's pages) would be warm for exactly the records asked for.
    starts = newStarts();
    await graphPass('cache, first pass', queries, 0);
    starts = newStarts();
    await graphPass('cache, second pass', queries, 0);
    const gc = typeof (globalThis as { gc?: unknown }).gc === 'function';
    const grown = heapUsed() - heapBefore;
    console.log(
      `  heap used after the passes: ${(grown / 1_048_576).toFixed(0)} MB more than before them, ${cached.cachedRecords} records cached: ${(grown / Math.max(1, cached.cachedRecords) / 1_024).toFixed(1)} KB per record (${gc ? 'after a full collection' : 'without --expose-gc: collections blur it'})`,
    );
  }
  await measure('graph depth 5 upstream', 100, requests, async () => (await queries.lineage({ nodeId: startNode(), depth: '5', direction: 'upstream' })).graph.length);
  await measure('column lineage depth 5', 100, requests, async () => {
    const w = pick(jobs);
    const out = w.tables.get(pick(w.outputs).name) ?? pick(w.outputs);
    return (await queries.columnLineage({ nodeId: `datasetField:${out.namespace}:${out.name}:${pick(columnNames)}`, depth: '5', withDownstream: 'true' })).graph.length;
  });
  await measure('search (first load excluded)', 50, requests, async (i) => (await queries.search({ q: term(), sort: i % 2 ? 'UPDATED_AT' : 'NAME', limit: '10' })).totalCount);
  if (stack) {
    // A truly new process, as a cold Lambda is: the stack is stopped and started again for each
    // sample, and its very first request is timed (gateway, authorizer, handler modules loaded,
    // store process started, no record cache). In AWS the store would be warm; here its process is
    // new too, so this is the harsher case.
    await stack.stop();
    console.log(`\ncold stacks (each sample: a stack started anew, its first request timed; ${COLD_STARTS} starts per kind):`);
    for (const [depth, target] of [['5', 100], ['20', 500]] as const) {
      const latencies: number[] = [];
      const sizes: number[] = [];
      for (let i = 0; i < COLD_STARTS; i++) {
        const cold = await startStackProcess(home, 0, { LAKELINE_DEMO_DATA: '0' });
        try {
          const t0 = performance.now();
          sizes.push((await httpQueries(cold.baseUrl, cold.apiKey).lineage({ nodeId: startNode(), depth })).graph.length);
          latencies.push(performance.now() - t0);
        } finally {
          await cold.stop();
        }
      }
      report(`graph depth ${depth}, cold stack`, target, latencies, sizes);
    }
  }
  console.log(`\n${machine()}`);
} finally {
  raw.destroy();
  await dynamo?.stop();
  await stack?.stop();
  if (!keep) rmSync(home, { recursive: true, force: true });
}
