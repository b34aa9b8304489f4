/**
 * Ingestion benchmark (`npx tsx bench/lineage-ingest.ts`): events/s and latency of
 * `POST /api/v1/lineage` and `POST /api/v1/lineage/batch` through the local gateway, against the
 * raw rate of the same local DynamoDB (concurrent PutItem, BatchWriteItem of 25) with items of the
 * same sizes in the same Events table. Loopback only; every phase is bounded in requests and time.
 *
 * Phases alternate over several rounds (raw, service, raw, ...), in an order that rotates from round
 * to round, and medians are reported, so neither drift in the machine's load nor the store's
 * deferred work from the phase before favours one side.
 *
 * Options (env): BENCH_SINGLE (single requests per round, default 1000), BENCH_BATCHES (batch
 * requests per round, default 300: phases of 7,500 events, long enough that LevelDB compactions average out), BENCH_ROUNDS (6: each phase order twice), BENCH_CONCURRENCY (single-event requests in
 * flight, default 16), BENCH_BATCH_CONCURRENCY (4), BENCH_RAW_ORG (`one`: raw items all in one org,
 * as the service's are; default a random org per item — measured the same), BENCH_MODEL_WAIT_SECONDS
 * (how long to wait for the model after a service phase, default 120; past it the run goes on).
 *
 * Each phase starts once the store is idle, and the CPU each process used per item is printed:
 * on a 2-core machine the service and the store share the cores, so the ratios follow those costs.
 *
 * The lineage model is maintained throughout (the local stack's consumer, ADR 0031): after each
 * service phase the benchmark waits until the phase's last event is in the graph
 * (`GET /api/v1/lineage-runs/{runId}`) and prints how long after the phase's end that took.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { batchPutAll } from '#adapters/dynamodb/batch-ops';
import { encodeEvent } from '#adapters/dynamodb/event-item';
import { prepareEvent } from '#domain/lineage/derive';
import type { EventRecord } from '#domain/lineage/ports';
import { createDocumentClient, localDynamoClient } from '#adapters/dynamodb/clients';
import { localTableName } from '#composition/config';
import { EVENTS_TABLE } from '#shared/table-definitions';
import { startStackProcess, tempHome } from '../test/helpers/local-stack-process.ts';
import { childPids, httpClient, line, machine, processCpuSeconds, timed, type RunFigures } from './bench-util.ts';
import { seededRandom, runEvents, sizeMix } from './lineage-data.ts';

const SINGLE = Number(process.env.BENCH_SINGLE ?? 1_000);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 300);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const WARMUP = 500;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const BATCH_CONCURRENCY = Number(process.env.BENCH_BATCH_CONCURRENCY ?? 4);
const BATCH_SIZE = 25;
const MAX_SECONDS = 90;
/** How long after a service phase the benchmark waits for the model to have applied its last event. */
const MODEL_WAIT_SECONDS = Number(process.env.BENCH_MODEL_WAIT_SECONDS ?? 120);

/** A process's command line ('' once it has gone). */
const readCmdline = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
};

/** The org of raw items: BENCH_RAW_ORG=one (like the service: one org) or random per item. */
const RAW_ORG = process.env.BENCH_RAW_ORG === 'one' ? () => 'raw-writer-org' : () => randomUUID();

const ms = (seconds: number): string => (seconds * 1_000).toFixed(2).padStart(6);

/** `count` distinct events (1–50 KB), their texts and derived records. */
const events = (count: number, seed: number): { texts: string[]; records: EventRecord[] } => {
  const random = seededRandom(seed);
  const texts: string[] = [];
  for (const { text } of runEvents(random, count, Date.UTC(2024, 0, 1), 30 * 86_400_000, sizeMix)) {
    texts.push(text);
    if (texts.length === count) break;
  }
  const records = texts.map((text) => {
    const prepared = prepareEvent(JSON.parse(text), Buffer.byteLength(text), new Date());
    if (!prepared.ok) throw new Error(prepared.error);
    return { event: prepared.event, rawText: text };
  });
  return { texts, records };
};

