/**
 * Local store benchmark (`npx tsx bench/local-store.ts`): the CPU the local DynamoDB process
 * (dynalite) spends per item, with the store process's tuning (local/dynalite-tuning.cjs: table
 * descriptions in memory, native response checksum) and without it (`LAKELINE_STORE_TUNING=off`),
 * side by side: two store processes, the same operations, rounds alternating between them.
 *
 * Operations, on the Events table with the service's own items (compressed events, 1–50 KB, all
 * seven index keys) and on the Lineage table with 2 KB records: BatchWriteItem of 25, BatchGetItem
 * of 100 existing keys, BatchGetItem of 25 missing keys projected to `pk` (ingestion's duplicate
 * check), conditional PutItem, UpdateItem. Options (env): BENCH_ITEMS (per operation and round,
 * default 5000), BENCH_ROUNDS (4).
 *
 * `npx tsx bench/local-store.ts memory`: the store process's resident memory under a mixed load
 * (BatchWriteItem of events, and listing-like Queries of 20 entries on the time and namespace
 * indexes) with dynalite's LevelDB iterators closed when it releases them
 * (local/dynalite-iterators.cjs) and left open as dynalite ships (`LAKELINE_STORE_ITERATOR_FIX=off`):
 * two store processes under the same load at the same time, RSS every 10 s, then after an idle
 * pause. Options (env): BENCH_SECONDS (60), BENCH_WRITERS and BENCH_READERS per store (1 and 2),
 * BENCH_PREPARED (events made per writer before the clock starts, 15000).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchGetAll, batchPutAll } from '#adapters/dynamodb/batch-ops';
import { encodeEvent, namespaceKey, shardKey, SHARD_COUNT } from '#adapters/dynamodb/event-item';
import { ensureTables } from '#adapters/dynamodb/table-admin';
import { createDocumentClient, localDynamoClient } from '#adapters/dynamodb/clients';
import { prepareEvent } from '#domain/lineage/derive';
import { EVENTS_TABLE, LINEAGE_TABLE } from '#shared/table-definitions';
import { startLocalDynamo, type LocalDynamo } from '../local/dynamo.ts';
import { tempHome } from '../test/helpers/local-stack-process.ts';
import { machine, processCpuSeconds, timed } from './bench-util.ts';
import { runEvents, seededRandom, sizeMix } from './lineage-data.ts';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 5_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const EVENTS = 'bench-events';
const LINEAGE = 'bench-lineage';

interface Store {
  readonly name: string;
  readonly dynamo: LocalDynamo;
  readonly doc: DynamoDBDocumentClient;
  readonly destroy: () => void;
  readonly pid: number;
  readonly lineageKeys: { pk: string; sk: string }[];
}

const startStore = async (name: string, tuning: boolean, env: Record<string, string> = {}): Promise<Store> => {
  const home = tempHome(`bench-store-${name.replace(/\W+/g, '-')}`);
  const saved = { ...process.env };
  if (!tuning) process.env.LAKELINE_STORE_TUNING = 'off';
  Object.assign(process.env, env);
  const dynamo = await startLocalDynamo(home);
  for (const key of ['LAKELINE_STORE_TUNING', ...Object.keys(env)]) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
  const client = localDynamoClient(dynamo.endpoint);
  await ensureTables(client, [
    { def: EVENTS_TABLE, name: EVENTS },
    { def: LINEAGE_TABLE, name: LINEAGE },
  ]);
  return {
    name,
    dynamo,
    doc: createDocumentClient(client),
    pid: dynamo.pid() ?? -1,
    lineageKeys: [],
    destroy: () => {
      client.destroy();
      rmSync(home, { recursive: true, force: true });
    },
  };
};

const eventItems = (count: number, seed: number): Record<string, unknown>[] => {
  const out: Record<string, unknown>[] = [];
  for (const { text } of runEvents(seededRandom(seed), count, Date.UTC(2024, 0, 1), 30 * 86_400_000, sizeMix)) {
    const prepared = prepareEvent(JSON.parse(text), Buffer.byteLength(text), new Date());
    if (!prepared.ok) throw new Error(prepared.error);
    out.push(encodeEvent('bench-org', { event: prepared.event, rawText: text }).item);
    if (out.length === count) break;
  }
  return out;
};

/** The operations, each over ITEMS items; the work function answers the items it handled. */
const operations: Record<string, (store: Store, round: number) => Promise<number>> = {
  'BatchWriteItem of 25 events': async (store, round) => {
    const items = eventItems(ITEMS, 10 + round);
    await timed(Math.ceil(items.length / 25), 4, 300, async (i) => (await batchPutAll(store.doc, EVENTS, 'pk', items.slice(i * 25, i * 25 + 25), 1)).length);
    return items.length;
  },
  'BatchGetItem of 25 missing keys, pk only': async (store) => {
    await timed(Math.ceil(ITEMS / 25), 4, 300, async () => {
      await batchGetAll(store.doc, EVENTS, 'pk', Array.from({ length: 25 }, () => ({ pk: `bench-org#${randomUUID()}` })), ['pk']);
      return 25;
    });
    return ITEMS;
  },
  'PutItem of 2 KB records, conditional': async (store) => {
    await timed(ITEMS, 16, 300, async () => {
      const key = { pk: `bench#D#${randomUUID()}`, sk: 'DS' };
      await store.doc.send(new PutCommand({ TableName: LINEAGE, Item: { ...key, bj: 'x'.repeat(2_000), rev: 1 }, ConditionExpression: 'attribute_not_exists(pk)' }));
      store.lineageKeys.push(key);
      return 1;
    });
    return ITEMS;
  },
  'UpdateItem of a record (SET, condition on rev)': async (store) => {
    await timed(ITEMS, 16, 300, async (i) => {
      const key = store.lineageKeys[i % store.lineageKeys.length] as { pk: string; sk: string };
      await store.doc.send(new UpdateCommand({ TableName: LINEAGE, Key: key, UpdateExpression: 'SET t = :t', ConditionExpression: 'attribute_exists(rev)', ExpressionAttributeValues: { ':t': i } }));
      return 1;
    });
    return ITEMS;
  },
  'BatchGetItem of 100 records': async (store) => {
    await timed(Math.ceil(ITEMS / 100), 4, 300, async () => {
      const keys = new Map<string, { pk: string; sk: string }>();
      while (keys.size < 100) {
        const key = store.lineageKeys[Math.floor(Math.random() * store.lineageKeys.length)] as { pk: string; sk: string };
        keys.set(key.pk, key);
      }
      return (await batchGetAll(store.doc, LINEAGE, 'pk', [...keys.values()])).size;
    });
    return ITEMS;
  },
};

