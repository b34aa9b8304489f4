/**
 * @module tables
 * The service's DynamoDB tables in the emulated account, created once per test run from the same
 * definitions the CDK app and the local profile use, under the local profile's names (so one
 * store suite runs unchanged on dynalite and on the emulator).
 */
import { CreateTableCommand, DynamoDBClient, waitUntilTableExists } from '@aws-sdk/client-dynamodb';
import { createTableInput, ensureTables } from '#adapters/dynamodb/table-admin';
import { localTableName } from '#composition/config';
import { ALL_TABLES, type TableDefinition } from '#shared/table-definitions';
import { awsClientConfig, type AwsEmulatorInfo } from './emulator.ts';

/** Creates every table of the service in the emulator's DynamoDB (idempotent). */
export const createEmulatedTables = async (aws: AwsEmulatorInfo): Promise<void> => {
  const client = new DynamoDBClient(awsClientConfig(aws));
  try {
    await ensureTables(client, ALL_TABLES.map((def) => ({ def, name: localTableName(def) })));
  } finally {
    client.destroy();
  }
};

/**
 * Creates one table of the service under a name of its own, with the DynamoDB stream its
 * definition gives it in AWS (the Events table's NEW_IMAGE stream, `lib/data.ts`): for a suite
 * that reads the stream and must see only its own writes.
 */
export const createEmulatedTableWithStream = async (aws: AwsEmulatorInfo, def: TableDefinition, name: string): Promise<void> => {
  if (!def.stream) throw new Error(`${def.envName}: the table has no stream in AWS`);
  const client = new DynamoDBClient(awsClientConfig(aws));
  try {
    await client.send(new CreateTableCommand({ ...createTableInput(def, name), StreamSpecification: { StreamEnabled: true, StreamViewType: def.stream } }));
    await waitUntilTableExists({ client, maxWaitTime: 30 }, { TableName: name });
  } finally {
    client.destroy();
  }
};
