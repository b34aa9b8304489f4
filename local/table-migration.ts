/**
 * @module table-migration
 * Keeps a local home's tables in step with `table-definitions.ts`. dynalite cannot add an index to
 * a table (DynamoDB's UpdateTable can; in AWS CloudFormation does it), so a local table whose
 * indexes differ from its definition is rebuilt: its items are copied, upgraded, into a new table
 * of the current definition, which then takes the table's name. No item is lost on a crash at any
 * point: the copy is marked complete before the old table is dropped, and an interrupted
 * migration resumes from its marked copy on the next start.
 */
import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  ResourceNotFoundException,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { GetCommand, ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchPutAll } from '#adapters/dynamodb/batch-ops';
import { createTableInput } from '#adapters/dynamodb/table-admin';
import type { TableDefinition } from '#shared/table-definitions';

/** Turns an item of the old layout into the current one (adds the attributes new indexes read); idempotent. */
export type ItemUpgrade = (item: Record<string, unknown>) => Promise<Record<string, unknown>>;

/** The key of the item that marks a copy as complete (no real key looks like it). */
const COMPLETE_MARKER = '__lakeline_migration_complete__';

const copyName = (name: string): string => `${name}__migrating`;

const describe = async (client: DynamoDBClient, name: string) => {
  try {
    return (await client.send(new DescribeTableCommand({ TableName: name }))).Table;
  } catch (err) {
    if (err instanceof ResourceNotFoundException || (err as { name?: string }).name === 'ResourceNotFoundException') return undefined;
    throw err;
  }
};

/** Whether a table's indexes are the definition's (names, keys and projections alike). */
export const indexesMatch = (def: TableDefinition, table: { GlobalSecondaryIndexes?: { IndexName?: string; KeySchema?: unknown; Projection?: unknown }[] }): boolean => {
  const wanted = createTableInput(def, 'x').GlobalSecondaryIndexes ?? [];
  const actual = table.GlobalSecondaryIndexes ?? [];
  const shape = (i: { IndexName?: string; KeySchema?: unknown; Projection?: { ProjectionType?: string; NonKeyAttributes?: string[] } | unknown }) =>
    JSON.stringify([i.IndexName, i.KeySchema, (i.Projection as { ProjectionType?: string })?.ProjectionType, [...((i.Projection as { NonKeyAttributes?: string[] })?.NonKeyAttributes ?? [])].sort()]);
  return JSON.stringify(wanted.map(shape).sort()) === JSON.stringify(actual.map(shape).sort());
};

const recreate = async (client: DynamoDBClient, def: TableDefinition, name: string): Promise<void> => {
  if (await describe(client, name)) {
    await client.send(new DeleteTableCommand({ TableName: name }));
    await waitGone(client, name);
  }
  await client.send(new CreateTableCommand(createTableInput(def, name)));
};

const waitGone = async (client: DynamoDBClient, name: string): Promise<void> => {
  for (let i = 0; i < 200 && (await describe(client, name)); i++) await new Promise((r) => setTimeout(r, 50));
};

/** Copies every item of `from` into `to`, each through `upgrade`. */
const copyItems = async (doc: DynamoDBDocumentClient, from: string, to: string, keyName: string, upgrade: ItemUpgrade): Promise<number> => {
  let copied = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(new ScanCommand({ TableName: from, ExclusiveStartKey: start, Limit: 500, ConsistentRead: true }));
    start = page.LastEvaluatedKey;
    const items = await Promise.all((page.Items ?? []).filter((item) => item[keyName] !== COMPLETE_MARKER).map(upgrade));
    const results = await batchPutAll(doc, to, keyName, items, 4);
    if (results.some((r) => !r.ok)) throw new Error(`migration of ${from}: some items could not be copied; start the stack again to retry`);
    copied += items.length;
  } while (start);
  return copied;
};

/**
 * Brings one table to its definition, rebuilding it when its indexes differ (or finishing a
 * rebuild a crash interrupted). Returns how many items were moved (0 when nothing was to do).
 */
export async function migrateTable(client: DynamoDBClient, doc: DynamoDBDocumentClient, def: TableDefinition, name: string, upgrade: ItemUpgrade, log: (message: string) => void): Promise<number> {
  const keyName = def.partitionKey.name;
  const copy = copyName(name);
  const copyTable = await describe(client, copy);
  const copyComplete = copyTable !== undefined && (await doc.send(new GetCommand({ TableName: copy, Key: { [keyName]: COMPLETE_MARKER }, ConsistentRead: true }))).Item !== undefined;
  const table = await describe(client, name);
  if (!copyComplete) {
    if (copyTable) await client.send(new DeleteTableCommand({ TableName: copy }));
    if (!table || indexesMatch(def, table)) return 0;
    // Phase 1: the old table, upgraded, into a copy of the current definition; then the marker.
    log(`migrating local table ${name} to its current indexes…`);
    await waitGone(client, copy);
    await client.send(new CreateTableCommand(createTableInput(def, copy)));
    await copyItems(doc, name, copy, keyName, upgrade);
    await batchPutAll(doc, copy, keyName, [{ [keyName]: COMPLETE_MARKER }], 1);
  }
  // Phase 2: the table under its own name with the current definition, filled from the copy
  // (through `upgrade` again: it is idempotent, and a resumed migration's caller learns the items too).
  await recreate(client, def, name);
  const moved = await copyItems(doc, copy, name, keyName, upgrade);
  await client.send(new DeleteTableCommand({ TableName: copy }));
  log(`migrated local table ${name} (${moved} items)`);
  return moved;
}
