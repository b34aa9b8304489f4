/**
 * Listing benchmark (`npx tsx bench/lineage-list.ts`): p50/p95 latency of one page of 30 from
 * `GET /api/v1/events` through the local gateway, per access path (time DESC/ASC, size DESC, a
 * state filter, a run filter, a job substring), first over 20,000 stored events and then over
 * 200,000 (several orgs, one holding 85% of them). Events are loaded through the event store's
 * batch path (as `POST /api/v1/lineage/batch` stores them, without HTTP). Loopback only; bounded
 * request counts.
 *
 * Options (env): BENCH_TOTAL (default 200000), BENCH_FIRST (default 20000), BENCH_REQUESTS
 * (requests per path, default 100), BENCH_HOME (keep the loaded stack's state there; a later run
 * with the same BENCH_HOME and BENCH_TOTAL skips loading and measures the full size only).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DirectoryBlobStore } from '#adapters/blob/directory-blob-store';
import { DynamoEventStore } from '#adapters/dynamodb/event-store';
import { prepareEvent } from '#domain/lineage/derive';
import type { EventRecord } from '#domain/lineage/ports';
import { createDocumentClient, localDynamoClient } from '#adapters/dynamodb/clients';
import { localTableName } from '#composition/config';
import { EVENTS_TABLE } from '#shared/table-definitions';
import { randomUUID } from 'node:crypto';
import { startStackProcess, tempHome } from '../test/helpers/local-stack-process.ts';
import { httpClient, machine, quantile } from './bench-util.ts';
import { seededRandom, runEvents } from './lineage-data.ts';

const TOTAL = Number(process.env.BENCH_TOTAL ?? 200_000);
const FIRST = Number(process.env.BENCH_FIRST ?? 20_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 100);
const FROM_MS = Date.UTC(2024, 0, 1);
const SPAN_MS = 30 * 86_400_000;
/** The main org holds this share; the rest is split over three other orgs. */
const MAIN_SHARE = 0.85;

console.log(`lineage listing benchmark — ${machine()}`);
const keep = process.env.BENCH_HOME;
const home = keep ?? tempHome('bench-list');
if (keep) mkdirSync(keep, { recursive: true });
const marker = path.join(home, 'bench-loaded.json');
const previous = existsSync(marker) ? (JSON.parse(readFileSync(marker, 'utf8')) as { total: number; orgs: string[]; runSample: string[] }) : undefined;
const stack = await startStackProcess(home);
const dynamo = localDynamoClient(stack.dynamodbEndpoint);
const doc = createDocumentClient(dynamo);
const store = new DynamoEventStore(doc, localTableName(EVENTS_TABLE), () => new DirectoryBlobStore(path.join(home, 'blobs')), { writeConcurrency: 8 });
const client = httpClient(4);
const headers = { authorization: `Bearer ${stack.apiKey}` };
const orgs = previous?.total === TOTAL ? previous.orgs : [stack.orgId, randomUUID(), randomUUID(), randomUUID()];
const loaded = new Map<string, number>(orgs.map((o) => [o, 0]));
const runSample: string[] = previous?.total === TOTAL ? previous.runSample : [];
const random = seededRandom(2024);

/** Small events for the listing data set (0.5–3 KB): listing reads index entries, not bodies. */
const smallSize = (r: () => number) => 500 + Math.floor(r() * 2_500);

/** Loads events into an org until it holds `target`, through BatchWriteItem of 25 (8 in flight). */
const loadOrg = async (orgId: string, target: number): Promise<void> => {
  const events = runEvents(random, Number.MAX_SAFE_INTEGER, FROM_MS, SPAN_MS, smallSize);
  while ((loaded.get(orgId) ?? 0) < target) {
    const records: EventRecord[] = [];
    const want = Math.min(2_000, target - (loaded.get(orgId) ?? 0));
    while (records.length < want) {
      const { shape, text } = events.next().value as { shape: { runId: string }; text: string };
      const prepared = prepareEvent(JSON.parse(text), Buffer.byteLength(text), new Date());
      if (!prepared.ok) throw new Error(prepared.error);
      records.push({ event: prepared.event, rawText: text });
      if (orgId === stack.orgId && records.length % 50 === 0 && runSample.length < 2_000) runSample.push(shape.runId);
    }
    const outcomes = await store.putMany(orgId, records);
    if (outcomes.some((o) => !o.ok)) throw new Error('load: some events were not written');
    loaded.set(orgId, (loaded.get(orgId) ?? 0) + records.length);
  }
};

