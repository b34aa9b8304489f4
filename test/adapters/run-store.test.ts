/**
 * DynamoRunStore on both DynamoDB APIs of the tests (the shared stack's dynalite and the AWS emulator's DynamoDB): conditional transitions
 * (exactly one ender wins), timings merged member by member, usage recorded once, and the scan
 * restart recovery uses.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoRunStore } from '#adapters/dynamodb/run-store';
import { ConflictError } from '#domain/errors';
import type { Run } from '#domain/runs/run';
import { RUNS_TABLE } from '#shared/table-definitions';
import { DYNAMO_BACKENDS, openDynamoBackend } from './dynamo-backends.ts';

const newRun = (changes: Partial<Run> = {}): Run => ({
  runId: randomUUID(),
  orgId: randomUUID(),
  engine: 'spark',
  job: { namespace: 'etl', name: 'daily' },
  state: 'RUNNING',
  createdAt: '2030-01-01T00:00:00.000Z',
  updatedAt: '2030-01-01T00:00:00.000Z',
  sql: 'select 1',
  inputTables: ['lakeline.tpch.nation'],
  outputTable: { namespace: 'out', table: 'daily' },
  writeMode: 'overwrite',
  compute: {
    requested: { driverMachineType: 'spark.1.b', executorMachineType: 'spark.1.b', executors: 1 },
    platform: 'local',
    driver: { vcpus: 1, memoryGb: 8 },
    executor: { vcpus: 0, memoryGb: 0 },
    executors: 0,
    billedVcpus: 1,
    scaledDown: false,
    sparkConf: { 'spark.master': 'local[1]' },
  },
  lineage: { dialect: 'spark', engineVersion: '3.5.7', inputs: [], catalogKind: 'jdbc' },
  ...changes,
});

describe.each(DYNAMO_BACKENDS)('DynamoRunStore on %s', (backend) => {
  let store: DynamoRunStore;
  let close: () => void;

  beforeAll(() => {
    const opened = openDynamoBackend(backend);
    store = new DynamoRunStore(opened.doc, opened.tableName(RUNS_TABLE));
    close = () => opened.close();
  });

  afterAll(() => close());

  it('Should store a run and read it back, refusing a second run with the same id', async () => {
    // Prepare
    const run = newRun();

    // Act
    await store.create(run);

    // Assess
    expect(await store.get(run.runId)).toEqual({ ...run, timings: {} });
    await expect(store.create(run)).rejects.toBeInstanceOf(ConflictError);
    expect(await store.get(randomUUID())).toBeUndefined();
  });

  it('Should attach a handle while RUNNING and let exactly one ender win', async () => {
    // Prepare
    const run = newRun();
    await store.create(run);

    // Act
    const attached = await store.attach(run.runId, { platform: 'local', pid: 42, startedAt: 1000 }, '2030-01-01T00:00:01.000Z');
    const [first, second] = await Promise.all([
      store.end(run.runId, { state: 'COMPLETE', endedAt: '2030-01-01T00:00:09.000Z', rowsWritten: 3, timings: { sessionReadyAt: 4000, finishedAt: 8000 } }),
      store.end(run.runId, { state: 'ABORT', endedAt: '2030-01-01T00:00:09.500Z', error: 'aborted by request' }),
    ]);
    const late = await store.attach(run.runId, { platform: 'local', pid: 43 }, '2030-01-01T00:00:10.000Z');

    // Assess
    expect(attached).toBe(true);
    expect([first, second].filter(Boolean)).toHaveLength(1);
    expect(late).toBe(false);
    const stored = await store.get(run.runId);
    expect(stored?.handle).toEqual({ platform: 'local', pid: 42, startedAt: 1000 });
    if (stored?.state === 'COMPLETE') expect(stored.timings).toEqual({ startedAt: 1000, sessionReadyAt: 4000, finishedAt: 8000 });
  });

  it('Should record usage once', async () => {
    // Prepare
    const run = newRun();
    await store.create(run);

    // Act
    const first = await store.recordUsage(run.runId, 12.5, '2030-01-01T00:00:02.000Z');
    const second = await store.recordUsage(run.runId, 99, '2030-01-01T00:00:03.000Z');

    // Assess
    expect([first, second]).toEqual([true, false]);
    expect((await store.get(run.runId))?.vcpuSeconds).toBe(12.5);
    expect(await store.recordUsage(randomUUID(), 1, '2030-01-01T00:00:03.000Z')).toBe(false);
  });

  it('Should list the runs in a state across orgs', async () => {
    // Prepare
    const running = newRun();
    const ended = newRun();
    await store.create(running);
    await store.create(ended);
    await store.end(ended.runId, { state: 'FAIL', endedAt: '2030-01-01T00:00:05.000Z', error: 'x' });

    // Act
    const ids = (await store.listByState('RUNNING')).map((r) => r.runId);

    // Assess
    expect(ids).toContain(running.runId);
    expect(ids).not.toContain(ended.runId);
  });
});
