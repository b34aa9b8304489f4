/**
 * @module org-store
 * OrgStore on DynamoDB: one item per org; usage counters are updated with atomic `ADD`.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, ScanCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConflictError, NotFoundError } from '#domain/errors';
import type { Org } from '#domain/orgs/org';
import type { OrgStore } from '#domain/orgs/ports';
import type { Engine } from '#domain/core/plans';

/** DynamoDB-backed {@link OrgStore}. */
export class DynamoOrgStore implements OrgStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(orgId: string): Promise<Org | undefined> {
    const out = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: { orgId } }));
    return out.Item ? toOrg(out.Item) : undefined;
  }

  async create(org: Org): Promise<void> {
    try {
      await this.doc.send(new PutCommand({ TableName: this.tableName, Item: { ...org }, ConditionExpression: 'attribute_not_exists(orgId)' }));
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) throw new ConflictError(`organization ${org.orgId} already exists`);
      throw err;
    }
  }

  async list(): Promise<Org[]> {
    // Operator-only listing (CLI); orgs are few, so a paginated scan is the honest tool here.
    const orgs: Org[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.doc.send(new ScanCommand({ TableName: this.tableName, ExclusiveStartKey: start }));
      orgs.push(...(out.Items ?? []).map(toOrg));
      start = out.LastEvaluatedKey;
    } while (start);
    return orgs.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  async update(orgId: string, changes: Partial<Pick<Org, 'plan' | 'paymentMethod' | 'creditLimitUsd' | 'name'>>): Promise<Org> {
    const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
    if (entries.length === 0) {
      const org = await this.get(orgId);
      if (!org) throw new NotFoundError(`organization ${orgId} does not exist`);
      return org;
    }
    try {
      const out = await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { orgId },
          UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
          ExpressionAttributeNames: Object.fromEntries(entries.map(([k], i) => [`#f${i}`, k])),
          ExpressionAttributeValues: Object.fromEntries(entries.map(([, v], i) => [`:v${i}`, v])),
          ConditionExpression: 'attribute_exists(orgId)',
          ReturnValues: 'ALL_NEW',
        }),
      );
      return toOrg(out.Attributes ?? {});
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) throw new NotFoundError(`organization ${orgId} does not exist`);
      throw err;
    }
  }

  async addUsage(orgId: string, engine: Engine, vcpuSeconds: number, usd: number): Promise<void> {
    // Usage is a flat attribute per engine so `ADD` works without first creating a nested map.
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { orgId },
          UpdateExpression: 'ADD usageUsd :usd, #engine :s',
          ExpressionAttributeNames: { '#engine': `usage_${engine}` },
          ExpressionAttributeValues: { ':usd': usd, ':s': vcpuSeconds },
          ConditionExpression: 'attribute_exists(orgId)',
        }),
      );
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) throw new NotFoundError(`organization ${orgId} does not exist`);
      throw err;
    }
  }
}

const toOrg = (item: Record<string, unknown>): Org => {
  const usageVcpuSeconds: Partial<Record<Engine, number>> = {};
  for (const [k, v] of Object.entries(item)) {
    if (k.startsWith('usage_') && typeof v === 'number') usageVcpuSeconds[k.slice('usage_'.length) as Engine] = v;
  }
  return {
    orgId: String(item.orgId),
    name: String(item.name ?? ''),
    plan: item.plan as Org['plan'],
    paymentMethod: item.paymentMethod === true,
    creditLimitUsd: Number(item.creditLimitUsd ?? 0),
    usageUsd: Number(item.usageUsd ?? 0),
    usageVcpuSeconds,
    createdAt: String(item.createdAt ?? ''),
  };
};
