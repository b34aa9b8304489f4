/**
 * @module tables
 * The service's DynamoDB tables in the emulated account, created once per test run from the same
 * definitions the CDK app and the local profile use, under the local profile's names (so one
 * store suite runs unchanged on dynalite and on the emulator).
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ensureTables } from '#adapters/dynamodb/table-admin';
import { localTableName } from '#composition/config';
import { ALL_TABLES } from '#shared/table-definitions';
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
