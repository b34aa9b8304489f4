/**
 * The polars use case with its ports in memory: what reaches the sandbox (the tables a request may
 * read, under which names; the tier), the order of the refusals (shape, plan, distributed), metering,
 * and the routed endpoint's adapter. A recording sandbox stands in for the real one, which the HTTP
 * suites exercise (test/http/polars*.test.ts).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Catalog, CatalogTable, LakeStorage } from '#domain/lake/ports';
import { createOrg } from '#domain/orgs/manage';
import { runPolars, type PolarsDeps } from '#domain/polars/run-polars';
import { polarsEngineOf, tierFor } from '#domain/polars/routed-engine';
import type { SandboxRun } from '#domain/polars/sandbox';
import type { PolarsSandbox } from '#domain/polars/ports';
import { MemoryOrgStore } from '../../../helpers/memory-stores.ts';

const table = (namespace: string, name: string): CatalogTable => ({ namespace, table: name, metadataLocation: `file:///wh/o/${namespace}/${name}/metadata/v1.metadata.json` });
const TABLES = [table('sales', 'orders'), table('sales', 'items')];
const catalog: Catalog = { listTables: async () => TABLES, loadTable: async (_o, n) => TABLES.find((t) => t.namespace === n.namespace && t.table === n.table) };
const storage: LakeStorage = {
  readText: async (uri) => JSON.stringify({ 'format-version': 2, location: uri.replace(/\/metadata\/.*$/, ''), schemas: [{ 'schema-id': 0, type: 'struct', fields: [] }], 'current-schema-id': 0, snapshots: [] }),
};

/** A sandbox that records each run and answers one row. */
class RecordingSandbox implements PolarsSandbox {
  readonly runs: SandboxRun[] = [];
  async version(): Promise<string> {
    return '1.44.2';
  }
  async run(run: SandboxRun) {
    this.runs.push(run);
    return { results: { columns: ['n'], column_types: ['Int64'], rows: [[1]] }, rowCount: 1, runMs: 1, compute: { vcpus: run.vcpus, mode: 'sandbox', instanceType: `local-sandbox-${run.vcpus}vcpu` } };
  }
}

let orgs: MemoryOrgStore;
let sandbox: RecordingSandbox;
let deps: PolarsDeps;
let orgId: string;

beforeEach(async () => {
  orgs = new MemoryOrgStore();
  sandbox = new RecordingSandbox();
  deps = { orgs, catalog, storage, sandbox };
  orgId = (await createOrg(orgs, { name: 'o', plan: 'pro', paymentMethod: true })).orgId;
});

describe('runPolars', () => {
  it('Should give the sandbox the registered tables under their alias and namespace.table, with their locations', async () => {
    // Act
    const response = await runPolars(deps, orgId, { mode: 'query', query: 'SELECT count(*) AS n FROM o JOIN i ON o.k = i.k', tables: ['o=sales.orders', { alias: 'i', table: 'lakeline.sales.items' }] });
    // Assess
    expect(response).toMatchObject({ success: true, row_count: 1, compute: { mode: 'sandbox', distributed: false, instanceType: 'local-sandbox-2vcpu', clusterSize: null } });
    expect(sandbox.runs[0]?.tables).toEqual([
      { names: ['sales.orders', 'o'], metadataLocation: TABLES[0]?.metadataLocation, location: 'file:///wh/o/sales/orders' },
      { names: ['sales.items', 'i'], metadataLocation: TABLES[1]?.metadataLocation, location: 'file:///wh/o/sales/items' },
    ]);
  });

  it('Should give a script the tables it scans by literal name, and nothing else', async () => {
    // Act
    await runPolars(deps, orgId, { mode: 'script', script: 'name = "sales." + "items"\nresult = scan("sales.orders").join(scan(name), on="k")' });
    // Assess
    expect(sandbox.runs[0]?.tables.map((t) => t.names)).toEqual([['sales.orders']]);
    expect(sandbox.runs[0]?.source).toEqual({ kind: 'script', script: expect.any(String), params: {} });
  });

  it('Should refuse an unregistered table in SQL before anything runs', async () => {
    await expect(runPolars(deps, orgId, { mode: 'query', query: 'SELECT * FROM items', tables: ['o=sales.orders'] })).rejects.toThrow(/SQL not allowed/);
    expect(sandbox.runs).toEqual([]);
  });

  it('Should check the plan before distributed, and refuse distributed without running it', async () => {
    // Arrange
    const free = (await createOrg(orgs, { name: 'f', plan: 'free', paymentMethod: false })).orgId;
    // Act / Assess
    await expect(runPolars(deps, free, { mode: 'script', script: 'result = pl.DataFrame()', distributed: true })).rejects.toThrow(/needs a payment method/);
    await expect(runPolars(deps, orgId, { mode: 'script', script: 'result = pl.DataFrame()', vcpus: 32 })).rejects.toThrow(/exceeds the pro plan's limit/);
    await expect(runPolars(deps, orgId, { mode: 'script', script: 'result = pl.DataFrame()', distributed: true })).rejects.toThrow(/distributed execution is not configured/);
    expect(sandbox.runs).toEqual([]);
  });

  it('Should meter the run on the org', async () => {
    // Act
    await runPolars(deps, orgId, { mode: 'script', script: 'result = pl.DataFrame()', vcpus: 4 });
    // Assess
    expect((await orgs.get(orgId))?.usageUsd).toBeGreaterThan(0);
    expect(sandbox.runs[0]?.vcpus).toBe(4);
  });
});

describe('polarsEngineOf', () => {
  it('Should run a routed request on the smallest tier that holds it, with the routed timeout', async () => {
    // Arrange
    const engine = polarsEngineOf(sandbox);
    const loaded = { engine: { name: { namespace: 'sales', table: 'orders' }, metadataLocation: 'file:///m.json', location: 'file:///wh/o/sales/orders' } } as never;
    // Act
    const result = await engine.run({ orgId, source: { kind: 'sql', sql: 'SELECT 1' }, tables: [{ alias: 'o', table: loaded }], vcpus: 3, timeoutMs: 20_000 });
    // Assess
    expect(result.compute.vcpus).toBe(4);
    expect(sandbox.runs[0]).toMatchObject({ vcpus: 4, timeoutMs: 20_000, tables: [{ names: ['o', 'sales.orders'] }] });
    expect(tierFor(33)).toBe(32);
  });
});
