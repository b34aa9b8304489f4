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
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchGetAll, batchPutAll } from '#adapters/dynamodb/batch-ops';
import { encodeEvent } from '#adapters/dynamodb/event-item';
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

const startStore = async (name: string, tuning: boolean): Promise<Store> => {
  const home = tempHome(`bench-store-${name}`);
  const saved = process.env.LAKELINE_STORE_TUNING;
  if (!tuning) process.env.LAKELINE_STORE_TUNING = 'off';
  const dynamo = await startLocalDynamo(home);
  if (saved === undefined) delete process.env.LAKELINE_STORE_TUNING;
  else process.env.LAKELINE_STORE_TUNING = saved;
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
