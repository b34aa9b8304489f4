/**
 * @module run-store
 * RunStore on DynamoDB: one item per run, keyed by run id (the `byOrg` GSI lists an org's runs by
 * creation time). Transitions are conditional updates on `state`, so of two enders (the engine's
 * report and an abort) exactly one wins, and usage is recorded at most once.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, ScanCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '#domain/errors';
import type { RunStore } from '#domain/runs/ports';
import { ACTIVE_STATES, type EngineHandle, type Run, type RunEnd, type RunState } from '#domain/runs/run';

const isConditionFailure = (err: unknown): boolean => err instanceof ConditionalCheckFailedException || (err as { name?: string }).name === 'ConditionalCheckFailedException';

/** DynamoDB-backed {@link RunStore}. */
export class DynamoRunStore implements RunStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async create(run: Run): Promise<void> {
    try {
      // `timings` exists from the start so later updates can set its members one by one.
      await this.doc.send(new PutCommand({ TableName: this.tableName, Item: { timings: {}, ...run }, ConditionExpression: 'attribute_not_exists(runId)' }));
    } catch (err) {
      if (isConditionFailure(err)) throw new ConflictError(`run ${run.runId} already exists`);
      throw err;
    }
  }

  async get(runId: string): Promise<Run | undefined> {
    const out = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: { runId }, ConsistentRead: true }));
    return out.Item as Run | undefined;
  }

  async attach(runId: string, handle: EngineHandle, at: string): Promise<boolean> {
    const startedAt = typeof handle.startedAt === 'number' ? handle.startedAt : undefined;
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { runId },
          UpdateExpression: `SET handle = :h, updatedAt = :at${startedAt === undefined ? '' : ', timings.startedAt = :started'}`,
          ConditionExpression: '#state IN (:queued, :running)',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':h': handle, ':at': at, ':queued': 'QUEUED', ':running': 'RUNNING', ...(startedAt === undefined ? {} : { ':started': startedAt }) },
        }),
      );
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }

  async start(runId: string, at: string, startedAt?: number): Promise<boolean> {
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { runId },
          UpdateExpression: `SET #state = :running, updatedAt = :at${startedAt === undefined ? '' : ', timings.startedAt = :started'}`,
          ConditionExpression: '#state = :queued',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':running': 'RUNNING', ':queued': 'QUEUED', ':at': at, ...(startedAt === undefined ? {} : { ':started': startedAt }) },
        }),
      );
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }

  async end(runId: string, end: RunEnd, from: readonly RunState[] = ACTIVE_STATES): Promise<Run | undefined> {
    const sets: string[] = ['#state = :state', 'endedAt = :endedAt', 'updatedAt = :endedAt'];
    const names: Record<string, string> = { '#state': 'state' };
    const fromValues = Object.fromEntries(from.map((state, i) => [`:from${i}`, state]));
    const values: Record<string, unknown> = { ':state': end.state, ':endedAt': end.endedAt, ...fromValues };
    for (const field of ['error', 'rowsWritten', 'bytesWritten', 'filesWritten'] as const) {
      if (end[field] === undefined) continue;
      sets.push(`#${field} = :${field}`);
      names[`#${field}`] = field;
      values[`:${field}`] = end[field];
    }
    // Timings merge member by member: the start time recorded at attach stays.
    for (const [key, value] of Object.entries(end.timings ?? {})) {
      if (value === undefined) continue;
      sets.push(`timings.#t_${key} = :t_${key}`);
      names[`#t_${key}`] = key;
      values[`:t_${key}`] = value;
    }
    // A COMPLETE run has no error (an aborted run corrected to COMPLETE loses its abort message).
    const remove = end.state === 'COMPLETE' && end.error === undefined ? ' REMOVE #error' : '';
    if (remove) names['#error'] = 'error';
    try {
      const out = await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { runId },
          UpdateExpression: `SET ${sets.join(', ')}${remove}`,
          ConditionExpression: `#state IN (${Object.keys(fromValues).join(', ')})`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      );
      return out.Attributes as Run | undefined;
    } catch (err) {
      if (isConditionFailure(err)) return undefined;
      throw err;
    }
  }

  async recordUsage(runId: string, vcpuSeconds: number, at: string): Promise<boolean> {
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { runId },
          UpdateExpression: 'SET vcpuSeconds = :v, updatedAt = :at',
          ConditionExpression: 'attribute_exists(runId) AND attribute_not_exists(vcpuSeconds)',
          ExpressionAttributeValues: { ':v': vcpuSeconds, ':at': at },
        }),
      );
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }

  async listByState(state: RunState): Promise<Run[]> {
    // Only restart recovery asks, once at start-up, for the few runs left RUNNING; a filtered scan
    // is the honest tool (a state index would be written on every transition to serve it).
    const runs: Run[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.doc.send(
        new ScanCommand({
          TableName: this.tableName,
          FilterExpression: '#state = :state',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':state': state },
          ExclusiveStartKey: start,
          ConsistentRead: true,
        }),
      );
      runs.push(...((out.Items ?? []) as Run[]));
      start = out.LastEvaluatedKey;
    } while (start);
    return runs;
  }
}