console.log(`lineage ingest benchmark — ${machine()}`);
const home = tempHome('bench-ingest');
const stack = await startStackProcess(home);
const dynamo = localDynamoClient(stack.dynamodbEndpoint);
const doc = createDocumentClient(dynamo);
const table = localTableName(EVENTS_TABLE);
const client = httpClient(Math.max(CONCURRENCY, BATCH_CONCURRENCY));
const meanBytes = events(200, 1).texts.reduce((sum, t) => sum + Buffer.byteLength(t), 0) / 200;
const headers = { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' };

try {
  console.log(`events: 1–50 KB (mean ${(meanBytes / 1024).toFixed(1)} KB); per round ${SINGLE} single requests (${CONCURRENCY} in flight), ${BATCHES} batches of ${BATCH_SIZE} (${BATCH_CONCURRENCY} in flight); ${ROUNDS} rounds, phases alternating, medians reported\n`);

  const runIdOf = (text: string): string => (JSON.parse(text) as { run: { runId: string } }).run.runId;
  /**
   * Seconds from now until the run is in the lineage graph (the model has applied its event), or
   * Infinity when it is not after MODEL_WAIT_SECONDS: on a loaded machine the model can trail a
   * batch phase by minutes, and the ingest figures are still worth printing (the lag says so).
   */
  const secondsUntilInGraph = async (runId: string): Promise<number> => {
    const started = performance.now();
    const deadline = Date.now() + MODEL_WAIT_SECONDS * 1_000;
    while (Date.now() < deadline) {
      if ((await client.request(`${stack.baseUrl}/api/v1/lineage-runs/${runId}`, 'GET', headers)).status === 200) return (performance.now() - started) / 1_000;
      await new Promise((r) => setTimeout(r, 100));
    }
    console.log(`  run ${runId} was not in the lineage graph ${MODEL_WAIT_SECONDS} s after its phase; going on`);
    return Number.POSITIVE_INFINITY;
  };

  // Warm-up: JIT of the handlers, ajv and the SDK in both processes, sockets, the authorizer's key
  // cache; then the model applies the warm-up's events, so that its work is not charged to round 1.
  const warm = events(WARMUP, 3);
  await timed(WARMUP, CONCURRENCY, 60, async (i) => ((await client.request(`${stack.baseUrl}/api/v1/lineage`, 'POST', headers, warm.texts[i])).status === 200 ? 1 : 0));
  await timed(WARMUP / 25, BATCH_CONCURRENCY, 60, async (i) => ((await client.request(`${stack.baseUrl}/api/v1/lineage/batch`, 'POST', headers, `[${warm.texts.slice(i * 25, i * 25 + 25).join(',')}]`)).status === 200 ? 25 : 0));
  await timed(WARMUP, CONCURRENCY, 60, async (i) => {
    await doc.send(new PutCommand({ TableName: table, Item: encodeEvent(randomUUID(), warm.records[i] as EventRecord).item }));
    return 1;
  });
  if ((await secondsUntilInGraph(runIdOf(warm.texts.at(-1) as string))) === Number.POSITIVE_INFINITY) console.log('  (the warm-up was not applied either: round 1 carries some of it)');

  /** Raw PutItem of the given items, same concurrency as the single-event requests. */
  const rawPut = (items: Record<string, unknown>[]) =>
    timed(items.length, CONCURRENCY, MAX_SECONDS, async (i) => {
      await doc.send(new PutCommand({ TableName: table, Item: items[i] }));
      return 1;
    });
  /** Raw BatchWriteItem of 25 of the given items, same concurrency as the batch requests. */
  const rawBatch = (items: Record<string, unknown>[]) =>
    timed(Math.ceil(items.length / BATCH_SIZE), BATCH_CONCURRENCY, MAX_SECONDS, async (i) => {
      const results = await batchPutAll(doc, table, 'pk', items.slice(i * BATCH_SIZE, (i + 1) * BATCH_SIZE), 1);
      return results.filter((r) => r.ok).length;
    });
  const single = (texts: string[]) =>
    timed(texts.length, CONCURRENCY, MAX_SECONDS, async (i) => {
      const out = await client.request(`${stack.baseUrl}/api/v1/lineage`, 'POST', headers, texts[i]);
      if (out.status !== 200) throw new Error(`HTTP ${out.status}: ${out.body.slice(0, 200)}`);
      return 1;
    });
  const batch = (texts: string[]) =>
    timed(Math.ceil(texts.length / BATCH_SIZE), BATCH_CONCURRENCY, MAX_SECONDS, async (i) => {
      const out = await client.request(`${stack.baseUrl}/api/v1/lineage/batch`, 'POST', headers, `[${texts.slice(i * BATCH_SIZE, (i + 1) * BATCH_SIZE).join(',')}]`);
      if (out.status !== 200) throw new Error(`HTTP ${out.status}: ${out.body.slice(0, 200)}`);
      return (JSON.parse(out.body) as { summary: { successful: number } }).summary.successful;
    });

  // Every phase writes new events (a resend would measure the duplicate path). Raw items are the
  // same events, laid out as a plain writer would store them (raw JSON text inline, uncompressed:
  // the "same item sizes" ceiling) and exactly as the service writes them (compressed).
  const phases: Record<string, RunFigures[]> = {};
  // Where the CPU went in each phase, per item: this process (client or raw writer), the gateway
  // with its handlers, and the store. On a small machine the ratios follow these costs.
  const gatewayPid = stack.child.pid as number;
  const storePid = childPids(gatewayPid).find((pid) => readCmdline(pid).includes('dynamo-process')) ?? -1;
  const cpuNow = () => ({ self: process.cpuUsage(), gateway: processCpuSeconds(gatewayPid) ?? NaN, store: processCpuSeconds(storePid) ?? NaN });
  /**
   * Waits until the store has finished the previous phase's work (LevelDB flushes and compactions
   * run after the writes are acknowledged): otherwise a phase that writes large plain items leaves
   * its compaction to be paid, and measured, by whichever phase comes next.
   */
  const storeSettled = async () => {
    const deadline = Date.now() + 20_000;
    let last = processCpuSeconds(storePid) ?? 0;
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 300));
      const now = processCpuSeconds(storePid) ?? 0;
      if (now - last < 0.015) return;
      last = now;
    }
  };
  const cpu: Record<string, { self: number; gateway: number; store: number; items: number }> = {};
  /** Seconds from the end of each service phase until its last event was in the lineage graph. */
  const modelLag: number[] = [];
  const untilInGraph = async (runId: string): Promise<void> => {
    modelLag.push(await secondsUntilInGraph(runId));
  };
  const record = async (name: string, run: () => Promise<RunFigures>) => {
    await storeSettled();
    const before = cpuNow();
    const f = await run();
    const after = cpuNow();
    const sum = (cpu[name] ??= { self: 0, gateway: 0, store: 0, items: 0 });
    const used = process.cpuUsage(before.self);
    sum.self += (used.user + used.system) / 1e6;
    sum.gateway += after.gateway - before.gateway;
    sum.store += after.store - before.store;
    sum.items += f.items;
    (phases[name] ??= []).push(f);
  };
  /**
   * Runs a round's phases, starting one later each round. LevelDB pays for a phase's writes partly
   * during the next phase (memtable flushes and compactions, triggered by writes, reads included),
   * so a fixed order would always charge the same phase for its predecessor: the plain items,
   * about 1.5 times the bytes of the service's, used to precede the service's phase every time.
   */
  const inRotatedOrder = async (round: number, phaseRuns: (() => Promise<void>)[]) => {
    for (let k = 0; k < phaseRuns.length; k++) await (phaseRuns[(round + k) % phaseRuns.length] as () => Promise<void>)();
  };
  for (let round = 0; round < ROUNDS; round++) {
    const s = events(SINGLE * 3, 100 + round);
    const part = (k: number) => ({ texts: s.texts.slice(k * SINGLE, (k + 1) * SINGLE), records: s.records.slice(k * SINGLE, (k + 1) * SINGLE) });
    const plainItems = part(0).records.map((r) => encodeEvent(RAW_ORG(), r, Number.POSITIVE_INFINITY).item);
    const serviceItems = part(2).records.map((r) => encodeEvent(RAW_ORG(), r).item);
    await inRotatedOrder(round, [
      () => record('rawPut', () => rawPut(plainItems)),
      () => record('single', () => single(part(1).texts)).then(() => untilInGraph(runIdOf(part(1).texts.at(-1) as string))),
      () => record('rawPutService', () => rawPut(serviceItems)),
    ]);
    const b = events(BATCHES * BATCH_SIZE * 3, 200 + round);
    const bpart = (k: number) => ({ texts: b.texts.slice(k * BATCHES * BATCH_SIZE, (k + 1) * BATCHES * BATCH_SIZE), records: b.records.slice(k * BATCHES * BATCH_SIZE, (k + 1) * BATCHES * BATCH_SIZE) });
    const plainBatchItems = bpart(0).records.map((r) => encodeEvent(RAW_ORG(), r, Number.POSITIVE_INFINITY).item);
    const serviceBatchItems = bpart(2).records.map((r) => encodeEvent(RAW_ORG(), r).item);
    await inRotatedOrder(round, [
      () => record('rawBatch', () => rawBatch(plainBatchItems)),
      () => record('batch', () => batch(bpart(1).texts)).then(() => untilInGraph(runIdOf(bpart(1).texts.at(-1) as string))),
      () => record('rawBatchService', () => rawBatch(serviceBatchItems)),
    ]);
    console.log(`round ${round + 1}: ${Object.entries(phases).map(([name, f]) => `${name} ${((f.at(-1)?.items ?? 0) / (f.at(-1)?.seconds ?? 1)).toFixed(0)}/s`).join(', ')}`);
  }
  const median = (name: string): RunFigures => {
    const runs = [...(phases[name] ?? [])].sort((a, b) => a.items / a.seconds - b.items / b.seconds);
    return runs[Math.floor(runs.length / 2)] as RunFigures;
  };
  console.log('');
  console.log(line('raw PutItem, plain items (same sizes)', median('rawPut')));
  console.log(line("raw PutItem, the service's own items", median('rawPutService')));
  console.log(line('POST /api/v1/lineage (one event each)', median('single')));
  console.log(line('raw BatchWriteItem of 25, plain items', median('rawBatch')));
  console.log(line("raw BatchWriteItem of 25, the service's items", median('rawBatchService')));
  console.log(line('POST /api/v1/lineage/batch (25 events each)', median('batch')));

  const rate = (f: RunFigures) => f.items / f.seconds;
  const pct = (a: string, b: string) => `${((100 * rate(median(a))) / rate(median(b))).toFixed(0)}%`;
  console.log(`
ratios of medians (issue 26's target: ≥ 70% of the service's own items, single and batch):
  single-event ingest / raw PutItem (plain items)            ${pct('single', 'rawPut')}
  single-event ingest / raw PutItem (service's items)        ${pct('single', 'rawPutService')}
  batch ingest / raw BatchWriteItem items (plain items)      ${pct('batch', 'rawBatch')}
  batch ingest / raw BatchWriteItem items (service's items)  ${pct('batch', 'rawBatchService')}

lineage model: a service phase's last event was in the graph ${[...modelLag].sort((a, b) => a - b).map((s) => (Number.isFinite(s) ? s.toFixed(1) : `> ${MODEL_WAIT_SECONDS}`)).join(', ')} s after the phase ended

CPU per item, ms (this process = HTTP client or raw writer; all rounds):
${Object.entries(cpu)
  .map(([name, c]) => `  ${name.padEnd(16)} this process ${ms(c.self / c.items)}  gateway ${ms(c.gateway / c.items)}  store ${ms(c.store / c.items)}`)
  .join('\n')}
${machine()}`);
} finally {
  client.close();
  dynamo.destroy();
  await stack.stop();
  rmSync(home, { recursive: true, force: true });
}
