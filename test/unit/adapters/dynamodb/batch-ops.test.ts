// batchGetAll / batchPutAll: chunking, resending unprocessed entries, and what a failure becomes.
// The client here is a scripted stand-in for `send` (DynamoDB's partial answers cannot be provoked
// on the local store); the store's behaviour itself is tested against dynalite in test/adapters.
import { describe, expect, it } from 'vitest';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchGetAll, batchPutAll, chunk, mapConcurrent } from '#adapters/dynamodb/batch-ops';

type Input = { RequestItems: Record<string, { Keys?: Record<string, unknown>[] } | { PutRequest: { Item: Record<string, unknown> } }[]> };

/** A document client whose `send` answers from a script, recording every request. */
const scripted = (answer: (input: Input, call: number) => unknown) => {
  const calls: Input[] = [];
  const client = {
    send: async (command: { input: Input }) => {
      calls.push(command.input);
      const out = answer(command.input, calls.length);
      if (out instanceof Error) throw out;
      return out;
    },
  } as unknown as DynamoDBDocumentClient;
  return { client, calls };
};

const items = (n: number) => Array.from({ length: n }, (_, i) => ({ pk: `k${i}`, v: i }));

describe('batchPutAll', () => {
  it('Should send at most 25 writes per request and report every item written', async () => {
    // Prepare
    const { client, calls } = scripted(() => ({ UnprocessedItems: {} }));

    // Act
    const results = await batchPutAll(client, 'T', 'pk', items(60));

    // Assess
    expect(calls.map((c) => (c.RequestItems.T as unknown[]).length).sort((a, b) => a - b)).toEqual([10, 25, 25]);
    expect(results.every((r) => r.ok)).toBe(true);
  });

  it('Should resend unprocessed items until they are written', async () => {
    // Prepare: the first answer leaves two items unprocessed.
    const { client, calls } = scripted((input, call) => {
      const writes = input.RequestItems.T as { PutRequest: { Item: Record<string, unknown> } }[];
      return call === 1 ? { UnprocessedItems: { T: writes.slice(0, 2) } } : { UnprocessedItems: {} };
    });

    // Act
    const results = await batchPutAll(client, 'T', 'pk', items(5));

    // Assess
    expect(calls).toHaveLength(2);
    expect((calls[1]?.RequestItems.T as { PutRequest: { Item: { pk: string } } }[]).map((w) => w.PutRequest.Item.pk)).toEqual(['k0', 'k1']);
    expect(results.every((r) => r.ok)).toBe(true);
  });

  it('Should report items still unprocessed after every attempt as not written', async () => {
    // Prepare
    const { client, calls } = scripted((input) => ({ UnprocessedItems: { T: (input.RequestItems.T as unknown[]).slice(0, 1) } }));

    // Act
    const results = await batchPutAll(client, 'T', 'pk', items(3));

    // Assess
    expect(calls).toHaveLength(8);
    expect(results.map((r) => r.ok)).toEqual([false, true, true]);
    expect(results[0]).toEqual({ ok: false, reason: 'Server error: the store is throttling writes; retry later' });
  });

  it('Should report the items of a request that failed transiently as not written', async () => {
    // Prepare
    const outage = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const { client } = scripted((_input, call) => (call === 1 ? outage : { UnprocessedItems: {} }));

    // Act
    const results = await batchPutAll(client, 'T', 'pk', items(30), 1);

    // Assess
    expect(results.slice(0, 25).every((r) => !r.ok)).toBe(true);
    expect(results.slice(25).every((r) => r.ok)).toBe(true);
  });

  it('Should throw a failure that retrying cannot fix', async () => {
    // Prepare
    const { client } = scripted(() => Object.assign(new Error('Item size has exceeded the maximum allowed size'), { name: 'ValidationException', $metadata: { httpStatusCode: 400 } }));

    // Act & Assess
    await expect(batchPutAll(client, 'T', 'pk', items(2))).rejects.toThrow(/maximum allowed size/);
  });
});

describe('batchGetAll', () => {
  it('Should ask for at most 100 keys per request, resend unprocessed keys, and key results by the partition key', async () => {
    // Prepare: every first request of a chunk leaves its first key unprocessed.
    const seen = new Set<string>();
    const { client, calls } = scripted((input) => {
      const { Keys = [] } = input.RequestItems.T as { Keys?: { pk: string }[] };
      const first = Keys[0]?.pk as string;
      const again = seen.has(first);
      seen.add(first);
      const served = again ? Keys : Keys.slice(1);
      return { Responses: { T: served.map((k) => ({ ...k, found: true })) }, UnprocessedKeys: again ? {} : { T: { Keys: Keys.slice(0, 1) } } };
    });

    // Act
    const found = await batchGetAll(client, 'T', 'pk', items(150).map(({ pk }) => ({ pk })), ['pk', 'found']);

    // Assess
    expect(found.size).toBe(150);
    expect(found.get('k149')).toEqual({ pk: 'k149', found: true });
    expect(calls).toHaveLength(4);
    expect(calls[0]?.RequestItems.T).toMatchObject({ ProjectionExpression: '#p0, #p1', ExpressionAttributeNames: { '#p0': 'pk', '#p1': 'found' } });
  });

  it('Should throw a retryable error when keys stay unprocessed', async () => {
    // Prepare
    const { client } = scripted((input) => ({ Responses: { T: [] }, UnprocessedKeys: { T: input.RequestItems.T } }));

    // Act & Assess
    await expect(batchGetAll(client, 'T', 'pk', [{ pk: 'a' }])).rejects.toMatchObject({ name: 'BatchUnprocessedError', $retryable: { throttling: true } });
  });
});

describe('chunk and mapConcurrent', () => {
  it('Should split lists and keep results in input order with bounded concurrency', async () => {
    // Prepare
    let inFlight = 0;
    let peak = 0;

    // Act
    const out = await mapConcurrent([5, 1, 3, 2, 4], 2, async (n) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, n));
      inFlight -= 1;
      return n * 10;
    });

    // Assess
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(out).toEqual([50, 10, 30, 20, 40]);
    expect(peak).toBe(2);
  });
});
