// The name directory of the Events table on both DynamoDB APIs of the tests: concurrent requests
// naming new jobs share the directory's writes (group commit per chunk item), every name is
// durable before `record` resolves, and a failed write fails every request waiting on it and is
// retried by the next one.
import { randomUUID } from 'node:crypto';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { DIRECTORY_CHUNKS, NameDirectory, type DirectoryJob } from '#adapters/dynamodb/name-directory';
import { EVENTS_TABLE } from '#shared/table-definitions';
import { DYNAMO_BACKENDS, openDynamoBackend } from './dynamo-backends.ts';

/** The document client, counting the directory's writes, and failing them while `failing` is set. */
const countingClient = (doc: DynamoDBDocumentClient) => {
  const counts = { writes: 0, failing: false };
  const client = new Proxy(doc, {
    get(target, property, receiver) {
      if (property !== 'send') return Reflect.get(target, property, receiver) as unknown;
      return async (command: unknown) => {
        if (command instanceof UpdateCommand) {
          counts.writes += 1;
          if (counts.failing) {
            throw Object.assign(new Error('the store is unavailable'), { name: 'ServiceUnavailable' });
          }
        }
        return target.send(command as UpdateCommand);
      };
    },
  });
  return { client, counts };
};

const job = (n: number): DirectoryJob => ({ namespace: `ns_${n % 3}`, job: `pipeline.task_${n}` });

describe.each(DYNAMO_BACKENDS)('NameDirectory on %s', (backend) => {
  const dynamo = openDynamoBackend(backend);
  const table = dynamo.tableName(EVENTS_TABLE);
  afterAll(() => dynamo.close());

  it('Should write the names of concurrent requests together, once each, and have all of them once every request resolved', async () => {
    // Arrange: 64 requests at once, each naming one of 40 new jobs (a run's START and COMPLETE
    // arrive together), in 3 namespaces.
    const orgId = randomUUID();
    const { client, counts } = countingClient(dynamo.doc);
    const directory = new NameDirectory(client, table);
    const requests = Array.from({ length: 64 }, (_, i) => [job(i % 40)]);

    // Act
    await Promise.all(requests.map((jobs) => directory.record(orgId, jobs)));

    // Assess: at most one write per chunk item for the 43 names (one per request would be 64+).
    expect(counts.writes).toBeLessThanOrEqual(DIRECTORY_CHUNKS);
    const view = await new NameDirectory(dynamo.doc, table).read(orgId);
    expect([...view.jobNames].sort()).toEqual(Array.from({ length: 40 }, (_, i) => `pipeline.task_${i}`).sort());
    expect([...view.namespaces].sort()).toEqual(['ns_0', 'ns_1', 'ns_2']);
    expect(view.complete).toBe(true);
  });

  it('Should send a name again only after its write failed, failing every request that waited on it', async () => {
    // Arrange: the directory's writes fail for a while.
    const orgId = randomUUID();
    const { client, counts } = countingClient(dynamo.doc);
    const directory = new NameDirectory(client, table);
    counts.failing = true;

    // Act
    const outcomes = await Promise.allSettled([directory.record(orgId, [job(1)]), directory.record(orgId, [job(1)])]);
    const failedWrites = counts.writes;
    counts.failing = false;
    await directory.record(orgId, [job(1)]);

    // Assess: both requests failed (their events must not be written), the names having been sent
    // once (two chunk items at most); the next request wrote them, and they are there.
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect(failedWrites).toBeLessThanOrEqual(2);
    expect(counts.writes).toBeGreaterThan(failedWrites);
    const view = await new NameDirectory(dynamo.doc, table).read(orgId);
    expect(view.jobNames).toEqual(['pipeline.task_1']);
    expect(view.namespaces).toEqual(['ns_1']);
  });

  it('Should not write names it has recorded before', async () => {
    // Arrange
    const orgId = randomUUID();
    const { client, counts } = countingClient(dynamo.doc);
    const directory = new NameDirectory(client, table);
    await directory.record(orgId, [job(7)]);
    const afterFirst = counts.writes;

    // Act
    await Promise.all([directory.record(orgId, [job(7)]), directory.record(orgId, [job(7)])]);

    // Assess
    expect(afterFirst).toBeGreaterThan(0);
    expect(counts.writes).toBe(afterFirst);
  });
});
