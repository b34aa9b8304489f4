/**
 * Local homes made by an earlier version: a table whose indexes changed is rebuilt at start with
 * every item kept and upgraded (events get the job and namespace indexes' keys, orgs get their name
 * directory), and a rebuild interrupted by a crash resumes from its complete copy.
 */
import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand, waitUntilTableExists, waitUntilTableNotExists, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { DirectoryBlobStore } from '#adapters/blob/directory-blob-store';
import { batchPutAll } from '#adapters/dynamodb/batch-ops';
import { encodeEvent } from '#adapters/dynamodb/event-item';
import { DynamoEventStore } from '#adapters/dynamodb/event-store';
import { createTableInput } from '#adapters/dynamodb/table-admin';
import { prepareEvent } from '#domain/lineage/derive';
import { parseListQuery } from '#domain/lineage/list-query';
import { createDocumentClient, localDynamoClient } from '#adapters/dynamodb/clients';
import { localTableName } from '#composition/config';
import { EVENTS_TABLE, type TableDefinition } from '#shared/table-definitions';
import { startLocalDynamo } from '../../local/dynamo.ts';
import { tempHome } from '../helpers/local-stack-process.ts';
import { dataset } from './lineage-fixtures.ts';

const home = tempHome('migration');
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** The Events table as it was before the job and namespace indexes existed. */
const NAME_INDEXES = ['byJob', 'byNamespace'];
const OLD_EVENTS: TableDefinition = { ...EVENTS_TABLE, indexes: EVENTS_TABLE.indexes.filter((i) => !NAME_INDEXES.includes(i.indexName)) };
const NAME = localTableName(EVENTS_TABLE);

/** Items as the earlier version wrote them: no name-index keys. */
const oldItems = (orgId: string, count: number, seed: number) =>
  dataset(count, seed).map((e) => {
    const prepared = prepareEvent(JSON.parse(e.text), Buffer.byteLength(e.text), new Date());
    if (!prepared.ok) throw new Error(prepared.error);
    const { jobKey: _jobKey, namespaceKey: _namespaceKey, ...item } = encodeEvent(orgId, { event: prepared.event, rawText: e.text }).item;
    return item;
  });

/** Deletes a table and waits until it is gone (the local store deletes asynchronously; slower under load). */
const dropTable = async (client: DynamoDBClient, name: string): Promise<void> => {
  await client.send(new DeleteTableCommand({ TableName: name }));
  await waitUntilTableNotExists({ client, maxWaitTime: 60 }, { TableName: name });
};

describe('a local home made before the name indexes', () => {
  it('Should rebuild the Events table at start, keeping every event, so filtered listings find them', async () => {
    // Prepare: a store with the old table and 120 events of one org.
    const org = randomUUID();
    const first = await startLocalDynamo(home);
    const client = localDynamoClient(first.endpoint);
    const doc = createDocumentClient(client);
    await dropTable(client, NAME);
    await client.send(new CreateTableCommand(createTableInput(OLD_EVENTS, NAME)));
    await waitUntilTableExists({ client, maxWaitTime: 60 }, { TableName: NAME });
    const items = oldItems(org, 120, 3);
    await batchPutAll(doc, NAME, 'pk', items, 4);
    client.destroy();
    await first.stop();

    // Act
    const second = await startLocalDynamo(home);
    const after = localDynamoClient(second.endpoint);
    const afterDoc = createDocumentClient(after);
    const table = (await after.send(new DescribeTableCommand({ TableName: NAME }))).Table;
    const store = new DynamoEventStore(afterDoc, NAME, () => new DirectoryBlobStore(`${home}/blobs`));
    const all = await store.list(org, parseListQuery({ start: '0', end: '4102444800', limit: '1000' }));
    const daily = await store.list(org, parseListQuery({ start: '0', end: '4102444800', limit: '1000', job: 'daily' }));
    const namespace = all.events[0]?.job_namespace ?? '';
    const inNamespace = await store.list(org, parseListQuery({ start: '0', end: '4102444800', limit: '1000', namespace }));
    const stored = (await afterDoc.send(new ScanCommand({ TableName: NAME, FilterExpression: 'attribute_exists(jobKey) AND attribute_exists(namespaceKey)' }))).Items ?? [];
    after.destroy();
    await second.stop();

    // Assess
    expect(table?.GlobalSecondaryIndexes?.map((i) => i.IndexName).sort()).toEqual(EVENTS_TABLE.indexes.map((i) => i.indexName).sort());
    expect(all.events).toHaveLength(120);
    expect(stored).toHaveLength(120);
    expect(daily.events.length).toBeGreaterThan(0);
    expect(daily.events.every((e) => (e.job_name ?? '').toLowerCase().includes('daily'))).toBe(true);
    expect(daily.events).toHaveLength(all.events.filter((e) => (e.job_name ?? '').toLowerCase().includes('daily')).length);
    expect(inNamespace.events.length).toBeGreaterThan(0);
    expect(inNamespace.events).toHaveLength(all.events.filter((e) => (e.job_namespace ?? '').toLowerCase().includes(namespace.toLowerCase())).length);
  }, 120_000);

  it('Should finish a rebuild that a crash interrupted after its copy was complete', async () => {
    // Prepare: phase one done (a complete copy), then the crash dropped the table itself.
    const org = randomUUID();
    const first = await startLocalDynamo(home);
    const client = localDynamoClient(first.endpoint);
    const doc = createDocumentClient(client);
    const copy = `${NAME}__migrating`;
    await client.send(new CreateTableCommand(createTableInput(EVENTS_TABLE, copy)));
    await waitUntilTableExists({ client, maxWaitTime: 60 }, { TableName: copy });
    await batchPutAll(doc, copy, 'pk', [...oldItems(org, 30, 4), { pk: '__lakeline_migration_complete__' }], 4);
    await dropTable(client, NAME);
    client.destroy();
    await first.stop();

    // Act
    const second = await startLocalDynamo(home);
    const after = localDynamoClient(second.endpoint);
    const store = new DynamoEventStore(createDocumentClient(after), NAME, () => new DirectoryBlobStore(`${home}/blobs`));
    const listed = await store.list(org, parseListQuery({ start: '0', end: '4102444800', limit: '1000' }));
    const tables = await after.send(new DescribeTableCommand({ TableName: copy })).then(
      () => 'still there',
      () => 'gone',
    );
    after.destroy();
    await second.stop();

    // Assess
    expect(listed.events).toHaveLength(30);
    expect(tables).toBe('gone');
  }, 120_000);
});
