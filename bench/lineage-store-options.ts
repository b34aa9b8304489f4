/**
 * Measurements behind the event store's choices (`npx tsx bench/lineage-store-options.ts`), against
 * a local DynamoDB of its own: (1) what gzip costs and saves on 1–50 KB events, (2) the PutItem
 * rate with different compression thresholds, (3) two ways of making batch writes idempotent —
 * BatchGetItem of the keys then BatchWriteItem of the new ones (what the store does) against
 * conditional PutItems in parallel. Loopback only; bounded counts.
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { encodeEvent } from '#adapters/dynamodb/event-item';
import { DynamoEventStore } from '#adapters/dynamodb/event-store';
import { mapConcurrent } from '#adapters/dynamodb/batch-ops';
import { prepareEvent } from '#domain/lineage/derive';
import type { BlobStore, EventRecord } from '#domain/lineage/ports';
import { createDocumentClient, localDynamoClient } from '#adapters/dynamodb/clients';
import { localTableName } from '#composition/config';
import { EVENTS_TABLE } from '#shared/table-definitions';
import { startLocalDynamo } from '../local/dynamo.ts';
import { tempHome } from '../test/helpers/local-stack-process.ts';
import { line, machine, timed } from './bench-util.ts';
import { seededRandom, runEvents, sizeMix } from './lineage-data.ts';

const COUNT = Number(process.env.BENCH_COUNT ?? 1_500);
const CONCURRENCY = 16;

const records = (count: number, seed: number, sizeOf = sizeMix): EventRecord[] => {
  const out: EventRecord[] = [];
  for (const { text } of runEvents(seededRandom(seed), count, Date.UTC(2024, 0, 1), 86_400_000, sizeOf)) {
    const prepared = prepareEvent(JSON.parse(text), Buffer.byteLength(text), new Date());
    if (!prepared.ok) throw new Error(prepared.error);
    out.push({ event: prepared.event, rawText: text });
    if (out.length === count) break;
  }
  return out;
};

/** An item's size as DynamoDB counts it (names plus string and binary lengths). */
const itemBytes = (item: Record<string, unknown>): number =>
  Object.entries(item).reduce((sum, [name, value]) => sum + name.length + (typeof value === 'string' ? Buffer.byteLength(value) : value instanceof Uint8Array ? value.length : 8), 0);

console.log(`event store options — ${machine()}\n`);

// 1. gzip on its own.
console.log('gzip of one event (CPU on this machine, size after):');
// Warm-up, so the first figure does not carry the JIT's and zlib's start-up.
for (const r of records(100, 99)) gzipSync(r.rawText, { level: 1 });
for (const kb of [1, 4, 16, 50]) {
  const sample = records(50, kb, () => kb * 1_024);
  for (const level of [1, 6]) {
    const t0 = performance.now();
    let out = 0;
    for (let round = 0; round < 4; round++) for (const r of sample) out += gzipSync(r.rawText, { level }).length;
    const micros = ((performance.now() - t0) * 1_000) / (4 * sample.length);
    const ratio = out / 4 / sample.reduce((s, r) => s + r.rawText.length, 0);
    console.log(`  ${String(kb).padStart(2)} KB, level ${level}: ${micros.toFixed(0).padStart(4)} µs, ${(100 * ratio).toFixed(0)}% of the size`);
  }
}

const home = tempHome('bench-options');
const dynamo = await startLocalDynamo(home);
const client = localDynamoClient(dynamo.endpoint);
const doc = createDocumentClient(client);
const table = localTableName(EVENTS_TABLE);
const noBlobs = (): BlobStore => {
  throw new Error('no large events in this benchmark');
};

try {
  // 2. PutItem rate by compression threshold.
  console.log(`\nPutItem of ${COUNT} events of 1–50 KB, ${CONCURRENCY} in flight, by compression threshold:`);
  const mix = records(COUNT, 7);
  for (const threshold of [Number.POSITIVE_INFINITY, 16_384, 4_096, 1_024]) {
    const org = randomUUID();
    const t0 = performance.now();
    const items = mix.map((r) => encodeEvent(org, r, threshold).item);
    const encodeMs = performance.now() - t0;
    const bytes = items.reduce((s, item) => s + itemBytes(item), 0) / items.length;
    const figures = await timed(items.length, CONCURRENCY, 60, async (i) => {
      await doc.send(new PutCommand({ TableName: table, Item: items[i], ConditionExpression: 'attribute_not_exists(pk)' }));
      return 1;
    });
    const label = threshold === Number.POSITIVE_INFINITY ? 'never compressed' : `compressed from ${threshold} B`;
    console.log(`  ${line(`${label} (mean item ${(bytes / 1_024).toFixed(1)} KB, encode ${((encodeMs * 1_000) / items.length).toFixed(0)} µs/event)`, figures)}`);
  }

  // 3. Idempotent batches.
  console.log(`\nbatches of 25 new events, 4 batches in flight:`);
  const store = new DynamoEventStore(doc, table, noBlobs);
  const batchRecords = records(COUNT * 2, 11);
  const batches = (offset: number) => Array.from({ length: Math.floor(COUNT / 25) }, (_, i) => batchRecords.slice(offset + i * 25, offset + (i + 1) * 25));
  const checked = batches(0);
  const checkOrg = randomUUID();
  console.log(
    `  ${line('BatchGetItem, then BatchWriteItem of the new', await timed(checked.length, 4, 60, async (i) => (await store.putMany(checkOrg, checked[i] as EventRecord[])).filter((o) => o.ok).length))}`,
  );
  const conditional = batches(COUNT);
  const conditionalOrg = randomUUID();
  console.log(
    `  ${line('conditional PutItem ×25 in parallel', await timed(conditional.length, 4, 60, async (i) => {
      const outcomes = await mapConcurrent(conditional[i] as EventRecord[], 25, (r) => store.put(conditionalOrg, r));
      return outcomes.length;
    }))}`,
  );
  console.log(`  ${line('resending the same batches (all duplicates), check first', await timed(checked.length, 4, 60, async (i) => (await store.putMany(checkOrg, checked[i] as EventRecord[])).length))}`);
  console.log(`\n${machine()}`);
} finally {
  client.destroy();
  await dynamo.stop();
  rmSync(home, { recursive: true, force: true });
}
