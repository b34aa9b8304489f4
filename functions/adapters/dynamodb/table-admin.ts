/**
 * @module table-admin
 * Creates tables from `table-definitions.ts` through the DynamoDB API. The local profile and the
 * tests use it against dynalite; in AWS the same definitions become CDK tables instead.
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
  type DynamoDBClient,
  type GlobalSecondaryIndex,
  type Projection,
} from '@aws-sdk/client-dynamodb';
import type { IndexDefinition, TableDefinition } from '#shared/table-definitions';

const projectionOf = (index: IndexDefinition): Projection =>
  typeof index.projection === 'string'
    ? { ProjectionType: index.projection }
    : { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.projection] };

/** The CreateTable request for a definition. */
export const createTableInput = (def: TableDefinition, name: string) => {
  const attributes = new Map<string, string>();
  const add = (a: { name: string; type: string } | undefined) => a && attributes.set(a.name, a.type);
  add(def.partitionKey);
  add(def.sortKey);
  def.indexes.forEach((i) => (add(i.partitionKey), add(i.sortKey)));
  const keySchema = (pk: { name: string }, sk?: { name: string }) => [
    { AttributeName: pk.name, KeyType: 'HASH' as const },
    ...(sk ? [{ AttributeName: sk.name, KeyType: 'RANGE' as const }] : []),
  ];
  const gsis: GlobalSecondaryIndex[] = def.indexes.map((i) => ({
    IndexName: i.indexName,
    KeySchema: keySchema(i.partitionKey, i.sortKey),
    Projection: projectionOf(i),
  }));
  return {
    TableName: name,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: [...attributes].map(([AttributeName, AttributeType]) => ({ AttributeName, AttributeType: AttributeType as 'S' | 'N' })),
    KeySchema: keySchema(def.partitionKey, def.sortKey),
    ...(gsis.length ? { GlobalSecondaryIndexes: gsis } : {}),
  };
};

/** Creates each table unless it exists, then waits until all are ACTIVE. Idempotent. */
export const ensureTables = async (client: DynamoDBClient, tables: readonly { def: TableDefinition; name: string }[]): Promise<void> => {
  for (const { def, name } of tables) {
    try {
      await client.send(new CreateTableCommand(createTableInput(def, name)));
      if (def.ttlAttribute) {
        await waitActive(client, name);
        await enableTtl(client, name, def.ttlAttribute);
      }
    } catch (err) {
      if (!(err instanceof ResourceInUseException)) throw err;
    }
  }
  for (const { name } of tables) await waitActive(client, name);
};

const enableTtl = async (client: DynamoDBClient, name: string, attribute: string): Promise<void> => {
  try {
    await client.send(new UpdateTimeToLiveCommand({ TableName: name, TimeToLiveSpecification: { AttributeName: attribute, Enabled: true } }));
  } catch (err) {
    // dynalite does not implement TTL; locally expired items simply stay until deleted.
    if ((err as { name?: string }).name !== 'UnknownOperationException') throw err;
  }
};

const waitActive = async (client: DynamoDBClient, name: string): Promise<void> => {
  for (let i = 0; i < 200; i++) {
    const out = await client.send(new DescribeTableCommand({ TableName: name }));
    const indexesActive = (out.Table?.GlobalSecondaryIndexes ?? []).every((g) => g.IndexStatus === 'ACTIVE');
    if (out.Table?.TableStatus === 'ACTIVE' && indexesActive) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`table ${name} did not become ACTIVE`);
};