const loadTo = async (total: number): Promise<void> => {
  const t0 = performance.now();
  const before = [...loaded.values()].reduce((a, b) => a + b, 0);
  await loadOrg(stack.orgId, Math.round(total * MAIN_SHARE));
  for (const org of orgs.slice(1)) await loadOrg(org, Math.round((total * (1 - MAIN_SHARE)) / 3));
  const after = [...loaded.values()].reduce((a, b) => a + b, 0);
  const seconds = (performance.now() - t0) / 1_000;
  console.log(`loaded ${after - before} events in ${seconds.toFixed(1)} s (${((after - before) / seconds).toFixed(0)} items/s); now ${after} stored, ${loaded.get(stack.orgId)} in the measured org`);
};

/** A random `end` inside the data's span, so pages come from everywhere in the history. */
const randomEnd = () => String(Math.floor((FROM_MS + 86_400_000 + random() * (SPAN_MS - 86_400_000)) / 1_000));
const randomStart = () => String(Math.floor((FROM_MS + random() * (SPAN_MS - 86_400_000)) / 1_000));
const FAR = String(Math.floor((FROM_MS + 2 * SPAN_MS) / 1_000));

const PATHS: readonly [string, () => Record<string, string>][] = [
  ['time DESC', () => ({ start: '0', end: randomEnd() })],
  ['time ASC', () => ({ start: randomStart(), end: FAR, order: 'ASC' })],
  ['size DESC', () => ({ start: '0', end: randomEnd(), sort_by: 'EVENT_SIZE_IN_BYTES' })],
  ['state filter (FAIL)', () => ({ start: '0', end: randomEnd(), states: 'FAIL' })],
  ['run filter', () => ({ start: '0', end: FAR, run: runSample[Math.floor(random() * runSample.length)] as string })],
  ['job substring (orders)', () => ({ start: '0', end: randomEnd(), job: 'orders' })],
  ['time DESC, offset 990', () => ({ start: '0', end: randomEnd(), offset: '990' })],
  // Selective filters over the whole window: one namespace or one job holds about 0.1% of the events.
  ['namespace 0.1% + 2 states', () => ({ start: '0', end: FAR, namespace: `ns_tail_${10 + Math.floor(random() * 90)}`, states: 'COMPLETE,FAIL' })],
  ['namespace 0.1% + 3 states', () => ({ start: '0', end: FAR, namespace: `ns_tail_${10 + Math.floor(random() * 90)}`, states: 'START,COMPLETE,FAIL' })],
  ['job 0.1% (full name)', () => ({ start: '0', end: FAR, job: `task_${100 + Math.floor(random() * 900)}` })],
  ['job 0.1% + state FAIL', () => ({ start: '0', end: FAR, job: `task_${100 + Math.floor(random() * 900)}`, states: 'FAIL' })],
  ['page 1,000 (offset 29,970)', () => ({ start: '0', end: FAR, offset: '29970' })],
];

const measure = async (label: string): Promise<void> => {
  console.log(`\n${label}: p50 / p95 / max of one page of 30, ${REQUESTS} requests per path, one client`);
  for (const [name, params] of PATHS) {
    // Two unmeasured requests first: the path's handler code and index partitions are warm.
    for (let i = 0; i < 2; i++) await client.request(`${stack.baseUrl}/api/v1/events?${new URLSearchParams(params())}`, 'GET', headers);
    const latencies: number[] = [];
    let returned = 0;
    for (let i = 0; i < REQUESTS; i++) {
      const url = `${stack.baseUrl}/api/v1/events?${new URLSearchParams(params())}`;
      const t0 = performance.now();
      const out = await client.request(url, 'GET', headers);
      latencies.push(performance.now() - t0);
      if (out.status !== 200) throw new Error(`${name}: HTTP ${out.status} ${out.body.slice(0, 200)}`);
      returned += (JSON.parse(out.body) as unknown[]).length;
    }
    latencies.sort((a, b) => a - b);
    console.log(
      `  ${name.padEnd(24)} p50 ${quantile(latencies, 0.5).toFixed(1).padStart(6)} ms   p95 ${quantile(latencies, 0.95).toFixed(1).padStart(6)} ms   max ${(latencies.at(-1) ?? NaN).toFixed(1).padStart(6)} ms   (${(returned / REQUESTS).toFixed(1)} events/page)`,
    );
  }
};

try {
  if (previous?.total !== TOTAL) {
    await loadTo(FIRST);
    await measure(`${FIRST} events`);
    await loadTo(TOTAL);
    if (keep) writeFileSync(marker, JSON.stringify({ total: TOTAL, orgs, runSample }));
  }
  await measure(`${TOTAL} events`);
  console.log(`\n${machine()}`);
} finally {
  client.close();
  dynamo.destroy();
  await stack.stop();
  if (!keep) rmSync(home, { recursive: true, force: true });
}
