/**
 * The local store's start-up repair (local/store-repair.cjs, run by local/dynamo-process.cjs): a
 * store left with index entries whose item never landed — what dynalite leaves when killed between
 * writing an item's index entries and the item — serves none of them after its next start, and
 * keeps every entry an item backs. It runs only when the last run of the store did not close it.
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { DirectoryBlobStore } from '#adapters/blob/directory-blob-store';
import { createDocumentClient, localDynamoClient } from '#adapters/dynamodb/clients';
import { namespaceKey, shardOf } from '#adapters/dynamodb/event-item';
import { DynamoEventStore } from '#adapters/dynamodb/event-store';
import { localTableName } from '#composition/config';
import { prepareEvent } from '#domain/lineage/derive';
import { parseListQuery } from '#domain/lineage/list-query';
import { foldForSearch } from '#domain/lineage/search-fold';
import { EVENTS_TABLE } from '#shared/table-definitions';
import { startLocalDynamo, type LocalDynamo } from '../../../local/dynamo.ts';
import { dataset } from '../../adapters/lineage-fixtures.ts';
import { tempHome } from '../../helpers/local-stack-process.ts';

const require = createRequire(import.meta.url);
const dynaliteDir = path.dirname(require.resolve('dynalite'));
const { Level } = require(require.resolve('level', { paths: [dynaliteDir] })) as {
  Level: new (
    location: string,
    options: { valueEncoding: 'json' },
  ) => {
    open(): Promise<void>;
    close(): Promise<void>;
    get(key: string): Promise<Record<string, Record<string, unknown>> | undefined>;
    put(key: string, value: unknown): Promise<void>;
    del(key: string): Promise<void>;
  };
};
const { createKey } = require(path.join(dynaliteDir, 'db')) as { createKey: (item: unknown, table: unknown) => string };

const home = tempHome('store-repair');
const table = localTableName(EVENTS_TABLE);
const running: LocalDynamo[] = [];
afterAll(async () => {
  for (const dynamo of running) await dynamo.stop();
});

const start = async () => {
  const dynamo = await startLocalDynamo(home);
  running.push(dynamo);
  const client = localDynamoClient(dynamo.endpoint);
  const doc = createDocumentClient(client);
  const events = new DynamoEventStore(doc, table, () => new DirectoryBlobStore(path.join(home, 'blobs')));
  return { dynamo, doc, events, close: async () => (client.destroy(), await dynamo.stop()) };
};

describe('the local store start-up repair', () => {
  it('Should remove the index entries of items that never landed after a store was killed, and keep the rest', async () => {
    // Prepare: 120 events stored, the store stopped; then, as a killed store leaves them, ten
    // items removed under their index entries, and no sign of a clean stop.
    const org = randomUUID();
    const data = dataset(120, 21);
    const first = await start();
    const outcomes = await first.events.putMany(
      org,
      data.map((e) => {
        const prepared = prepareEvent(JSON.parse(e.text), Buffer.byteLength(e.text), new Date());
        if (!prepared.ok) throw new Error(prepared.error);
        return { event: prepared.event, rawText: e.text };
      }),
    );
    expect(outcomes.every((o) => o.ok)).toBe(true);
    await first.close();
    expect(first.dynamo.repair()).toMatchObject({ ran: true, removed: 0 });

    const db = new Level(path.join(home, 'dynamodb'), { valueEncoding: 'json' });
    await db.open();
    const description = await db.get(`table~${table}`);
    const itemKey = (id: string) => `item-${table}~${createKey({ pk: { S: `${org}#${id}` } }, description)}`;
    const lost = data.slice(0, 10);
    for (const e of lost) await db.del(itemKey(e.id));
    await db.close();
    rmSync(path.join(home, 'dynamodb.closed-cleanly'));

    // Act
    const second = await start();

    // Assess: every index entry of the lost items (time, size, state, run, job, namespace, receipt
    // where the event has one) are gone; every other event is listed.
    const repair = second.dynamo.repair();
    expect(repair).toMatchObject({ ran: true, removed: 60 });
    expect(repair.error).toBeUndefined();
    expect(repair.byIndex).toEqual(Object.fromEntries(['byTime', 'bySize', 'byState', 'byRun', 'byJob', 'byNamespace'].map((index) => [`${table}.${index}`, 10])));
    const kept = data.slice(10).map((e) => e.id);
    const listed = await second.events.list(org, parseListQuery({ start: '0', end: '4102444800', limit: '1000' }));
    expect(listed.events.map((e) => e.id).sort()).toEqual([...kept].sort());
    // The namespace index itself (not only the listing over it) holds no entry of a lost item.
    const lostOne = lost[0] as (typeof data)[number];
    const entries = await second.doc.send(
      new QueryCommand({ TableName: table, IndexName: 'byNamespace', KeyConditionExpression: 'namespaceKey = :p', ExpressionAttributeValues: { ':p': namespaceKey(org, foldForSearch(lostOne.namespaceLc), shardOf(lostOne.id)) } }),
    );
    expect(entries.Items?.map((item) => String(item.pk))).not.toContain(`${org}#${lostOne.id}`);
    await second.close();

    // After a clean stop the store is not read through again; after a killed one it is, and it is clean.
    const third = await start();
    expect(third.dynamo.repair()).toMatchObject({ ran: false, removed: 0 });
    process.kill(third.dynamo.pid() as number, 'SIGKILL');
    const deadline = Date.now() + 20_000;
    while (third.dynamo.repair().ran === false && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(third.dynamo.repair()).toMatchObject({ ran: true, removed: 0, examined: repair.examined - repair.removed });
    await third.close();
  });
});
