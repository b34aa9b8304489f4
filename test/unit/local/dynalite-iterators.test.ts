/**
 * The local store's iterator fix (local/dynalite-iterators.cjs): dynalite, as the store process
 * runs it, leaves no LevelDB iterator open once its queries have answered — neither those cut at
 * their `Limit` nor those read to the end — so its memory is bounded by what is in use, not by the
 * number of queries served.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { DirectoryBlobStore } from '#adapters/blob/directory-blob-store';
import { createDocumentClient, localDynamoClient } from '#adapters/dynamodb/clients';
import { DynamoEventStore } from '#adapters/dynamodb/event-store';
import { ensureTables } from '#adapters/dynamodb/table-admin';
import { prepareEvent } from '#domain/lineage/derive';
import { parseListQuery } from '#domain/lineage/list-query';
import { EVENTS_TABLE } from '#shared/table-definitions';
import { dataset } from '../../adapters/lineage-fixtures.ts';

const require = createRequire(import.meta.url);
const dynaliteDir = path.dirname(require.resolve('dynalite'));
const { Level } = require(require.resolve('level', { paths: [dynaliteDir] })) as { Level: unknown };
const { closeAbandonedIterators } = require('../../../local/dynalite-iterators.cjs') as {
  closeAbandonedIterators: (Level: unknown) => { open: () => number; opened: () => number };
};
// As local/dynamo-process.cjs does: installed before dynalite loads.
const iterators = closeAbandonedIterators(Level);
const dynalite = require('dynalite') as (options: Record<string, unknown>) => Server;

const dir = mkdtempSync(path.join(tmpdir(), 'lakeline-iterators-'));
const server = dynalite({ path: path.join(dir, 'store'), createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('the local store process serving queries', () => {
  it('Should leave no LevelDB iterator open after queries cut at their limit or read to the end', async () => {
    // Prepare: the Events table with 90 events, as the service writes them.
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = localDynamoClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const doc = createDocumentClient(client);
    const table = 'iterators-events';
    await ensureTables(client, [{ def: EVENTS_TABLE, name: table }]);
    const store = new DynamoEventStore(doc, table, () => new DirectoryBlobStore(path.join(dir, 'blobs')));
    const records = dataset(90, 3).map((e) => {
      const prepared = prepareEvent(JSON.parse(e.text), Buffer.byteLength(e.text), new Date());
      if (!prepared.ok) throw new Error(prepared.error);
      return { event: prepared.event, rawText: e.text };
    });
    expect((await store.putMany('org', records)).every((o) => o.ok)).toBe(true);
    const openedBefore = iterators.opened();

    // Act: listings (merged index queries cut at their Limit), whole scans, and queries read to their end.
    for (let i = 0; i < 40; i++) {
      await store.list('org', parseListQuery({ start: '0', end: '4102444800', limit: '5', offset: String(i) }));
      await store.list('org', parseListQuery({ start: '0', end: '4102444800', namespace: 'staging', limit: '3' }));
    }
    for (let i = 0; i < 20; i++) {
      await doc.send(new ScanCommand({ TableName: table, Limit: 7 }));
      await doc.send(new QueryCommand({ TableName: table, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `org#${records[i]?.event.id}` } }));
    }
    client.destroy();
    // Closing an iterator is asynchronous: let the last ones finish.
    await new Promise((resolve) => setTimeout(resolve, 100));

    // Assess: hundreds of iterators were opened, none is left open.
    expect(iterators.opened() - openedBefore).toBeGreaterThan(400);
    expect(iterators.open()).toBe(0);
  });
});
