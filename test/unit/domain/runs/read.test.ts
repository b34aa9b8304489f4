/**
 * Reading a run (`GET /api/v1/runs/{run_id}`'s use case) over in-memory ports: the caller's run as
 * the runs API shows it, a RUNNING bloom run polled first (and no other run), a completed batch
 * read with a page of its rows, and 404 for another org's run.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError } from '#domain/errors';
import type { RunPoller } from '#domain/runs/ports';
import { readRun, type ReadRunDeps } from '#domain/runs/read';
import { resultsTableOf } from '#domain/runs/results';
import type { Run } from '#domain/runs/run';
import { FakeEngine } from '../lake/fakes.ts';
import { payingOrg, runWorld, type RunWorld } from './fakes.ts';

const ORG = 'aaaaaaaa-0000-0000-0000-000000000001';
const OTHER = 'bbbbbbbb-0000-0000-0000-000000000002';
const RUN = '11111111-2222-4333-8444-555555555555';
const PAGE = { offset: 0, limit: 2 };
const SPARK_1B = { name: 'spark.1.b', vcpus: 1, memoryGb: 4 };

/** A poller that ends every run it is asked about, and remembers which. */
class EndingPoller implements RunPoller {
  readonly polled: string[] = [];
  constructor(private readonly world: RunWorld) {}
  async refresh(run: Run): Promise<Run> {
    this.polled.push(run.runId);
    return (await this.world.runs.end(run.runId, { state: 'COMPLETE', endedAt: '2030-01-01T00:01:00Z', rowsWritten: 3 })) as Run;
  }
}

let world: RunWorld;
let engine: FakeEngine;
let poller: EndingPoller;
let deps: ReadRunDeps;

/** A bloom run of the caller as stored, RUNNING into its results table, with `changes`. */
const stored = async (changes: Partial<Run>): Promise<void> => {
  await world.runs.create({
    runId: RUN,
    orgId: ORG,
    engine: 'bloom',
    job: { namespace: 'lakeline', name: 'q_1' },
    state: 'RUNNING',
    createdAt: '2030-01-01T00:00:00Z',
    updatedAt: '2030-01-01T00:00:00Z',
    sql: 'SELECT 1',
    inputTables: [],
    outputTable: resultsTableOf(RUN),
    writeMode: 'overwrite',
    results: true,
    compute: world.engine.size({ driver: SPARK_1B, executor: SPARK_1B, executors: 1 }),
    lineage: { dialect: 'trino', engineVersion: '476', inputs: [], catalogKind: 'jdbc' },
    ...changes,
  });
};

beforeEach(async () => {
  world = runWorld();
  engine = new FakeEngine();
  poller = new EndingPoller(world);
  deps = { runs: world.runs, bloom: poller, catalog: world.lake, storage: world.lake, duckdb: engine };
  await world.orgs.create(payingOrg(ORG));
  // The bloom run's CTAS created its results table.
  world.lake.commit(ORG, resultsTableOf(RUN), RUN, { 'total-records': '3' });
});

describe('readRun', () => {
  it('Should poll a RUNNING bloom run first, and answer a completed batch read with a page of its rows', async () => {
    // Prepare
    await stored({});
    // Act
    const answer = await readRun(deps, ORG, RUN, PAGE);
    // Assess
    expect(poller.polled).toEqual([RUN]);
    expect(answer).toMatchObject({ run_id: RUN, engine: 'bloom', state: 'COMPLETE', row_count: 3, results: { columns: ['n'], rows: [[1], [2], [3]] }, results_page: { offset: 0, limit: 2 } });
    expect(engine.requests[0]?.sql).toMatch(/LIMIT 2 OFFSET 0$/);
  });

  it('Should not poll a Spark run, nor read the lake for a run that is not a completed batch read', async () => {
    // Prepare
    await stored({ engine: 'spark', results: undefined });
    // Act
    const answer = await readRun(deps, ORG, RUN, PAGE);
    // Assess
    expect(poller.polled).toEqual([]);
    expect(engine.requests).toEqual([]);
    expect(answer).toMatchObject({ run_id: RUN, engine: 'spark', state: 'RUNNING' });
    expect(answer).not.toHaveProperty('results');
  });

  it("Should answer 404 for another org's run, and poll nothing", async () => {
    // Prepare
    await stored({});
    // Act / Assess
    await expect(readRun(deps, OTHER, RUN, PAGE)).rejects.toBeInstanceOf(NotFoundError);
    expect(poller.polled).toEqual([]);
  });
});
