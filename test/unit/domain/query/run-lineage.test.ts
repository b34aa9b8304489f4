/**
 * The lineage around a query run in its request (withRunLineage), shared by the routed endpoint's
 * interactive runs and the legacy endpoint: START then COMPLETE with the output, START then FAIL
 * with the message the caller sees (a domain error's, else `internal error`), and a sink that fails
 * never failing the run. START is written with the end for a run shorter than the START delay,
 * on its own for a longer one, and both are stored before the answer (ADR 0058).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { ExecutionError, ValidationError } from '#domain/errors';
import type { QueryRun } from '#domain/lineage-capture/run-events';
import { withRunLineage, type RunLineageDeps } from '#domain/query/run-lineage';
import { MemorySink } from '../lake/fakes.ts';

const RUN: QueryRun = {
  runId: '00000000-0000-4000-8000-000000000001',
  job: { namespace: 'lakeline', name: 'q_1' },
  sql: 'SELECT 1',
  dialect: 'duckdb',
  engine: { name: 'duckdb', version: '1.5.5' },
  inputs: [],
  catalogKind: 'jdbc',
};
const OUTPUT = { dataset: { table: { namespace: 'autosave', table: 'q_1' }, location: 'file:///wh/autosave/q_1', fields: [] }, rowCount: 3, bytes: 100, fileCount: 1 };

let sink: MemorySink;
let warnings: string[];
let deps: RunLineageDeps;

beforeEach(() => {
  sink = new MemorySink();
  warnings = [];
  deps = { lineage: sink, warn: (message) => warnings.push(message), now: () => new Date('2030-01-01T00:00:00Z') };
});

const types = (): string[] => sink.events.map((e) => String(e.event.eventType));

describe('withRunLineage', () => {
  it('Should record START and COMPLETE with the output, and answer what the run produced', async () => {
    // Act
    const answer = await withRunLineage(deps, 'org-1', RUN, async () => ({ rows: 3 }), { output: () => OUTPUT });
    // Assess
    expect(answer).toEqual({ rows: 3 });
    expect(types()).toEqual(['START', 'COMPLETE']);
    expect(sink.events[1]?.event).toMatchObject({ run: { runId: RUN.runId }, outputs: [{ name: '/wh/autosave/q_1', outputFacets: { outputStatistics: { rowCount: 3 } } }] });
    expect(sink.events.every((e) => e.orgId === 'org-1')).toBe(true);
  });

  it('Should put the column lineage of the SQL on the table a run wrote', async () => {
    // Prepare: an autosave of a query over one table.
    const orders = { table: { namespace: 'sales', table: 'orders' }, location: 'file:///wh/sales/orders', fields: [{ name: 'o_id', type: 'long' }, { name: 'o_total', type: 'double' }] };
    const run: QueryRun = { ...RUN, sql: 'SELECT o_id, o_total * 2 AS doubled FROM sales.orders WHERE o_total > 0', inputs: [orders] };
    const output = { ...OUTPUT, dataset: { ...OUTPUT.dataset, fields: [{ name: 'o_id', type: 'long' }, { name: 'doubled', type: 'double' }] } };
    // Act
    await withRunLineage(deps, 'org-1', run, async () => ({ rows: 3 }), { output: () => output });
    // Assess
    const complete = sink.events[1]?.event as { outputs: { facets: { columnLineage: { fields: Record<string, { inputFields: { field: string; transformations: { subtype: string }[] }[] }>; dataset: { field: string }[] } } }[] };
    const lineage = complete.outputs[0]?.facets.columnLineage;
    expect(lineage?.fields.o_id?.inputFields.map((f) => [f.field, f.transformations.map((t) => t.subtype)])).toEqual([['o_id', ['IDENTITY']]]);
    expect(lineage?.fields.doubled?.inputFields.map((f) => [f.field, f.transformations.map((t) => t.subtype)])).toEqual([['o_total', ['TRANSFORMATION']]]);
    expect(lineage?.dataset.map((f) => f.field)).toEqual(['o_total']);
  });

  it("Should record FAIL with a domain error's message and throw it", async () => {
    // Act
    const act = withRunLineage(deps, 'org-1', RUN, () => Promise.reject(new ValidationError('Binder Error: no column x')));
    // Assess
    await expect(act).rejects.toThrow('Binder Error: no column x');
    expect(types()).toEqual(['START', 'FAIL']);
    expect(sink.events[1]?.event).toMatchObject({ run: { facets: { errorMessage: { message: 'Binder Error: no column x' } } } });
  });

  it('Should record FAIL as an internal error for anything else, unless mapped, and throw the mapping', async () => {
    // Act
    const unmapped = withRunLineage(deps, 'org-1', RUN, () => Promise.reject(new TypeError('secret detail')));
    await expect(unmapped).rejects.toThrow(TypeError);
    const mapped = withRunLineage(deps, 'org-1', RUN, () => Promise.reject(new TypeError('disk full')), { failure: (err) => new ExecutionError(`duckdb failed: ${(err as Error).message}`) });
    // Assess
    await expect(mapped).rejects.toThrow(ExecutionError);
    expect(sink.events.filter((e) => e.event.eventType === 'FAIL').map((e) => (e.event.run as { facets: { errorMessage: { message: string } } }).facets.errorMessage.message)).toEqual([
      'internal error',
      'duckdb failed: disk full',
    ]);
  });

  it('Should write START together with COMPLETE, after the run, when the run ends before the START delay', async () => {
    // Prepare
    let storedWhileRunning = -1;
    // Act
    await withRunLineage({ ...deps, startWriteAfterMs: 10_000 }, 'org-1', RUN, async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      storedWhileRunning = sink.events.length;
      return 'rows';
    });
    // Assess: nothing was written on the run's time; START keeps the time the run began.
    expect(storedWhileRunning).toBe(0);
    expect(types()).toEqual(['START', 'COMPLETE']);
  });

  it('Should write START while a run that outlasts the START delay is still running', async () => {
    // Prepare
    let storedWhileRunning: string[] = [];
    // Act
    await withRunLineage({ ...deps, startWriteAfterMs: 5 }, 'org-1', RUN, async () => {
      await new Promise((resolve) => setTimeout(resolve, 60));
      storedWhileRunning = types();
      return 'rows';
    });
    // Assess
    expect(storedWhileRunning).toEqual(['START']);
    expect(types()).toEqual(['START', 'COMPLETE']);
  });

  it('Should not answer before both events are stored, however slow the store', async () => {
    // Prepare: a store that takes 30 ms per event.
    const slow: RunLineageDeps = {
      ...deps,
      lineage: { emit: (orgId, event) => new Promise((resolve) => setTimeout(() => resolve(sink.emit(orgId, event)), 30)) },
    };
    // Act
    await withRunLineage(slow, 'org-1', RUN, async () => 'rows');
    const failed = withRunLineage(slow, 'org-1', RUN, () => Promise.reject(new ValidationError('no such column')));
    await expect(failed).rejects.toThrow('no such column');
    // Assess
    expect(types()).toEqual(['START', 'COMPLETE', 'START', 'FAIL']);
  });

  it('Should answer although no event can be recorded, and log each one', async () => {
    // Prepare
    sink.failing = true;
    // Act
    const answer = await withRunLineage(deps, 'org-1', RUN, async () => 'rows');
    // Assess
    expect(answer).toBe('rows');
    expect(warnings).toEqual(['lineage event not recorded', 'lineage event not recorded']);
  });
});