/** Resident memory of a process, in MB. */
const rssMb = (pid: number): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

/** The memory mode: two stores, iterators closed and as dynalite ships, under the same mixed load at once. */
const memory = async (): Promise<void> => {
  const seconds = Number(process.env.BENCH_SECONDS ?? 60);
  const writers = Number(process.env.BENCH_WRITERS ?? 1);
  const readers = Number(process.env.BENCH_READERS ?? 2);
  console.log(`local store memory — ${machine()}`);
  console.log(`${seconds} s of mixed load per store, both stores at once: ${writers} writer(s) of BatchWriteItem of 25 events, ${readers} reader(s) of Queries of 20 entries (time index, newest first; namespace index with a filter)\n`);
  const stores = [await startStore('iterators closed', true), await startStore('as shipped', true, { LAKELINE_STORE_ITERATOR_FIX: 'off' })];
  try {
    // Items made before the clock starts, so the load is the store's, not the making of items.
    const prepared = new Map<string, Record<string, unknown>[]>();
    stores.forEach((_, i) => Array.from({ length: writers }, (__, w) => prepared.set(`${i + 1}/${w}`, eventItems(Number(process.env.BENCH_PREPARED ?? 15_000), (i + 1) * 1_000 + w * 100))));
    const end = Date.now() + seconds * 1_000;
    const counts = new Map(stores.map((store) => [store.name, { items: 0, queries: 0 }]));
    const load = (store: Store, seed: number) => {
      const count = counts.get(store.name) as { items: number; queries: number };
      const writer = async (w: number) => {
        for (let round = 0; Date.now() < end; round++) {
          const items = round === 0 ? (prepared.get(`${seed}/${w}`) as Record<string, unknown>[]) : eventItems(1_000, seed * 1_000 + w * 100 + round);
          for (let i = 0; i < items.length && Date.now() < end; i += 25) count.items += (await batchPutAll(store.doc, EVENTS, 'pk', items.slice(i, i + 25), 1)).length;
        }
      };
      const reader = async (r: number) => {
        for (let q = r; Date.now() < end; q++) {
          const shard = q % SHARD_COUNT;
          const byNamespace = q % 2 === 1;
          await store.doc.send(
            new QueryCommand({
              TableName: EVENTS,
              IndexName: byNamespace ? 'byNamespace' : 'byTime',
              KeyConditionExpression: byNamespace ? 'namespaceKey = :p' : 'shardKey = :p',
              ...(byNamespace ? { FilterExpression: 'runState <> :s', ExpressionAttributeValues: { ':p': namespaceKey('bench-org', `ns_${q % 20}`, shard), ':s': 'OTHER' } } : { ExpressionAttributeValues: { ':p': shardKey('bench-org', shard) } }),
              ScanIndexForward: false,
              Limit: 20,
            }),
          );
          count.queries++;
        }
      };
      return [...Array.from({ length: writers }, (_, w) => writer(w)), ...Array.from({ length: readers }, (_, r) => reader(r))];
    };
    const row = (label: string) =>
      console.log(`${label.padEnd(22)} ${stores.map((store) => `${store.name}: ${rssMb(store.pid).toFixed(0).padStart(5)} MB (${String(counts.get(store.name)?.items).padStart(6)} items, ${String(counts.get(store.name)?.queries).padStart(6)} queries)`).join('   ')}`);
    row('start');
    const started = Date.now();
    const sampler = setInterval(() => row(`after ${Math.round((Date.now() - started) / 1_000)} s`), 10_000);
    await Promise.all(stores.flatMap((store, i) => load(store, i + 1)));
    clearInterval(sampler);
    row(`end (${seconds} s)`);
    await new Promise((resolve) => setTimeout(resolve, 15_000));
    row('after 15 s idle');
    console.log(`\n${machine()}`);
  } finally {
    for (const store of stores) {
      await store.dynamo.stop();
      store.destroy();
    }
  }
};

