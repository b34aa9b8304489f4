/**
 * @module runs/fakes
 * In-memory ports for the run use cases: a run store with the DynamoDB adapter's conditional
 * semantics, a scripted Spark engine, a catalog and lake storage of a few tables, and a lineage
 * sink that keeps what it was given.
 */
import { ConflictError } from '#domain/errors';
import type { Catalog, CatalogTable, LakeStorage } from '#domain/lake/ports';
import type { TableName } from '#domain/core/names';
import type { Org } from '#domain/orgs/org';
import type { LineageSink } from '#domain/lineage-capture/ports';
import type { RunDeps } from '#domain/runs/deps';
import type { SparkResourceRequest } from '#domain/core/machine-types';
import { RUN_ID_PROPERTY } from '#domain/runs/commit';
import type { RunStore, SparkEngine, SparkJob, SparkSubmission } from '#domain/runs/ports';
import { ACTIVE_STATES, isActive, type ComputeUsed, type EngineHandle, type Run, type RunEnd, type RunOutcome, type RunState } from '#domain/runs/run';
import { MemoryOrgStore } from '../../../helpers/memory-stores.ts';

/** {@link RunStore} in a Map; transitions are conditional exactly like the DynamoDB adapter's. */
/** An org on the pro plan with a payment method, as the run tests start from. */
export const payingOrg = (orgId: string, changes: Partial<Org> = {}): Org => ({
  orgId,
  name: orgId,
  plan: 'pro',
  paymentMethod: true,
  creditLimitUsd: 1000,
  usageUsd: 0,
  usageVcpuSeconds: {},
  createdAt: '2030-01-01T00:00:00Z',
  ...changes,
});

export class MemoryRunStore implements RunStore {
  readonly runs = new Map<string, Run>();

  async create(run: Run): Promise<void> {
    if (this.runs.has(run.runId)) throw new ConflictError(`run ${run.runId} already exists`);
    this.runs.set(run.runId, { timings: {}, ...run });
  }

  async get(runId: string): Promise<Run | undefined> {
    return this.runs.get(runId);
  }

  async attach(runId: string, handle: EngineHandle, at: string): Promise<boolean> {
    const run = this.runs.get(runId);
    if (!run || !isActive(run.state)) return false;
    const startedAt = typeof handle.startedAt === 'number' ? { startedAt: handle.startedAt } : {};
    this.runs.set(runId, { ...run, handle, updatedAt: at, timings: { ...run.timings, ...startedAt } });
    return true;
  }

  async start(runId: string, at: string, startedAt?: number): Promise<boolean> {
    const run = this.runs.get(runId);
    if (!run || run.state !== 'QUEUED') return false;
    this.runs.set(runId, { ...run, state: 'RUNNING', updatedAt: at, timings: { ...run.timings, ...(startedAt === undefined ? {} : { startedAt }) } });
    return true;
  }

  async end(runId: string, end: RunEnd, from: readonly RunState[] = ACTIVE_STATES): Promise<Run | undefined> {
    const run = this.runs.get(runId);
    if (!run || !from.includes(run.state)) return undefined;
    const { timings, ...rest } = end;
    const { error: _previous, ...kept } = run;
    // As the DynamoDB adapter: a COMPLETE run has no error.
    const base = end.state === 'COMPLETE' && end.error === undefined ? kept : run;
    const ended: Run = { ...base, ...rest, updatedAt: end.endedAt, timings: { ...run.timings, ...timings } };
    this.runs.set(runId, ended);
    return ended;
  }

  async recordUsage(runId: string, vcpuSeconds: number, at: string): Promise<boolean> {
    const run = this.runs.get(runId);
    if (!run || run.vcpuSeconds !== undefined) return false;
    this.runs.set(runId, { ...run, vcpuSeconds, updatedAt: at });
    return true;
  }

  async listByState(state: RunState): Promise<Run[]> {
    return [...this.runs.values()].filter((r) => r.state === state);
  }
}

/** A Spark engine whose behaviour each test scripts. */
export class FakeSparkEngine implements SparkEngine {
  readonly platform = 'local';
  readonly version = '3.5.7';
  readonly submitted: SparkJob[] = [];
  readonly cancelled: EngineHandle[] = [];
  submitError: Error | undefined;
  /** Whether submitted jobs start at once (true) or wait in the platform's queue. */
  startsAtOnce = true;
  reattachAnswer: (run: Run) => 'attached' | RunOutcome = () => 'attached';

  size(request: SparkResourceRequest): ComputeUsed {
    return {
      requested: { driverMachineType: request.driver.name, executorMachineType: request.executor.name, executors: request.executors },
      platform: this.platform,
      driver: { vcpus: 2, memoryGb: 4 },
      executor: { vcpus: 0, memoryGb: 0 },
      executors: 0,
      billedVcpus: 2,
      scaledDown: true,
      sparkConf: { 'spark.master': 'local[2]' },
    };
  }

