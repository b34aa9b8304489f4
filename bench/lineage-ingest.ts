/**
 * Ingestion benchmark (`npx tsx bench/lineage-ingest.ts`): events/s and latency of
 * `POST /api/v1/lineage` and `POST /api/v1/lineage/batch` through the local gateway, against the
 * raw rate of the same local DynamoDB (concurrent PutItem, BatchWriteItem of 25) with items of the
 * same sizes in the same Events table. Loopback only; every phase is bounded in requests and time.
 *
 * Phases alternate over several rounds (raw, service, raw, ...) and medians are reported, so drift in
 * the machine's load does not favour one side.
 *
 * Options (env): BENCH_SINGLE (single requests per round, default 1000), BENCH_BATCHES (batch
 * requests per round, default 120), BENCH_ROUNDS (3), BENCH_CONCURRENCY (single-event requests in
 * flight, default 16), BENCH_BATCH_CONCURRENCY (4).
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { batchPutAll } from '#adapters/dynamodb/batch-ops';
import { encodeEvent } from '#adapters/dynamodb/event-item';
import { prepareEvent } from '#domain/lineage/derive';
import type { EventRecord } from '#domain/lineage/ports';
import { createDocumentClient, createDynamoClient } from '#shared/clients';
import { localTableName } from '#shared/config';
import { EVENTS_TABLE } from '#shared/table-definitions';
import { startStackProcess, tempHome } from '../test/helpers/local-stack-process.ts';
import { httpClient, line, machine, timed, type RunFigures } from './bench-util.ts';
import { seededRandom, runEvents, sizeMix } from './lineage-data.ts';

const SINGLE = Number(process.env.BENCH_SINGLE ?? 1_000);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 120);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARMUP = 500;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const BATCH_CONCURRENCY = Number(process.env.BENCH_BATCH_CONCURRENCY ?? 4);
const BATCH_SIZE = 25;
const MAX_SECONDS = 90;

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
const dynamo = createDynamoClient({ profile: 'local', dynamodbEndpoint: stack.dynamodbEndpoint });
const doc = createDocumentClient(dynamo);
const table = localTableName(EVENTS_TABLE);
const client = httpClient(Math.max(CONCURRENCY, BATCH_CONCURRENCY));
const meanBytes = events(200, 1).texts.reduce((sum, t) => sum + Buffer.byteLength(t), 0) / 200;
const headers = { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' };

try {
  console.log(`events: 1–50 KB (mean ${(meanBytes / 1024).toFixed(1)} KB); per round ${SINGLE} single requests (${CONCURRENCY} in flight), ${BATCHES} batches of ${BATCH_SIZE} (${BATCH_CONCURRENCY} in flight); ${ROUNDS} rounds, phases alternating, medians reported\n`);

  // Warm-up: JIT of the handlers, ajv and the SDK in both processes, sockets, the authorizer's key cache.
  const warm = events(WARMUP, 3);
  await timed(WARMUP, CONCURRENCY, 60, async (i) => ((await client.request(`${stack.baseUrl}/api/v1/lineage`, 'POST', headers, warm.texts[i])).status === 200 ? 1 : 0));
  await timed(WARMUP / 25, BATCH_CONCURRENCY, 60, async (i) => ((await client.request(`${stack.baseUrl}/api/v1/lineage/batch`, 'POST', headers, `[${warm.texts.slice(i * 25, i * 25 + 25).join(',')}]`)).status === 200 ? 25 : 0));
  await timed(WARMUP, CONCURRENCY, 60, async (i) => {
    await doc.send(new PutCommand({ TableName: table, Item: encodeEvent(randomUUID(), warm.records[i] as EventRecord).item }));
    return 1;
  });

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
  const record = (name: string, f: RunFigures) => (phases[name] ??= []).push(f);
  for (let round = 0; round < ROUNDS; round++) {
    const s = events(SINGLE * 3, 100 + round);
    const part = (k: number) => ({ texts: s.texts.slice(k * SINGLE, (k + 1) * SINGLE), records: s.records.slice(k * SINGLE, (k + 1) * SINGLE) });
    record('rawPut', await rawPut(part(0).records.map((r) => encodeEvent(randomUUID(), r, Number.POSITIVE_INFINITY).item)));
    record('single', await single(part(1).texts));
    record('rawPutService', await rawPut(part(2).records.map((r) => encodeEvent(randomUUID(), r).item)));
    const b = events(BATCHES * BATCH_SIZE * 3, 200 + round);
    const bpart = (k: number) => ({ texts: b.texts.slice(k * BATCHES * BATCH_SIZE, (k + 1) * BATCHES * BATCH_SIZE), records: b.records.slice(k * BATCHES * BATCH_SIZE, (k + 1) * BATCHES * BATCH_SIZE) });
    record('rawBatch', await rawBatch(bpart(0).records.map((r) => encodeEvent(randomUUID(), r, Number.POSITIVE_INFINITY).item)));
    record('batch', await batch(bpart(1).texts));
    record('rawBatchService', await rawBatch(bpart(2).records.map((r) => encodeEvent(randomUUID(), r).item)));
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
ratios of medians (target ≥ 60%):
  single-event ingest / raw PutItem (plain items)            ${pct('single', 'rawPut')}
  single-event ingest / raw PutItem (service's items)        ${pct('single', 'rawPutService')}
  batch ingest / raw BatchWriteItem items (plain items)      ${pct('batch', 'rawBatch')}
  batch ingest / raw BatchWriteItem items (service's items)  ${pct('batch', 'rawBatchService')}
${machine()}`);
} finally {
  client.close();
  dynamo.destroy();
  await stack.stop();
  rmSync(home, { recursive: true, force: true });
}