if (process.argv[2] === 'memory') {
  await memory();
  process.exit(0);
}

console.log(`local store benchmark — ${machine()}`);
console.log(`${ITEMS} items per operation and round, ${ROUNDS} rounds alternating between the two store processes; store CPU per item, median of rounds\n`);
const stores = [await startStore('as shipped', false), await startStore('tuned', true)];
const cpu: Record<string, Record<string, number[]>> = {};
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const [op, run] of Object.entries(operations)) {
      for (const store of round % 2 === 0 ? stores : [...stores].reverse()) {
        await new Promise((r) => setTimeout(r, 1_000));
        const before = processCpuSeconds(store.pid) ?? NaN;
        const items = await run(store, round);
        ((cpu[op] ??= {})[store.name] ??= []).push((((processCpuSeconds(store.pid) ?? NaN) - before) * 1e6) / items);
      }
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  console.log(`${'operation'.padEnd(48)} ${'as shipped'.padStart(12)} ${'tuned'.padStart(12)}  change`);
  for (const [op, byStore] of Object.entries(cpu)) {
    const a = median(byStore['as shipped'] ?? []);
    const b = median(byStore.tuned ?? []);
    console.log(`${op.padEnd(48)} ${`${a.toFixed(0)} µs`.padStart(12)} ${`${b.toFixed(0)} µs`.padStart(12)}  ${(((b - a) / a) * 100).toFixed(0)}%`);
  }
  console.log(`\n${machine()}`);
} finally {
  for (const store of stores) {
    await store.dynamo.stop();
    store.destroy();
  }
}
