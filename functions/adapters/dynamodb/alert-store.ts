/**
 * @module alert-store
 * Alerts, their rules and what evaluation remembers, on the Alerts table (ADR 0052), each kind of
 * item in a partition of its own per org:
 *
 * | pk | sk | item |
 * |---|---|---|
 * | `<org>#ALERTS` | alert id (sorts by opening time) | the alert, its `sequence` for compare-and-set |
 * | `<org>#OPEN` | alert key | the key's open alert id |
 * | `<org>#RULES` | rule id | a rule the org added or tuned |
 * | `<org>#SEEN` | event id | an event evaluated (expires after 30 days) |
 * | `<org>#RUNSTART` | run id | a run's earliest START/RUNNING time (expires after 30 days) |
 * | `<org>#FIGURES` | job key | a job's recent successful runs' figures |
 * | `<org>#WRITES` | dataset key | a dataset's recent write times, with its name |
 *
 * Alerts are few (one open per job or dataset and signal), so an org's alerts in one partition
 * stay far below a partition's throughput; listing reads it newest first and filters. Alerts,
 * rules and figures are stored as JSON text: their numbers come from events and requests, and
 * DynamoDB refuses numbers outside its range (1e-130 to 1e126) that JSON carries.
 */
import { createHash } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AlertFilter, AlertMemory, AlertPage, AlertRuleStore, AlertStore, RunFigures } from '#domain/alerts/ports';
import type { AlertRule } from '#domain/alerts/rules';
import type { Alert } from '#domain/alerts/types';
import { alertIdFloor } from '#domain/alerts/lifecycle';
import { batchGetAll, batchPutAll } from './batch-ops.ts';

/** How long evaluation remembers an event it evaluated and a run's start. */
const MEMORY_TTL_SECONDS = 30 * 24 * 3600;

const isConditionFailure = (err: unknown): boolean => (err as { name?: string }).name === 'ConditionalCheckFailedException';

const expiresAt = (): number => Math.floor(Date.now() / 1000) + MEMORY_TTL_SECONDS;

const datasetKey = (d: { namespace: string; name: string }): string => createHash('sha256').update(`${d.namespace}\u0000${d.name}`).digest('hex').slice(0, 32);

/** A listing's cursor: the last alert id read, opaque to callers. */
const encodeCursor = (alertId: string): string => Buffer.from(alertId, 'utf8').toString('base64url');
const decodeCursor = (cursor: string): string => Buffer.from(cursor, 'base64url').toString('utf8');

const matches = (alert: Alert, filter: AlertFilter): boolean =>
  (!filter.states || filter.states.includes(alert.state)) &&
  (!filter.kinds || filter.kinds.includes(alert.kind)) &&
  (filter.namespace === undefined || alert.subject.namespace === filter.namespace) &&
  (filter.from === undefined || Date.parse(alert.openedAt) >= Date.parse(filter.from)) &&
  (filter.to === undefined || Date.parse(alert.openedAt) < Date.parse(filter.to));

/** Every port of the alerts on one table. */
export class DynamoAlertStore implements AlertStore, AlertMemory {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  // --- alerts -----------------------------------------------------------------------------------

