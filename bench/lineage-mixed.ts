/**
 * Mixed-load benchmark (`npx tsx bench/lineage-mixed.ts`): the events API under ingestion and
 * listing at once, as a busy deployment sees it. An org is loaded with events (default 70,000,
 * through the event store's batch path), then 16 clients send requests for a fixed time: 80%
 * single-event ingests, 20% listings (a mix of the time order, a state, a job substring, and the
 * selective filters — a namespace or job holding about 0.1% of the events, with states, over the
 * whole window). Prints listing and ingest p50/p95/p99 and the local store's resident memory
 * before, at its peak and after. Loopback only; bounded in time.
 *
 * Options (env): BENCH_EVENTS (70000), BENCH_SECONDS (120), BENCH_CLIENTS (16), BENCH_LIST_SHARE (0.2).
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { DirectoryBlobStore } from '#adapters/blob/directory-blob-store';
import { DynamoEventStore } from '#adapters/dynamodb/event-store';
import { prepareEvent } from '#domain/lineage/derive';
import type { EventRecord } from '#domain/lineage/ports';
import { createDocumentClient, localDynamoClient } from '#adapters/dynamodb/clients';
import { localTableName } from '#composition/config';
import { EVENTS_TABLE } from '#shared/table-definitions';
import { startStackProcess, tempHome } from '../test/helpers/local-stack-process.ts';
import { childPids, httpClient, machine, quantile } from './bench-util.ts';
import { runEvents, seededRandom } from './lineage-data.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 70_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 120);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 16);
const LIST_SHARE = Number(process.env.BENCH_LIST_SHARE ?? 0.2);
const FROM_MS = Date.UTC(2024, 0, 1);
const SPAN_MS = 30 * 86_400_000;
const FAR = String(Math.floor((FROM_MS + 2 * SPAN_MS) / 1_000));

/** Resident memory of a process in MB (Linux), or NaN once it has gone. */
const rssMb = (pid: number): number => {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? Number.NaN : Number(kb) / 1024;
  } catch {
    return Number.NaN;
  }
};

console.log(`lineage mixed-load benchmark — ${machine()}`);
const home = tempHome('bench-mixed');
const stack = await startStackProcess(home);
const dynamo = localDynamoClient(stack.dynamodbEndpoint);
const store = new DynamoEventStore(createDocumentClient(dynamo), localTableName(EVENTS_TABLE), () => new DirectoryBlobStore(path.join(home, 'blobs')), { writeConcurrency: 8 });
const storePid = childPids(stack.child.pid as number)[0] as number;
const random = seededRandom(7);
const small = (r: () => number) => 500 + Math.floor(r() * 2_500);

try {
  // Load.
  const t0 = performance.now();
  const events = runEvents(random, Number.MAX_SAFE_INTEGER, FROM_MS, SPAN_MS, small);
  for (let loaded = 0; loaded < EVENTS; ) {
    const records: EventRecord[] = [];
    while (records.length < Math.min(2_000, EVENTS - loaded)) {
      const { text } = events.next().value as { text: string };
      const prepared = prepareEvent(JSON.parse(text), Buffer.byteLength(text), new Date());
      if (!prepared.ok) throw new Error(prepared.error);
      records.push({ event: prepared.event, rawText: text });
    }
    if ((await store.putMany(stack.orgId, records)).some((o) => !o.ok)) throw new Error('load failed');
    loaded += records.length;
  }
  console.log(`loaded ${EVENTS} events in ${((performance.now() - t0) / 1000).toFixed(1)} s; store RSS ${rssMb(storePid).toFixed(0)} MB`);

  // Mixed load.
  const client = httpClient(CLIENTS);
  const headers = { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' };
  const listings: readonly (readonly [string, () => Record<string, string>])[] = [
    ['time', () => ({ start: '0', end: FAR })],
    ['state', () => ({ start: '0', end: FAR, states: 'FAIL' })],
    ['job substring', () => ({ start: '0', end: FAR, job: 'orders' })],
    ['selective namespace + 2 states', () => ({ start: '0', end: FAR, namespace: `ns_tail_${10 + Math.floor(random() * 90)}`, states: 'COMPLETE,FAIL' })],
    ['selective namespace + 3 states', () => ({ start: '0', end: FAR, namespace: `ns_tail_${10 + Math.floor(random() * 90)}`, states: 'START,COMPLETE,FAIL' })],
    ['selective job', () => ({ start: '0', end: FAR, job: `task_${100 + Math.floor(random() * 900)}` })],
  ];
  const byKind = new Map<string, number[]>(listings.map(([kind]) => [kind, []]));
  const live = runEvents(seededRandom(8), Number.MAX_SAFE_INTEGER, FROM_MS, SPAN_MS, small);
  const listLatency: number[] = [];
  const ingestLatency: number[] = [];
  let errors = 0;
  const rssBefore = rssMb(storePid);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMb(storePid))), 500);
  const deadline = performance.now() + SECONDS * 1000;
  const worker = async (): Promise<void> => {
    while (performance.now() < deadline) {
      const listing = random() < LIST_SHARE;
      const [kind, params] = listings[Math.floor(random() * listings.length)] as (typeof listings)[number];
      const started = performance.now();
      const out = listing
        ? await client.request(`${stack.baseUrl}/api/v1/events?${new URLSearchParams(params())}`, 'GET', headers)
        : await client.request(`${stack.baseUrl}/api/v1/lineage`, 'POST', headers, (live.next().value as { text: string }).text);
      (listing ? listLatency : ingestLatency).push(performance.now() - started);
      if (listing) byKind.get(kind)?.push(performance.now() - started);
      if (out.status !== 200) errors += 1;
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, worker));
  clearInterval(sampler);
  client.close();
  listLatency.sort((a, b) => a - b);
  ingestLatency.sort((a, b) => a - b);
  const line = (name: string, l: number[]) =>
    `  ${name.padEnd(34)} ${String(l.length).padStart(6)} requests  p50 ${quantile(l, 0.5).toFixed(0).padStart(6)} ms  p95 ${quantile(l, 0.95).toFixed(0).padStart(6)} ms  p99 ${quantile(l, 0.99).toFixed(0).padStart(6)} ms`;
  console.log(`\n${SECONDS} s of ${CLIENTS} clients, ${(LIST_SHARE * 100).toFixed(0)}% listing, over ${EVENTS} stored events:`);
  console.log(line('listing', listLatency));
  for (const [kind, latencies] of byKind) console.log(line(`  ${kind}`, latencies.sort((a, b) => a - b)));
  console.log(line('ingest', ingestLatency));
  console.log(`  non-200 answers: ${errors}`);
  console.log(`  store RSS: ${rssBefore.toFixed(0)} MB before, ${rssPeak.toFixed(0)} MB at peak, ${rssMb(storePid).toFixed(0)} MB after`);
  console.log(`\n${machine()}`);
} finally {
  dynamo.destroy();
  await stack.stop();
  rmSync(home, { recursive: true, force: true });
}
