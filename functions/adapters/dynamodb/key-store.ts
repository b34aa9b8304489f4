/**
 * @module key-store
 * KeyStore on DynamoDB: one item per key id; listing by org uses the `byOrg` index.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConflictError, NotFoundError } from '#domain/errors';
import type { ApiKeyRecord } from '#domain/orgs/org';
import type { KeyStore } from '#domain/orgs/ports';

/** DynamoDB-backed {@link KeyStore}. */
export class DynamoKeyStore implements KeyStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(keyId: string): Promise<ApiKeyRecord | undefined> {
    const out = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: { keyId } }));
    return out.Item as ApiKeyRecord | undefined;
  }

  async create(record: ApiKeyRecord): Promise<void> {
    try {
      await this.doc.send(new PutCommand({ TableName: this.tableName, Item: { ...record }, ConditionExpression: 'attribute_not_exists(keyId)' }));
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) throw new ConflictError(`key ${record.keyId} already exists`);
      throw err;
    }
  }

  async listByOrg(orgId: string): Promise<ApiKeyRecord[]> {
    const keys: ApiKeyRecord[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: 'byOrg',
          KeyConditionExpression: 'orgId = :o',
          ExpressionAttributeValues: { ':o': orgId },
          ExclusiveStartKey: start,
        }),
      );
      keys.push(...((out.Items ?? []) as ApiKeyRecord[]));
      start = out.LastEvaluatedKey;
    } while (start);
    return keys;
  }

  async revoke(keyId: string, at: string): Promise<void> {
    await this.updateExisting(keyId, 'SET revokedAt = if_not_exists(revokedAt, :at)', at);
  }

  async touch(keyId: string, at: string): Promise<void> {
    await this.updateExisting(keyId, 'SET lastUsedAt = :at', at);
  }

  private async updateExisting(keyId: string, expression: string, at: string): Promise<void> {
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { keyId },
          UpdateExpression: expression,
          ExpressionAttributeValues: { ':at': at },
          ConditionExpression: 'attribute_exists(keyId)',
        }),
      );
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) throw new NotFoundError(`API key ${keyId} does not exist`);
      throw err;
    }
  }
}