  async submit(job: SparkJob): Promise<SparkSubmission> {
    if (this.submitError) throw this.submitError;
    this.submitted.push(job);
    if (!this.startsAtOnce) return { handle: { platform: this.platform, queued: 1 }, started: false };
    return { handle: { platform: this.platform, pid: 4242, startedAt: Date.parse('2030-01-01T00:00:01Z') }, started: true };
  }

  async cancel(handle: EngineHandle): Promise<void> {
    this.cancelled.push(handle);
  }

  async reattach(run: Run): Promise<'attached' | RunOutcome> {
    return this.reattachAnswer(run);
  }
}

const metadata = (location: string, columns: string[]) =>
  JSON.stringify({
    'format-version': 2,
    location,
    'current-schema-id': 0,
    schemas: [{ 'schema-id': 0, fields: columns.map((name, i) => ({ id: i + 1, name, type: 'long', required: false })) }],
    'current-snapshot-id': -1,
    snapshots: [],
  });

/** A catalog of a few tables per org, and the storage holding their metadata files. */
export class MemoryLake implements Catalog, LakeStorage {
  readonly tables = new Map<string, CatalogTable[]>();
  readonly files = new Map<string, string>();

  add(orgId: string, name: TableName, columns: string[]): void {
    const location = `file:///wh/${orgId}/${name.namespace}/${name.table}`;
    const metadataLocation = `${location}/metadata/v1.metadata.json`;
    this.files.set(metadataLocation, metadata(location, columns));
    this.tables.set(orgId, [...(this.tables.get(orgId) ?? []).filter((t) => t.namespace !== name.namespace || t.table !== name.table), { ...name, metadataLocation }]);
  }

  /** Records a commit of a run to a table (creating it): a snapshot whose summary carries the run id. */
  commit(orgId: string, name: TableName, runId: string, summary: Record<string, string> = {}): void {
    if (!this.tables.get(orgId)?.some((t) => t.namespace === name.namespace && t.table === name.table)) this.add(orgId, name, ['x']);
    const table = this.tables.get(orgId)?.find((t) => t.namespace === name.namespace && t.table === name.table) as CatalogTable;
    const doc = JSON.parse(this.files.get(table.metadataLocation) as string) as { snapshots: unknown[]; 'current-snapshot-id': number };
    const id = doc.snapshots.length + 1;
    doc.snapshots.push({ 'snapshot-id': id, 'timestamp-ms': Date.parse('2030-01-01T00:00:05Z'), summary: { operation: 'append', [RUN_ID_PROPERTY]: runId, ...summary } });
    doc['current-snapshot-id'] = id;
    this.files.set(table.metadataLocation, JSON.stringify(doc));
  }

  async listTables(orgId: string, namespace?: string): Promise<CatalogTable[]> {
    return (this.tables.get(orgId) ?? []).filter((t) => namespace === undefined || t.namespace === namespace);
  }

  async loadTable(orgId: string, name: TableName): Promise<CatalogTable | undefined> {
    return (this.tables.get(orgId) ?? []).find((t) => t.namespace === name.namespace && t.table === name.table);
  }

  async readText(uri: string): Promise<string> {
    const text = this.files.get(uri);
    if (text === undefined) throw new Error(`no such file ${uri}`);
    return text;
  }
}

/** Keeps every emitted event. */
export class MemoryLineage implements LineageSink {
  readonly events: { orgId: string; event: Record<string, unknown> }[] = [];

  async emit(orgId: string, event: object): Promise<void> {
    this.events.push({ orgId, event: event as Record<string, unknown> });
  }

  types(): string[] {
    return this.events.map((e) => String(e.event.eventType));
  }
}

/** Everything a run test needs, wired. */
export interface RunWorld {
  readonly deps: RunDeps;
  readonly runs: MemoryRunStore;
  readonly orgs: MemoryOrgStore;
  readonly engine: FakeSparkEngine;
  readonly lake: MemoryLake;
  readonly lineage: MemoryLineage;
  readonly warnings: string[];
  /** Moves the clock. */
  advance(ms: number): void;
}

/** A world with one clock starting at 2030-01-01T00:00:00Z and run ids run-1, run-2, … */
export const runWorld = (options: { meteredByPlatform?: boolean } = {}): RunWorld => {
  let now = Date.parse('2030-01-01T00:00:00Z');
  let ids = 0;
  const runs = new MemoryRunStore();
  const orgs = new MemoryOrgStore();
  const engine = new FakeSparkEngine();
  const lake = new MemoryLake();
  const lineage = new MemoryLineage();
  const warnings: string[] = [];
  const deps: RunDeps = {
    runs,
    orgs,
    catalog: lake,
    storage: lake,
    engine,
    lineage,
    meteredByPlatform: options.meteredByPlatform ?? false,
    warn: (message) => warnings.push(message),
    now: () => new Date(now),
    newRunId: () => `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`,
  };
  return { deps, runs, orgs, engine, lake, lineage, warnings, advance: (ms) => (now += ms) };
};
