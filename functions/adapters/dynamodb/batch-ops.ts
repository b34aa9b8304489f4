/**
 * @module batch-ops
 * BatchGetItem and BatchWriteItem done completely: requests split at DynamoDB's limits (100 keys,
 * 25 writes), sent with bounded concurrency, and `UnprocessedKeys` / `UnprocessedItems` resent
 * with exponential backoff, as the DynamoDB guide asks of every batch caller.
 */
import { BatchGetCommand, BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { isTransientInfrastructureError } from '#adapters/transient-errors';

/** Most keys in one BatchGetItem. */
export const MAX_BATCH_GET = 100;
/** Most requests in one BatchWriteItem. */
export const MAX_BATCH_WRITE = 25;
/** Attempts per batch before unprocessed entries are given up (the first send included). */
const MAX_ATTEMPTS = 8;
/** Backoff base; attempt n waits about base·2ⁿ (with full jitter), capped at 1 s. */
const BACKOFF_BASE_MS = 25;

type Key = Record<string, unknown>;
type Item = Record<string, unknown>;

/** How results are matched to items: a key attribute's name, or a function of the item (composite keys). */
export type ItemKey = string | ((item: Item) => string);
const keyOf = (key: ItemKey, item: Item): string => (typeof key === 'string' ? String(item[key]) : key(item));

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const backoff = (attempt: number): Promise<void> => sleep(Math.random() * Math.min(1_000, BACKOFF_BASE_MS * 2 ** attempt));

/** Splits a list into chunks of at most `size`. */
export const chunk = <T>(items: readonly T[], size: number): T[][] => {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
};

/** Runs `work` over every input with at most `concurrency` in flight; results in input order. */
export async function mapConcurrent<T, R>(inputs: readonly T[], concurrency: number, work: (input: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(inputs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < inputs.length) {
      const index = next++;
      results[index] = await work(inputs[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, inputs.length) }, worker));
  return results;
}

/**
 * Reads items by key. Missing items are simply absent from the result.
 *
 * @param keyName - the table's partition key attribute (the result is keyed by its value), or a
 *   function giving an item's key (tables with a sort key); a projection must include the key attributes
 * @param projection - attributes to read; all when omitted
 * @param concurrency - requests in flight (a page of 1000 is 10 requests, all at once)
 * @param consistentRead - strongly consistent reads (read-modify-write cycles need them)
 * @throws when keys stay unprocessed after every retry, or the store fails
 */
export async function batchGetAll(
  doc: DynamoDBDocumentClient,
  tableName: string,
  keyName: ItemKey,
  keys: readonly Key[],
  projection?: readonly string[],
  concurrency = 10,
  consistentRead = false,
): Promise<Map<string, Item>> {
  const found = new Map<string, Item>();
  const projectionParams = projection
    ? { ProjectionExpression: projection.map((_, i) => `#p${i}`).join(', '), ExpressionAttributeNames: Object.fromEntries(projection.map((name, i) => [`#p${i}`, name])) }
    : {};
  await mapConcurrent(chunk(keys, MAX_BATCH_GET), concurrency, async (part) => {
    let pending: Key[] = part;
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt >= MAX_ATTEMPTS) throw new BatchUnprocessedError(`BatchGetItem left ${pending.length} keys unprocessed after ${MAX_ATTEMPTS} attempts`);
      if (attempt > 0) await backoff(attempt);
      const out = await doc.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ...projectionParams, ...(consistentRead ? { ConsistentRead: true } : {}) } } }));
      for (const item of out.Responses?.[tableName] ?? []) found.set(keyOf(keyName, item), item);
      pending = (out.UnprocessedKeys?.[tableName]?.Keys ?? []) as Key[];
    }
  });
  return found;
}

/** The outcome of one item of {@link batchPutAll}. */
export type BatchPutResult = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/**
 * Puts items with BatchWriteItem, at most `concurrency` requests in flight. An item still
 * unprocessed after every retry, or in a request that failed transiently (throttling, outage), is
 * reported as not written; any other failure (a malformed request: a bug) is thrown.
 *
 * @param keyName - the table's partition key attribute (items are matched to results by it), or a
 *   function giving an item's key
 * @returns one result per item, in order
 */
export async function batchPutAll(
  doc: DynamoDBDocumentClient,
  tableName: string,
  keyName: ItemKey,
  items: readonly Item[],
  concurrency = 4,
): Promise<BatchPutResult[]> {
  const results = new Map<string, BatchPutResult>();
  await mapConcurrent(chunk(items, MAX_BATCH_WRITE), concurrency, async (part) => {
    let pending: Item[] = part;
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt >= MAX_ATTEMPTS) {
        for (const item of pending) results.set(keyOf(keyName, item), { ok: false, reason: 'Server error: the store is throttling writes; retry later' });
        return;
      }
      if (attempt > 0) await backoff(attempt);
      let unprocessed: Item[];
      try {
        const out = await doc.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending.map((Item) => ({ PutRequest: { Item } })) } }));
        unprocessed = (out.UnprocessedItems?.[tableName] ?? []).flatMap((r) => (r.PutRequest?.Item ? [r.PutRequest.Item] : []));
      } catch (err) {
        if (!isTransientInfrastructureError(err)) throw err;
        for (const item of pending) results.set(keyOf(keyName, item), { ok: false, reason: 'Server error: the store is unavailable; retry later' });
        return;
      }
      const left = new Set(unprocessed.map((item) => keyOf(keyName, item)));
      for (const item of pending) if (!left.has(keyOf(keyName, item))) results.set(keyOf(keyName, item), { ok: true });
      pending = pending.filter((item) => left.has(keyOf(keyName, item)));
    }
  });
  return items.map((item) => results.get(keyOf(keyName, item)) ?? { ok: false, reason: 'Server error: the write was not acknowledged; retry later' });
}

/**
 * Deletes items by key with BatchWriteItem, at most `concurrency` requests in flight, resending
 * unprocessed deletes with backoff. Deleting an absent item is not an error.
 * @throws {BatchUnprocessedError} when deletes stay unprocessed after every retry; any store failure
 */
export async function batchDeleteAll(doc: DynamoDBDocumentClient, tableName: string, keys: readonly Key[], concurrency = 4): Promise<void> {
  await mapConcurrent(chunk(keys, MAX_BATCH_WRITE), concurrency, async (part) => {
    let pending: Key[] = part;
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt >= MAX_ATTEMPTS) throw new BatchUnprocessedError(`BatchWriteItem left ${pending.length} deletes unprocessed after ${MAX_ATTEMPTS} attempts`);
      if (attempt > 0) await backoff(attempt);
      const out = await doc.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending.map((Key) => ({ DeleteRequest: { Key } })) } }));
      pending = (out.UnprocessedItems?.[tableName] ?? []).flatMap((r) => (r.DeleteRequest?.Key ? [r.DeleteRequest.Key] : []));
    }
  });
}

/** A batch could not be completed within the retry budget (DynamoDB kept returning unprocessed entries). */
export class BatchUnprocessedError extends Error {
  override readonly name = 'BatchUnprocessedError';
  /** Marks the error retryable for the shared error mapping (a 503, like throttling). */
  readonly $retryable = { throttling: true };
}
