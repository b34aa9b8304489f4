/**
 * The legacy warehouse query use case against in-memory ports and the real SQL firewall: plan
 * check, table resolution, sandbox size, autosave (miss and hit), and the lineage recorded around
 * each run, valid against the OpenLineage spec.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { CapabilityError, ForbiddenError, ValidationError } from '#domain/errors';
import { createOrg } from '#domain/orgs/manage';
import type { PlanName } from '#domain/core/plans';
import { QuerySqlError } from '#domain/lake/engine-errors';
import { runLegacyQuery, type LegacyQueryDeps, type LegacyQueryInput } from '#domain/query/legacy-query';
import { MemoryOrgStore } from '../../../helpers/memory-stores.ts';
import { FakeEngine, MemoryLake, MemoryScratch, MemorySink, MemoryWriter } from '../lake/fakes.ts';
import { specProblems } from './openlineage-spec.ts';

interface World {
  readonly deps: LegacyQueryDeps;
  readonly orgs: MemoryOrgStore;
  readonly lake: MemoryLake;
  readonly writer: MemoryWriter;
  readonly engine: FakeEngine;
  readonly sink: MemorySink;
  readonly scratch: MemoryScratch;
  readonly warnings: string[];
}

const world = (withScratch = true): World => {
  const orgs = new MemoryOrgStore();
  const lake = new MemoryLake();
  const writer = new MemoryWriter(lake);
  const engine = new FakeEngine();
  const sink = new MemorySink();
  const scratch = new MemoryScratch();
  const warnings: string[] = [];
  let runs = 0;
  const deps: LegacyQueryDeps = {
    orgs,
    catalog: lake,
    storage: lake,
    writer,
    engine,
    lineage: sink,
    catalogKind: 'jdbc',
    ...(withScratch ? { scratch } : {}),
    warn: (message) => warnings.push(message),
    newRunId: () => `00000000-0000-4000-8000-${String(++runs).padStart(12, '0')}`,
  };
  return { deps, orgs, lake, writer, engine, sink, scratch, warnings };
};

const orgOn = async (w: World, plan: PlanName): Promise<string> => {
  const org = await createOrg(w.orgs, { name: `${plan} org`, plan, paymentMethod: true });
  w.lake.add(org.orgId, { namespace: 'sales', table: 'orders' }, [['id', 'long'], ['amount', 'decimal(15, 2)']]);
  return org.orgId;
};

const input = (orgId: string, query: string, extra: Partial<LegacyQueryInput> = {}): LegacyQueryInput => ({ orgId, query, autoSaveByHash: false, explain: false, ...extra });

describe('runLegacyQuery: access and the firewall', () => {
  let w: World;
  beforeEach(() => {
    w = world();
  });

  it('Should refuse an organization below Pro with a 403 before anything runs or is recorded', async () => {
    // Prepare
    const orgId = await orgOn(w, 'free');
    // Act
    const run = runLegacyQuery(w.deps, input(orgId, 'SELECT * FROM sales.orders'));
    // Assess
    await expect(run).rejects.toBeInstanceOf(ForbiddenError);
    await expect(run).rejects.toThrow(/Pro plan/);
    expect(w.engine.requests).toHaveLength(0);
    expect(w.sink.events).toHaveLength(0);
  });

  it('Should refuse what the firewall refuses, recording no run', async () => {
    // Prepare
    const orgId = await orgOn(w, 'pro');
    // Act
    const run = runLegacyQuery(w.deps, input(orgId, "SELECT * FROM read_csv('/etc/passwd')"));
    // Assess
    await expect(run).rejects.toBeInstanceOf(ValidationError);
    await expect(run).rejects.toThrow(/SQL not allowed: table function read_csv/);
    expect(w.engine.requests).toHaveLength(0);
    expect(w.sink.events).toHaveLength(0);
  });

  it("Should refuse another organization's table as unknown", async () => {
    // Prepare
    const orgId = await orgOn(w, 'pro');
    const other = await orgOn(w, 'pro');
    w.lake.add(other, { namespace: 'secret', table: 'salaries' });
    // Act
    const run = runLegacyQuery(w.deps, input(orgId, 'SELECT * FROM secret.salaries'));
    // Assess
    await expect(run).rejects.toBeInstanceOf(ValidationError);
    expect(w.engine.requests).toHaveLength(0);
  });
});

describe('runLegacyQuery: a query', () => {
  let w: World;
  let orgId: string;
  beforeEach(async () => {
    w = world();
    orgId = await orgOn(w, 'pro');
  });

  it('Should run the query on exactly its tables, in the Pro default sandbox, and answer the contract', async () => {
    // Act
    const outcome = await runLegacyQuery(w.deps, input(orgId, 'SELECT count(*) FROM lakeline.sales.orders'));
    // Assess
    const [request] = w.engine.requests;
    expect(request?.tables).toEqual([
      { name: { namespace: 'sales', table: 'orders' }, metadataLocation: `file:///lake/${orgId}/sales/orders/metadata/00000.metadata.json`, location: `file:///lake/${orgId}/sales/orders` },
    ]);
    expect(request?.sandbox).toEqual({ vcpus: 2, memoryGb: 4 });
    expect(request?.sql).toBe('SELECT count(*) FROM lakeline.sales.orders');
    expect(outcome.cache).toBe('off');
    expect(outcome.response).toEqual({
      success: true,
      results: { columns: ['n'], column_types: ['BIGINT'], rows: [[1], [2], [3]] },
      row_count: 3,
      execution_time: expect.stringMatching(/^\d+ms$/),
      query: 'SELECT count(*) FROM lakeline.sales.orders',
      job: { namespace: 'lakeline', name: expect.stringMatching(/^q_[0-9a-f]{32}$/) },
    });
  });

  it('Should give the same job to the same query however it is spaced or cased', async () => {
    // Act
    const a = await runLegacyQuery(w.deps, input(orgId, 'SELECT id FROM sales.orders WHERE id > 1'));
    const b = await runLegacyQuery(w.deps, input(orgId, 'select   id\nFROM sales.orders  where id > 1;'));
    const c = await runLegacyQuery(w.deps, input(orgId, 'SELECT id FROM sales.orders WHERE id > 2'));
    // Assess
    expect(b.response.job).toEqual(a.response.job);
    expect(c.response.job.name).not.toBe(a.response.job.name);
  });

  it('Should size the sandbox from the plan (Enterprise: 4 vCPUs)', async () => {
    // Prepare
    const enterprise = await orgOn(w, 'enterprise');
    // Act
    await runLegacyQuery(w.deps, input(enterprise, 'SELECT 1 FROM sales.orders'));
    // Assess
    expect(w.engine.requests[0]?.sandbox).toEqual({ vcpus: 4, memoryGb: 8 });
  });

  it('Should return the plan as explainResult only when asked', async () => {
    // Act
    const plain = await runLegacyQuery(w.deps, input(orgId, 'SELECT 1 FROM sales.orders'));
    const explained = await runLegacyQuery(w.deps, input(orgId, 'SELECT 1 FROM sales.orders', { explain: true }));
    // Assess
    expect(plain.response).not.toHaveProperty('explainResult');
    expect(explained.response.explainResult).toEqual({
      success: true,
      results: { columns: ['explain_key', 'explain_value'], column_types: ['VARCHAR', 'VARCHAR'], rows: [['physical_plan', 'SCAN']] },
      row_count: 1,
      execution_time: expect.stringMatching(/^\d+ms$/),
    });
  });

  it('Should record START then COMPLETE for the run, valid against the OpenLineage spec', async () => {
    // Act
    const outcome = await runLegacyQuery(w.deps, input(orgId, 'SELECT id FROM sales.orders'));
    // Assess
    const events = w.sink.events.map((e) => e.event);
    expect(events.map((e) => e.eventType)).toEqual(['START', 'COMPLETE']);
    expect(w.sink.events.every((e) => e.orgId === orgId)).toBe(true);
    for (const event of events) {
      expect(specProblems(event)).toEqual([]);
      expect(event.run).toMatchObject({ runId: outcome.runId, facets: { processing_engine: { name: 'duckdb', version: '1.5.5' } } });
      expect(event.job).toMatchObject({
        ...outcome.response.job,
        facets: { sql: { query: 'SELECT id FROM sales.orders', dialect: 'duckdb' }, jobType: { processingType: 'BATCH', integration: 'LAKELINE', jobType: 'QUERY' } },
      });
      expect(event.inputs).toEqual([
        expect.objectContaining({
          namespace: 'file',
          name: `/lake/${orgId}/sales/orders`,
          facets: expect.objectContaining({
            schema: expect.objectContaining({ fields: [{ name: 'id', type: 'long', ordinal_position: 1 }, { name: 'amount', type: 'decimal(15, 2)', ordinal_position: 2 }] }),
            symlinks: expect.objectContaining({ identifiers: [{ namespace: 'lakeline', name: 'sales.orders', type: 'TABLE' }] }),
          }),
        }),
      ]);
      expect(event.outputs).toEqual([]);
    }
  });

  it("Should record FAIL with the engine's message and answer the engine's 400", async () => {
    // Prepare
    w.engine.answers = [new QuerySqlError('Binder Error: Referenced column "nope" not found')];
    // Act
    const run = runLegacyQuery(w.deps, input(orgId, 'SELECT nope FROM sales.orders'));
    // Assess
    await expect(run).rejects.toBeInstanceOf(QuerySqlError);
    const events = w.sink.events.map((e) => e.event);
    expect(events.map((e) => e.eventType)).toEqual(['START', 'FAIL']);
    expect(specProblems(events[1] as object)).toEqual([]);
    expect((events[1]?.run as { facets: Record<string, unknown> }).facets.errorMessage).toMatchObject({
      message: 'Binder Error: Referenced column "nope" not found',
      programmingLanguage: 'SQL',
    });
  });

  it('Should record FAIL without internals when the engine fails unexpectedly', async () => {
    // Prepare
    w.engine.answers = [new Error('INTERNAL Error: something in C++')];
    // Act
    await expect(runLegacyQuery(w.deps, input(orgId, 'SELECT id FROM sales.orders'))).rejects.toThrow(/INTERNAL/);
    // Assess
    const fail = w.sink.events.at(-1)?.event as { run: { facets: { errorMessage: { message: string } } } };
    expect(fail.run.facets.errorMessage.message).toBe('internal error');
  });

  it('Should still answer when lineage cannot be recorded, and say so in the log', async () => {
    // Prepare
    w.sink.failing = true;
    // Act
    const outcome = await runLegacyQuery(w.deps, input(orgId, 'SELECT id FROM sales.orders'));
    // Assess
    expect(outcome.response.success).toBe(true);
    expect(w.warnings).toEqual(['lineage event not recorded', 'lineage event not recorded']);
  });
});

describe('runLegacyQuery: autoSaveByHash', () => {
  let w: World;
  let orgId: string;
  const sql = 'SELECT id FROM sales.orders ORDER BY id';
  beforeEach(async () => {
    w = world();
    orgId = await orgOn(w, 'pro');
  });

  it('Should run, land the result as autosave.<job name> and answer with the saved table', async () => {
    // Prepare
    w.engine.answers = [
      { columns: ['id'], column_types: ['BIGINT'], rows: [[1], [2], [3]] },
      { columns: ['id'], column_types: ['BIGINT'], rows: [[1], [2], [3]] },
    ];
    // Act
    const outcome = await runLegacyQuery(w.deps, input(orgId, sql, { autoSaveByHash: true }));
    // Assess
    expect(outcome.cache).toBe('miss');
    const [first, second] = w.engine.requests;
    expect(first?.exportDirectory).toBe('/scratch/0');
    expect(w.writer.writes).toEqual([{ orgId, namespace: 'autosave', table: outcome.response.job.name, parquet: ['/scratch/0/result.parquet'], mode: 'overwrite' }]);
    expect(second?.sql).toBe(`SELECT * FROM lakeline."autosave"."${outcome.response.job.name}"`);
    expect(second?.tables.map((t) => t.name)).toEqual([{ namespace: 'autosave', table: outcome.response.job.name }]);
    expect(w.scratch.removed).toEqual(['/scratch/0']);
    const complete = w.sink.events.at(-1)?.event as Record<string, unknown>;
    expect(specProblems(complete)).toEqual([]);
    expect(complete.outputs).toEqual([
      expect.objectContaining({
        namespace: 'file',
        name: `/lake/${orgId}/autosave/${outcome.response.job.name}`,
        outputFacets: { outputStatistics: expect.objectContaining({ rowCount: 3, size: 1234, fileCount: 1 }) },
      }),
    ]);
  });

  it('Should answer from the saved table without running the query once the table exists', async () => {
    // Prepare
    const first = await runLegacyQuery(w.deps, input(orgId, sql, { autoSaveByHash: true }));
    w.engine.requests.length = 0;
    // Act
    const second = await runLegacyQuery(w.deps, input(orgId, sql, { autoSaveByHash: true }));
    // Assess
    expect(second.cache).toBe('hit');
    expect(w.engine.requests.map((r) => r.sql)).toEqual([`SELECT * FROM lakeline."autosave"."${first.response.job.name}"`]);
    expect(w.writer.writes).toHaveLength(1);
    const start = w.sink.events.at(-2)?.event as { inputs: { name: string }[] };
    expect(start.inputs.map((i) => i.name)).toEqual([`/lake/${orgId}/autosave/${first.response.job.name}`]);
  });

  it('Should say autosave is unavailable where results cannot be staged for the lake writer', async () => {
    // Prepare
    const noScratch = world(false);
    const id = await orgOn(noScratch, 'pro');
    // Act
    const run = runLegacyQuery(noScratch.deps, input(id, sql, { autoSaveByHash: true }));
    // Assess
    await expect(run).rejects.toBeInstanceOf(CapabilityError);
    expect(noScratch.engine.requests).toHaveLength(0);
  });
});
