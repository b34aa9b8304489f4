/**
 * Where the store's work per ingested event goes (`npx tsx bench/ingest-profile.ts`): the local
 * DynamoDB process's CPU per event for each part of what ingestion writes, built up one part at a
 * time on the Events table with the benchmark's events (1–50 KB, compressed as the service stores
 * them), so each part's share is the difference between two lines:
 *
 * - the base item alone (key and compressed body, no index keys);
 * - with the six listing indexes' keys (the items `bench/lineage-ingest.ts` writes raw);
 * - with the local feed's receipt index keys too (what the local profile stores);
 * - with the single event's condition (`attribute_not_exists(pk)`, idempotency, ADR 0009);
 * - the same items by BatchWriteItem of 25, and the batch path's duplicate check (BatchGetItem of
 *   the 25 keys, projected to `pk`), as `putMany` does;
 * - a large event's extra read (a consistent GetItem before its blob is written).
 *
 * Each variant writes new events; variants rotate from round to round and medians are printed.
 * Two store processes side by side, the same variants alternating between them: the local store as
 * committed, and without its expression parse cache (`LAKELINE_STORE_PARSE_CACHE=off`, the store
 * before issue 26), so the profile shows what the cache removed.
 * Options (env): BENCH_ITEMS (events per variant, round and store, default 2000), BENCH_ROUNDS (4).
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { batchGetAll, batchPutAll } from '#adapters/dynamodb/batch-ops';
import { encodeEvent } from '#adapters/dynamodb/event-item';
import { ensureTables } from '#adapters/dynamodb/table-admin';
import { createDocumentClient, localDynamoClient } from '#adapters/dynamodb/clients';
import { localTableName } from '#composition/config';
import { prepareEvent } from '#domain/lineage/derive';
import type { EventRecord } from '#domain/lineage/ports';
import { EVENTS_TABLE } from '#shared/table-definitions';
import { startLocalDynamo } from '../local/dynamo.ts';
import { tempHome } from '../test/helpers/local-stack-process.ts';
import { machine, processCpuSeconds, timed } from './bench-util.ts';
import { runEvents, seededRandom, sizeMix } from './lineage-data.ts';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 2_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const CONCURRENCY = 16;
const BATCH_CONCURRENCY = 4;

const records = (count: number, seed: number): EventRecord[] => {
  const out: EventRecord[] = [];
  for (const { text } of runEvents(seededRandom(seed), count, Date.UTC(2024, 0, 1), 86_400_000, sizeMix)) {
    const prepared = prepareEvent(JSON.parse(text), Buffer.byteLength(text), new Date());
    if (!prepared.ok) throw new Error(prepared.error);
    out.push({ event: prepared.event, rawText: text });
    if (out.length === count) break;
  }
  return out;
};

/** The base item: key and body only (no index key attributes, so no index entry). */
const BASE_ATTRIBUTES = new Set(['pk', 'doc', 'raw', 'rawGz']);
const baseOnly = (item: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(item).filter(([name]) => BASE_ATTRIBUTES.has(name)));

console.log(`ingest store profile — ${machine()}`);
const table = localTableName(EVENTS_TABLE);
const startStore = async (name: string, env: Record<string, string>) => {
  const home = tempHome('bench-ingest-profile');
  const saved = { ...process.env };
  Object.assign(process.env, env);
  const dynamo = await startLocalDynamo(home);
  for (const key of Object.keys(env)) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
  const client = localDynamoClient(dynamo.endpoint);
  await ensureTables(client, [{ def: EVENTS_TABLE, name: table }]);
  return { name, home, dynamo, client, doc: createDocumentClient(client), pid: () => dynamo.pid() ?? -1 };
};
const stores = [await startStore('no parse cache (before)', { LAKELINE_STORE_PARSE_CACHE: 'off' }), await startStore('as committed', {})];
/** The store the variants write to (set before each measurement). */
let doc = (stores[0] as (typeof stores)[number]).doc;

type Variant = (events: EventRecord[]) => Promise<number>;
const put = (itemOf: (org: string, r: EventRecord) => Record<string, unknown>, conditional = false): Variant => async (events) => {
  const org = randomUUID();
  const items = events.map((r) => itemOf(org, r));
  const f = await timed(items.length, CONCURRENCY, 120, async (i) => {
    await doc.send(new PutCommand({ TableName: table, Item: items[i], ...(conditional ? { ConditionExpression: 'attribute_not_exists(pk)' } : {}) }));
    return 1;
  });
  return f.items;
};
const batch = (feed: boolean): Variant => async (events) => {
  const org = randomUUID();
  const items = events.map((r) => encodeEvent(org, r, undefined, feed).item);
  const f = await timed(Math.ceil(items.length / 25), BATCH_CONCURRENCY, 120, async (i) => (await batchPutAll(doc, table, 'pk', items.slice(i * 25, (i + 1) * 25), 1)).filter((r) => r.ok).length);
  return f.items;
};
const check: Variant = async (events) => {
  const org = randomUUID();
  const keys = events.map((r) => ({ pk: String(encodeEvent(org, r).item.pk) }));
  const f = await timed(Math.ceil(keys.length / 25), BATCH_CONCURRENCY, 120, async (i) => {
    await batchGetAll(doc, table, 'pk', keys.slice(i * 25, (i + 1) * 25), ['pk']);
    return Math.min(25, keys.length - i * 25);
  });
  return f.items;
};
const exists: Variant = async (events) => {
  const org = randomUUID();
  const f = await timed(events.length, CONCURRENCY, 120, async (i) => {
    await doc.send(new GetCommand({ TableName: table, Key: { pk: String(encodeEvent(org, events[i] as EventRecord).item.pk) }, ProjectionExpression: 'pk', ConsistentRead: true }));
    return 1;
  });
  return f.items;
};