  async get(orgId: string, alertId: string): Promise<Alert | undefined> {
    const out = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: { pk: `${orgId}#ALERTS`, sk: alertId }, ConsistentRead: true }));
    return out.Item ? (JSON.parse(out.Item.alert as string) as Alert) : undefined;
  }

  async create(alert: Alert): Promise<boolean> {
    try {
      await this.doc.send(new PutCommand({ TableName: this.tableName, Item: { pk: `${alert.orgId}#ALERTS`, sk: alert.alertId, sequence: alert.sequence, alert: JSON.stringify(alert) }, ConditionExpression: 'attribute_not_exists(pk)' }));
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }

  async replace(alert: Alert, expectedSequence: number): Promise<boolean> {
    try {
      await this.doc.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { pk: `${alert.orgId}#ALERTS`, sk: alert.alertId, sequence: alert.sequence, alert: JSON.stringify(alert) },
          ConditionExpression: '#s = :s',
          ExpressionAttributeNames: { '#s': 'sequence' },
          ExpressionAttributeValues: { ':s': expectedSequence },
        }),
      );
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }

  async openAlertOf(orgId: string, key: string): Promise<string | undefined> {
    const out = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: { pk: `${orgId}#OPEN`, sk: key }, ConsistentRead: true }));
    return typeof out.Item?.alertId === 'string' ? out.Item.alertId : undefined;
  }

  async claimOpen(orgId: string, key: string, alertId: string): Promise<string> {
    try {
      await this.doc.send(new PutCommand({ TableName: this.tableName, Item: { pk: `${orgId}#OPEN`, sk: key, alertId }, ConditionExpression: 'attribute_not_exists(pk)' }));
      return alertId;
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      return (await this.openAlertOf(orgId, key)) ?? (await this.claimOpen(orgId, key, alertId));
    }
  }

  async releaseOpen(orgId: string, key: string, alertId: string): Promise<void> {
    try {
      await this.doc.send(
        new DeleteCommand({ TableName: this.tableName, Key: { pk: `${orgId}#OPEN`, sk: key }, ConditionExpression: 'alertId = :a', ExpressionAttributeValues: { ':a': alertId } }),
      );
    } catch (err) {
      // Another alert of the key is open (or none): not ours to clear.
      if (!isConditionFailure(err)) throw err;
    }
  }

  async list(orgId: string, filter: AlertFilter, limit: number, cursor?: string): Promise<AlertPage> {
    const found: Alert[] = [];
    let after = cursor === undefined ? undefined : decodeCursor(cursor);
    // Ids begin with the opening time: a range narrows the read to it (to the second; `matches` is exact).
    const upper = filter.to === undefined ? undefined : `${alertIdFloor(filter.to)}~`;
    const lower = filter.from === undefined ? undefined : alertIdFloor(filter.from);
    for (;;) {
      const high = after !== undefined && (upper === undefined || after < upper) ? after : upper;
      // An empty range (from after to, or a cursor below from): DynamoDB refuses BETWEEN with its bounds reversed.
      if (high !== undefined && lower !== undefined && high < lower) return { alerts: found, next: null };
      const conditions = ['pk = :pk', ...(high !== undefined && lower !== undefined ? ['sk BETWEEN :lo AND :hi'] : high !== undefined ? ['sk < :hi'] : lower !== undefined ? ['sk >= :lo'] : [])];
      const out = await this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: conditions.join(' AND '),
          ExpressionAttributeValues: { ':pk': `${orgId}#ALERTS`, ...(high !== undefined ? { ':hi': high } : {}), ...(lower !== undefined ? { ':lo': lower } : {}) },
          ScanIndexForward: false,
          Limit: 100,
        }),
      );
      const items = (out.Items ?? []).filter((item) => item.sk !== after);
      for (const item of items) {
        const alert = JSON.parse(item.alert as string) as Alert;
        after = alert.alertId;
        if (!matches(alert, filter)) continue;
        found.push(alert);
        if (found.length === limit) return { alerts: found, next: encodeCursor(alert.alertId) };
      }
      if (!out.LastEvaluatedKey || items.length === 0) return { alerts: found, next: null };
    }
  }

  // --- rules ------------------------------------------------------------------------------------

  async listRules(orgId: string): Promise<AlertRule[]> {
    const rules: AlertRule[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.doc.send(new QueryCommand({ TableName: this.tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `${orgId}#RULES` }, ConsistentRead: true, ...(start ? { ExclusiveStartKey: start } : {}) }));
      for (const item of out.Items ?? []) rules.push(JSON.parse(item.rule as string) as AlertRule);
      start = out.LastEvaluatedKey;
    } while (start);
    return rules;
  }

  async putRule(orgId: string, rule: AlertRule): Promise<void> {
    await this.doc.send(new PutCommand({ TableName: this.tableName, Item: { pk: `${orgId}#RULES`, sk: rule.ruleId, rule: JSON.stringify(rule) } }));
  }

  async deleteRule(orgId: string, ruleId: string): Promise<boolean> {
    const out = await this.doc.send(new DeleteCommand({ TableName: this.tableName, Key: { pk: `${orgId}#RULES`, sk: ruleId }, ReturnValues: 'ALL_OLD' }));
    return out.Attributes !== undefined;
  }

  // --- memory -----------------------------------------------------------------------------------

  async seen(orgId: string, eventIds: readonly string[]): Promise<Set<string>> {
    const keys = [...new Set(eventIds)].map((id) => ({ pk: `${orgId}#SEEN`, sk: id }));
    const found = await batchGetAll(this.doc, this.tableName, 'sk', keys, ['sk'], 4, true);
    return new Set(found.keys());
  }

  async markSeen(orgId: string, eventIds: readonly string[]): Promise<void> {
    const ttl = expiresAt();
    const results = await batchPutAll(this.doc, this.tableName, 'sk', [...new Set(eventIds)].map((id) => ({ pk: `${orgId}#SEEN`, sk: id, expiresAt: ttl })));
    const failed = results.find((r) => !r.ok);
    if (failed && !failed.ok) throw new Error(`alerts: events evaluated could not be recorded: ${failed.reason}`);
  }

  async runStart(orgId: string, runId: string): Promise<string | undefined> {
    const out = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: { pk: `${orgId}#RUNSTART`, sk: runId }, ConsistentRead: true }));
    return typeof out.Item?.at === 'string' ? out.Item.at : undefined;
  }

  async noteRunStart(orgId: string, runId: string, at: string): Promise<void> {
    await this.doc.send(new PutCommand({ TableName: this.tableName, Item: { pk: `${orgId}#RUNSTART`, sk: runId, at, expiresAt: expiresAt() } }));
  }

  async jobFigures(orgId: string, jobKey: string): Promise<readonly RunFigures[]> {
    const out = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: { pk: `${orgId}#FIGURES`, sk: jobKey }, ConsistentRead: true }));
    return typeof out.Item?.figures === 'string' ? (JSON.parse(out.Item.figures) as RunFigures[]) : [];
  }

  async putJobFigures(orgId: string, jobKey: string, figures: readonly RunFigures[]): Promise<void> {
    await this.doc.send(new PutCommand({ TableName: this.tableName, Item: { pk: `${orgId}#FIGURES`, sk: jobKey, figures: JSON.stringify(figures) } }));
  }

  async datasetWrites(orgId: string, dataset: { namespace: string; name: string }): Promise<readonly string[]> {
    const out = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: { pk: `${orgId}#WRITES`, sk: datasetKey(dataset) }, ConsistentRead: true }));
    return (out.Item?.writes as string[] | undefined) ?? [];
  }

  async putDatasetWrites(orgId: string, dataset: { namespace: string; name: string }, writes: readonly string[]): Promise<void> {
    await this.doc.send(new PutCommand({ TableName: this.tableName, Item: { pk: `${orgId}#WRITES`, sk: datasetKey(dataset), namespace: dataset.namespace, name: dataset.name, writes } }));
  }

  async *allDatasetWrites(orgId: string): AsyncIterable<{ readonly namespace: string; readonly name: string; readonly writes: readonly string[] }> {
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.doc.send(new QueryCommand({ TableName: this.tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `${orgId}#WRITES` }, ...(start ? { ExclusiveStartKey: start } : {}) }));
      for (const item of out.Items ?? []) yield { namespace: item.namespace as string, name: item.name as string, writes: item.writes as string[] };
      start = out.LastEvaluatedKey;
    } while (start);
  }
}

/** The rule store's port over {@link DynamoAlertStore} (its methods carry the rule prefix there). */
export const ruleStoreOf = (store: DynamoAlertStore): AlertRuleStore => ({
  list: (orgId) => store.listRules(orgId),
  put: (orgId, rule) => store.putRule(orgId, rule),
  delete: (orgId, ruleId) => store.deleteRule(orgId, ruleId),
});