const variants: Record<string, Variant> = {
  'PutItem: base item only (key, compressed body)': put((org, r) => baseOnly(encodeEvent(org, r).item)),
  'PutItem: + six listing index entries': put((org, r) => encodeEvent(org, r).item),
  'PutItem: + receipt index entry (local feed)': put((org, r) => encodeEvent(org, r, undefined, true).item),
  'PutItem: + condition (single-event path)': put((org, r) => encodeEvent(org, r, undefined, true).item, true),
  'BatchWriteItem of 25: listing indexes only': batch(false),
  'BatchWriteItem of 25: + receipt index': batch(true),
  'BatchGetItem of 25 missing keys (duplicate check)': check,
  'GetItem, consistent (large event exists check)': exists,
};

const cpu: Record<string, Record<string, number[]>> = {};
try {
  // Warm-up: JIT in both processes, sockets, LevelDB's first files.
  for (const store of stores) {
    doc = store.doc;
    await put((org, r) => encodeEvent(org, r, undefined, true).item)(records(500, 1));
  }
  const names = Object.keys(variants);
  for (let round = 0; round < ROUNDS; round++) {
    const events = records(ITEMS * names.length * stores.length, 100 + round);
    for (let k = 0; k < names.length; k++) {
      const index = (round + k) % names.length;
      const name = names[index] as string;
      for (const [j, store] of (round % 2 === 0 ? stores : [...stores].reverse()).entries()) {
        doc = store.doc;
        await new Promise((r) => setTimeout(r, 1_000));
        const before = processCpuSeconds(store.pid()) ?? NaN;
        const offset = (index * stores.length + j) * ITEMS;
        const items = await (variants[name] as Variant)(events.slice(offset, offset + ITEMS));
        ((cpu[name] ??= {})[store.name] ??= []).push((((processCpuSeconds(store.pid()) ?? NaN) - before) * 1e6) / items);
      }
    }
    console.log(`round ${round + 1} of ${ROUNDS} done — ${machine()}`);
  }
  const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  const m = (name: string, store: string) => median(cpu[name]?.[store] ?? []);
  console.log(`\nstore CPU per event (µs, median of ${ROUNDS} rounds of ${ITEMS} events; 1–50 KB events, compressed):`);
  console.log(`  ${''.padEnd(52)} ${stores.map((st) => st.name.padStart(24)).join(' ')}`);
  for (const name of names) console.log(`  ${name.padEnd(52)} ${stores.map((st) => `${m(name, st.name).toFixed(0)} µs`.padStart(24)).join(' ')}`);
  for (const store of stores) {
    const [base, indexed, receipt, conditional, batchPlain, batchFeed, dupCheck, blobCheck] = names.map((name) => m(name, store.name)) as number[];
    const batchEvent = (batchFeed as number) + (dupCheck as number);
    console.log(`
shares of the service's store work per event, ${store.name} (differences of the lines above):
  single event (${(conditional as number).toFixed(0)} µs): base item ${pct(base as number, conditional as number)}, six listing indexes ${pct((indexed as number) - (base as number), conditional as number)}, receipt index ${pct((receipt as number) - (indexed as number), conditional as number)}, condition ${pct((conditional as number) - (receipt as number), conditional as number)}
  batched event (${batchEvent.toFixed(0)} µs): write without receipt index ${pct(batchPlain as number, batchEvent)}, receipt index ${pct((batchFeed as number) - (batchPlain as number), batchEvent)}, duplicate check ${pct(dupCheck as number, batchEvent)}
  a large event's exists check: ${(blobCheck as number).toFixed(0)} µs (none in this mix: the largest event is 50 KB, bodies move to the object store above 350 KB)`);
  }
  console.log(machine());
} finally {
  for (const store of stores) {
    store.client.destroy();
    await store.dynamo.stop();
    rmSync(store.home, { recursive: true, force: true });
  }
}

function pct(part: number, whole: number): string {
  return `${((100 * part) / whole).toFixed(0)}%`;
}
